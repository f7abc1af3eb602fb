// `node scripts/tree-unchanged.mjs <command…>` runs the command, then fails when it changed what `git status`
// shows: a file it wrote that git neither ignores nor holds as written, or a committed file it rewrote. CI's
// build lane runs the build under it on a clean clone, so a build that leaves a generated file to commit
// fails there: what a build generates goes into dist/ (ignored), and what is committed (the element tables
// of docs/elements.md, the framework bindings) comes out of it unchanged until an element changes. On a tree
// with changes of your own, those stay out of it: only what the command changed counts.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** `{ path: content hash }` of every path `git status` lists in `cwd` ('deleted' for one that is gone). */
export function statusSnapshot(cwd = process.cwd()) {
  const result = spawnSync('git', ['status', '--porcelain=v1', '-z', '--untracked-files=all'], {
    cwd,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`git status failed in ${cwd}: ${result.stderr}`);
  const snapshot = {};
  const entries = result.stdout.split('\0');
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    if (!entry) continue;
    const path = entry.slice(3);
    // A rename lists its source next; the destination is the path that holds the content.
    if (entry[0] === 'R' || entry[0] === 'C') i++;
    const file = `${cwd}/${path}`;
    snapshot[path] = existsSync(file) ? createHash('sha256').update(readFileSync(file)).digest('hex') : 'deleted';
  }
  return snapshot;
}

/** The paths `after` lists that `before` did not, or lists with other content. */
export function changedPaths(before, after) {
  return Object.keys(after)
    .filter((path) => before[path] !== after[path])
    .sort();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [command, ...args] = process.argv.slice(2);
  if (!command) {
    console.error('usage: node scripts/tree-unchanged.mjs <command…>   (e.g. npm run build)');
    process.exit(2);
  }
  const before = statusSnapshot();
  const run = spawnSync(command, args, { stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
  const changed = changedPaths(before, statusSnapshot());
  if (changed.length) {
    console.error(
      `\`${[command, ...args].join(' ')}\` changed what git status shows:\n  ${changed.join('\n  ')}\n` +
        'What it generates belongs in dist/ (ignored); a committed file it writes must come out as committed.',
    );
    process.exit(1);
  }
  console.error(`\`${[command, ...args].join(' ')}\` left git status as it found it.`);
}
