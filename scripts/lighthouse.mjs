// Lighthouse for the bench (bench/lighthouse.ts), at the version and with the dependencies that
// bench/package-lock.json pins, installed into bench/node_modules on first use. It is not a devDependency
// of the package: Lighthouse's engines field asks for a newer Node than package.json's engines, and
// the package's own `npm ci` must print no EBADENGINE on the Node that package.json's engines names
// (test/package/engines.test.ts).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCH = fileURLToPath(new URL('../bench/', import.meta.url));
const CLI = join(BENCH, 'node_modules/lighthouse/cli/index.js');

/** The version bench/package.json pins. */
export const LIGHTHOUSE_VERSION = JSON.parse(readFileSync(join(BENCH, 'package.json'), 'utf8')).dependencies.lighthouse;

/** @returns {string | undefined} the version installed in bench/node_modules, if any. */
function installed() {
  const manifest = join(BENCH, 'node_modules/lighthouse/package.json');
  return existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')).version : undefined;
}

/**
 * @returns {string} the Lighthouse CLI script, installed first (`npm ci` from bench/package-lock.json)
 * when it is missing or of another version than the lock names.
 */
export function lighthouseCli() {
  if (installed() === LIGHTHOUSE_VERSION && existsSync(CLI)) return CLI;
  console.log(`== installing lighthouse@${LIGHTHOUSE_VERSION} from bench/package-lock.json into bench/node_modules`);
  execFileSync(
    'npm',
    ['ci', '--prefix', BENCH, '--no-audit', '--no-fund', '--engine-strict=false', '--loglevel=error'],
    { stdio: 'inherit' },
  );
  if (installed() !== LIGHTHOUSE_VERSION) throw new Error(`npm ci installed no lighthouse@${LIGHTHOUSE_VERSION}`);
  return CLI;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(lighthouseCli());
