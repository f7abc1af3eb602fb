// A folder per subpath of package.json's `exports` (`react-native/package.json`, `server/redis/package.json`,
// …) whose `main` and `types` point into dist/: resolvers that ignore `exports` find the subpath through it.
// Metro before 0.82 (React Native 0.78 and older, Expo SDK 52 and older) reads `exports` only when an app
// turns `unstable_enablePackageExports` on, and TypeScript's `moduleResolution: node10` never does.
// package.json's `exports` is the one source: `node scripts/subpath-folders.mjs` writes the folders,
// `--check` fails when one is missing, stale or extra, or when package.json's `files` leaves one out
// (test/package/subpath-folders.test.ts runs the check in the fast gate).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** `{ 'react-native/package.json': '{…}\n', … }`: every folder's manifest, from package.json's exports. */
export function subpathManifests(pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))) {
  const manifests = {};
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    // The root has its own main and types; a file export (package.json, custom-elements.json) is a file.
    if (subpath === '.' || typeof target !== 'object') continue;
    const folder = subpath.slice(2);
    const up = relative(folder, '.') || '.';
    // A types-only entry (hub-embed/jsx/preact, …) has no JavaScript for `main` to name.
    const manifest = {
      ...(target.default && { main: `${up}/${target.default.slice(2)}` }),
      types: `${up}/${target.types.slice(2)}`,
      // A web build of the subpath: the web's resolvers read `browser`, and React Native's reads
      // `react-native` before it (its main fields are react-native, browser, main).
      ...(target.browser && {
        'react-native': `${up}/${target.default.slice(2)}`,
        browser: `${up}/${target.browser.slice(2)}`,
      }),
    };
    manifests[`${folder}/package.json`] = `${JSON.stringify(manifest, null, 2)}\n`;
  }
  return manifests;
}

/** What is wrong on disk and in package.json's `files` (empty when the folders are current). */
export function subpathProblems(root = ROOT) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const manifests = subpathManifests(pkg);
  const problems = [];
  for (const [file, text] of Object.entries(manifests)) {
    const path = join(root, file);
    if (!existsSync(path)) problems.push(`${file} is missing`);
    else if (readFileSync(path, 'utf8') !== text) problems.push(`${file} is stale`);
    if (!pkg.files.includes(file)) problems.push(`package.json "files" leaves out ${file}`);
  }
  // A folder of a subpath that is no longer exported (its manifest would resolve to a file that may be gone).
  for (const file of pkg.files.filter((entry) => entry.endsWith('/package.json')))
    if (!(file in manifests)) problems.push(`package.json "files" names ${file}, which no export needs`);
  return problems;
}

/** Writes every folder's manifest; removes a folder's manifest that no export needs any more. */
export function writeSubpathFolders(root = ROOT) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const manifests = subpathManifests(pkg);
  for (const [file, text] of Object.entries(manifests)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  for (const file of pkg.files.filter((entry) => entry.endsWith('/package.json') && !(entry in manifests))) {
    rmSync(join(root, file), { force: true });
    const folder = dirname(join(root, file));
    if (existsSync(folder) && readdirSync(folder).length === 0) rmSync(folder, { recursive: true });
  }
  return Object.keys(manifests);
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  if (process.argv.includes('--check')) {
    const problems = subpathProblems();
    if (problems.length) {
      console.error(
        `${problems.join('\n')}\nRun node scripts/subpath-folders.mjs and add the files it names to "files".`,
      );
      process.exit(1);
    }
    console.log('subpath folders current');
  } else {
    console.log(writeSubpathFolders().join('\n'));
  }
}
