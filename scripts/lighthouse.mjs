// Lighthouse for the bench (bench/lighthouse.ts), installed on first use outside the project's node_modules:
// Lighthouse 13.5 asks for Node >= 22.19 (its engines field; it runs on Node 20.19 here, as
// notes/toolchain.md verified), and a devDependency that asks for more than package.json's engines would make
// every `npm ci` on Node 20 print EBADENGINE (test/package/engines.test.ts). It goes to the user's cache, one
// folder per version: `npm ci` empties node_modules, dot folders included, so an install there would be
// made again (about a minute) by every CI run; a clean clone on the same machine finds it in the cache.
// HUB_EMBED_LIGHTHOUSE_DIR chooses another folder.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const LIGHTHOUSE_VERSION = '13.5.0';
const PREFIX =
  process.env.HUB_EMBED_LIGHTHOUSE_DIR ||
  join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'hub-embed', `lighthouse-${LIGHTHOUSE_VERSION}`);
const CLI = join(PREFIX, 'node_modules/lighthouse/cli/index.js');

/**
 * @returns {string} the Lighthouse CLI script, installed first when missing. The install goes to a folder
 * of its own and is renamed into place when complete, so that an interrupted install or two at once (CI
 * and a contributor's bench on one machine) never leave a half-installed Lighthouse behind.
 */
export function lighthouseCli() {
  if (existsSync(CLI)) return CLI;
  const cli = (prefix) => join(prefix, 'node_modules/lighthouse/cli/index.js');
  mkdirSync(dirname(PREFIX), { recursive: true });
  const staging = mkdtempSync(`${PREFIX}.installing-`);
  console.log(`== installing lighthouse@${LIGHTHOUSE_VERSION} into ${PREFIX} (once per machine)`);
  try {
    execFileSync(
      'npm',
      [
        'install',
        '--prefix',
        staging,
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
    if (!existsSync(cli(staging))) throw new Error(`npm installed no ${cli(staging)}`);
    // A folder there without the CLI is replaced; an install another process finished meanwhile is kept.
    if (!existsSync(CLI)) {
      rmSync(PREFIX, { recursive: true, force: true });
      renameSync(staging, PREFIX);
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return CLI;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(lighthouseCli());
