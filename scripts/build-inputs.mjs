// What a build of dist/ is made from, and whether dist/ was built from it. `npm run build` ends by recording
// a hash of its inputs and the files it wrote in node_modules/.cache/hub-embed-build.json; `npm run
// build:current` (scripts/build.mjs --if-stale) builds only when that record no longer matches, so the CI
// lanes and `npm pack` after one build do not each build again. The record is outside dist/: it never ships.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RECORD = join(ROOT, 'node_modules/.cache/hub-embed-build.json');
/** Everything the build reads besides node_modules (whose versions package-lock.json pins). */
const INPUTS = [
  'src',
  'packages/hub-embed-mock/src',
  'packages/hub-embed-mock/package.json',
  'packages/hub-embed-mock/tsconfig.build.json',
  'scripts',
  'package.json',
  'package-lock.json',
  'vite.config.ts',
  'build',
  'tsconfig.json',
  'tsconfig.build.json',
];

/** Every file under `path` (relative to the root), sorted. */
function filesUnder(path) {
  const full = join(ROOT, path);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full)
    .sort()
    .flatMap((name) => filesUnder(`${path}/${name}`));
}

/** A hash over the build's input files, their names and their contents. */
export function inputHash() {
  const hash = createHash('sha256');
  // The plugins' unit tests sit beside them under build/ and are no input of the build.
  for (const file of INPUTS.flatMap(filesUnder).filter((name) => !name.endsWith('.test.ts')))
    hash
      .update(`${file}\0`)
      .update(readFileSync(join(ROOT, file)))
      .update('\0');
  return hash.digest('hex');
}

/** The files the build writes (both packages' dist/), relative to the root. */
function distFiles() {
  return [...filesUnder('dist'), ...filesUnder('packages/hub-embed-mock/dist')];
}

/** Records that dist/ (as it is now) was built from the inputs as they are now. */
export function recordBuild() {
  mkdirSync(dirname(RECORD), { recursive: true });
  writeFileSync(RECORD, `${JSON.stringify({ inputs: inputHash(), dist: distFiles() }, null, 2)}\n`);
}

/** True when dist/ holds every file the last build wrote and the inputs have not changed since. */
export function builtFromCurrentSources() {
  if (!existsSync(RECORD)) return false;
  const { inputs, dist } = JSON.parse(readFileSync(RECORD, 'utf8'));
  return (
    Array.isArray(dist) &&
    dist.length > 0 &&
    dist.every((file) => existsSync(join(ROOT, file))) &&
    inputs === inputHash()
  );
}

// `node scripts/build-inputs.mjs`: says whether dist/ is current (exit 0) or not (exit 1).
if (process.argv[1] && relative(process.argv[1], fileURLToPath(import.meta.url)) === '') {
  const current = builtFromCurrentSources();
  console.log(current ? 'dist/ is current' : 'dist/ is missing or older than the sources');
  process.exit(current ? 0 : 1);
}
