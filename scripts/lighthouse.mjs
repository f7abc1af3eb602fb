// Lighthouse for the bench (bench/lighthouse.ts), installed on first use beside, not into, the project's
// node_modules: Lighthouse 13.5 asks for Node >= 22.19 (its engines field; it runs on Node 20.19 here, as
// notes/toolchain.md verified), and a devDependency that asks for more than package.json's engines would make
// every `npm ci` on Node 20 print EBADENGINE (test/package/engines.test.ts). `npm ci` leaves a dot folder in
// node_modules alone, and so does every later install.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const LIGHTHOUSE_VERSION = '13.5.0';
const PREFIX = fileURLToPath(new URL('../node_modules/.lighthouse/', import.meta.url));
const CLI = `${PREFIX}node_modules/lighthouse/cli/index.js`;

/** @returns {string} the Lighthouse CLI script, installed first when missing. */
export function lighthouseCli() {
  if (!existsSync(CLI)) {
    mkdirSync(PREFIX, { recursive: true });
    console.log(`== installing lighthouse@${LIGHTHOUSE_VERSION} into node_modules/.lighthouse (once)`);
    execFileSync(
      'npm',
      [
        'install',
        '--prefix',
        PREFIX,
        '--no-save',
        '--no-package-lock',
        '--no-audit',
        '--no-fund',
        '--engine-strict=false',
        '--loglevel=error',
        `lighthouse@${LIGHTHOUSE_VERSION}`,
      ],
      { stdio: 'inherit' },
    );
  }
  return CLI;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(lighthouseCli());
