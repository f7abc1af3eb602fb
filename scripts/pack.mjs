// A package's tarball, packed once per change: `npm pack` into node_modules/.cache/<package>-pack/, done
// again only when a file the tarball holds has changed since (a hash of the packed files' names and
// contents). The lanes that install hub-embed's tarball share it, so a CI run packs it once; hub-embed-mock's
// (packages/hub-embed-mock) packs the same way. `node scripts/pack.mjs` prints hub-embed's tarball's path.
// dist/ is built first when stale (scripts/build.mjs --if-stale): the package has no prepack script, so
// what packs builds first itself (this, and the release step).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The simulator's package, packed on its own. */
export const MOCK_PACKAGE = join(ROOT, 'packages/hub-embed-mock');
const cacheOf = (dir) => join(ROOT, `node_modules/.cache/${dir === ROOT ? 'hub-embed' : 'hub-embed-mock'}-pack`);

function npm(dir, args) {
  // npm's own notices go to stderr; stdout is the JSON report alone.
  return execFileSync('npm', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
}

/** The files `npm pack` would put in the tarball, with a hash over their names and contents. */
function packList(dir) {
  const [report] = JSON.parse(npm(dir, ['pack', '--dry-run', '--json', '--ignore-scripts']));
  const files = report.files.map((file) => file.path).sort();
  const hash = createHash('sha256');
  for (const file of files)
    hash
      .update(`${file}\0`)
      .update(readFileSync(join(dir, file)))
      .update('\0');
  return { filename: report.filename, files, hash: hash.digest('hex') };
}

/**
 * The tarball of the package in `dir` (hub-embed's by default) as it is now: `{ tarball, files }`, the
 * tarball's absolute path and the paths it holds (`dist/index.js`, `package.json`, …). Builds both packages'
 * dist/ when stale, packs when the files changed.
 */
export function packedTarball(dir = ROOT) {
  const CACHE = cacheOf(dir);
  const RECORD = join(CACHE, 'packed.json');
  // The build's report goes to stderr: stdout is the tarball's path alone (`$(node scripts/pack.mjs)`).
  execFileSync(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--if-stale'], {
    cwd: ROOT,
    stdio: ['ignore', 2, 2],
  });
  const list = packList(dir);
  const tarball = join(CACHE, list.filename);
  const record = existsSync(RECORD) ? JSON.parse(readFileSync(RECORD, 'utf8')) : undefined;
  if (record?.hash === list.hash && existsSync(tarball)) return { tarball, files: list.files };
  rmSync(CACHE, { recursive: true, force: true });
  mkdirSync(CACHE, { recursive: true });
  npm(dir, ['pack', '--json', '--ignore-scripts', '--pack-destination', CACHE]);
  writeFileSync(
    RECORD,
    `${JSON.stringify({ hash: list.hash, filename: list.filename, files: list.files }, null, 2)}\n`,
  );
  return { tarball, files: list.files };
}

/**
 * The tarball `node scripts/pack.mjs` just printed, without looking at the sources again: for the test
 * files of one lane, whose npm script packs first (HUB_EMBED_PACKED=$(node scripts/pack.mjs) …).
 */
export function lastPacked(tarball) {
  const CACHE = cacheOf(ROOT);
  const RECORD = join(CACHE, 'packed.json');
  const record = JSON.parse(readFileSync(RECORD, 'utf8'));
  if (join(CACHE, record.filename) !== tarball || !existsSync(tarball))
    throw new Error(`${tarball} is not the tarball scripts/pack.mjs packed last (${record.filename}).`);
  return { tarball, files: record.files };
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  const { tarball, files } = packedTarball();
  console.error(`${files.length} files packed`);
  console.log(tarball);
}
