// A path named in a comment, a doc or an error message is a promise that the file is there. Files get
// renamed and moved, and the names that pointed at them stay: scripts/console-bundle.mjs named a test file
// by its old name, and import-rules.test.ts cited a design document that lives outside this repository
// (issue 28, item 7).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FOLDERS = ['src', 'packages', 'test', 'scripts', 'build', 'docs', 'bench', 'demo', 'examples', '.ci'];
const SKIPPED = new Set(['node_modules', 'dist', 'bundle.generated.ts']);
const TEXT = /\.(ts|tsx|mts|js|mjs|vue|md|sh|html|json)$|^run$/;

/** Named on purpose although not in the repository. */
const ELSEWHERE = new Map([
  ['docs/Reference.md', "react-native-webview's own documentation"],
  ['bench/results.json', 'written by `npm run bench`, never committed'],
]);
/** A build's output (a package's dist/), there once `npm run build` has run. */
const BUILT = /(^|\/)dist\//;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (SKIPPED.has(name)) return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return TEXT.test(name) ? [path] : [];
  });
}

const all = [
  ...FOLDERS.filter((folder) => existsSync(join(ROOT, folder))).flatMap((folder) => files(join(ROOT, folder))),
  ...['README.md', 'package.json', 'vite.config.ts', 'vitest.config.ts', 'eslint.config.js'].map((name) =>
    join(ROOT, name),
  ),
];

/** A path under one of the repository's folders, or a capitalised top-level document such as README.md. */
const NAMED =
  /(?<![\w./-])((?:src|packages|test|scripts|docs|bench|demo|examples|\.ci)\/[\w./-]*[\w-]\.(?:ts|tsx|mts|mjs|js|md|json|vue|sh|html)|[A-Z][A-Z_]+\.md)(?![\w*])/g;

/** A name resolves from the repository root, or from the folder of an example app that names its own files. */
function exists(name: string, file: string): boolean {
  const example = relative(ROOT, file).match(/^examples\/[^/]+/)?.[0];
  return [ROOT, dirname(file), ...(example ? [join(ROOT, example)] : [])].some((base) => existsSync(join(base, name)));
}

describe('references', () => {
  it('every file path named in src, tests, scripts, docs, bench, demo and examples exists', () => {
    const named = all.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(NAMED)].map((match) => ({ file, name: match[1]! })),
    );
    // The walk sees the names it checks.
    expect(named.length).toBeGreaterThan(200);
    expect(named.some(({ name }) => name === 'docs/architecture.md')).toBe(true);
    const missing = named
      .filter(({ name, file }) => !ELSEWHERE.has(name) && !BUILT.test(name) && !exists(name, file))
      .map(({ name, file }) => `${relative(ROOT, file)} names ${name}`);
    expect(missing).toEqual([]);
  });
});
