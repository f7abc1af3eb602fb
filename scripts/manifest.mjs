// Writes custom-elements.json from the elements' JSDoc. `--check` fails when the committed file is stale
// (CI runs the check, so the manifest and the element tables of docs/elements.md cannot drift from the code).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { withElements } from './element-tables.mjs';
import { syncBindings } from './bindings.mjs';

const check = process.argv.includes('--check');
/** The schema version the manifest follows: the package custom-elements-manifest's (a devDependency). */
const SCHEMA_VERSION = JSON.parse(readFileSync('node_modules/custom-elements-manifest/package.json', 'utf8')).version;
/** Where the main entry's code ships, and where hub-embed/define registers the tags. */
const MAIN = 'dist/index.js';
const DEFINE = 'dist/define.js';

/** Names a module exports with `export { A, B as C, type D } from './x.js'`, by the source file they come from. */
function reExports(file) {
  const byModule = new Map();
  for (const [, list, from] of readFileSync(file, 'utf8').matchAll(/export\s*\{([^}]*)\}\s*from\s*'([^']+)'/g)) {
    const source = join(dirname(file), from).replace(/\.js$/, '.ts');
    const names = list
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part && !part.startsWith('type '))
      .map((part) => part.split(/\s+as\s+/).at(-1));
    byModule.set(source, [...(byModule.get(source) ?? []), ...names]);
  }
  return byModule;
}

/**
 * The analyzer describes src/, which the package does not ship. A user's tools (IDEs, Storybook, lit
 * analyzers) resolve the manifest's modules in the installed package, so its modules are the shipped
 * files: every declaration hub-embed's main entry exports, in dist/index.js, and the tags hub-embed/define
 * registers, in dist/define.js. Declarations no entry exports are internal and left out; references to
 * them keep their name without a module.
 */
function shippedManifest(analyzed) {
  const exported = reExports('src/index.ts');
  const declarations = analyzed.modules.flatMap((module) =>
    (module.declarations ?? []).filter((d) => exported.get(module.path)?.includes(d.name)),
  );
  const publicNames = new Set(declarations.map((d) => d.name));
  const moved = JSON.parse(
    JSON.stringify(declarations, (key, value) => {
      if (value && typeof value === 'object' && !Array.isArray(value) && typeof value.module === 'string') {
        const reference = { ...value };
        if (publicNames.has(value.name)) reference.module = MAIN;
        else delete reference.module;
        return reference;
      }
      return value;
    }),
  );
  const defined = [...readFileSync('src/components/register.ts', 'utf8').matchAll(/^define\('([^']+)', (\w+)\);$/gm)];
  return {
    schemaVersion: SCHEMA_VERSION,
    readme: analyzed.readme ?? '',
    modules: [
      {
        kind: 'javascript-module',
        path: MAIN,
        declarations: moved,
        exports: moved.map((d) => ({ kind: 'js', name: d.name, declaration: { name: d.name, module: MAIN } })),
      },
      {
        kind: 'javascript-module',
        path: DEFINE,
        declarations: [],
        exports: defined.map(([, tag, name]) => ({
          kind: 'custom-element-definition',
          name: tag,
          declaration: { name, module: MAIN },
        })),
      },
    ],
  };
}

// The analyzer resolves --outdir against the working directory, so keep it relative.
const out = 'node_modules/.cache/cem';
// The analyzer also rewrites package.json's `customElements` to its outdir; keep ours as it is.
const pkg = readFileSync('package.json', 'utf8');
execFileSync(
  'npx',
  [
    'cem',
    'analyze',
    '--litelement',
    '--globs',
    'src/components/**/*.ts',
    '--exclude',
    'src/components/**/*.styles.ts',
    '--exclude',
    'src/components/members.ts',
    '--outdir',
    out,
    '--quiet',
  ],
  {
    stdio: ['ignore', 'ignore', 'inherit'],
  },
);
writeFileSync('package.json', pkg);
const manifest = JSON.parse(readFileSync(join(out, 'custom-elements.json'), 'utf8'));
// The analyzer lists modules in the order the file system returns them, which differs between
// checkouts; sorted by path, the files are the same on every machine.
manifest.modules.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
for (const module of manifest.modules)
  for (const declaration of module.declarations ?? []) {
    // `emit(name, ...)` in the base class shows up as an event literally called "name": drop it.
    if (declaration.events) declaration.events = declaration.events.filter((event) => event.name !== 'name');
    // The manifest describes what users can reach: #private and `private` members are implementation, and
    // listing them would make every internal refactor a manifest change. Protected ones stay (subclasses).
    if (declaration.members)
      declaration.members = declaration.members.filter((m) => m.privacy !== 'private' && !m.name.startsWith('#'));
  }
const fresh = JSON.stringify(shippedManifest(manifest), null, 2) + '\n';
const ELEMENTS_DOC = 'docs/elements.md';
const elementsDoc = readFileSync(ELEMENTS_DOC, 'utf8');
const freshElementsDoc = withElements(elementsDoc, manifest);
// The React and Vue bindings are generated from the same manifest (scripts/bindings.mjs).
const staleBindings = await syncBindings(manifest, { check });
if (check) {
  const current = existsSync('custom-elements.json') ? readFileSync('custom-elements.json', 'utf8') : '';
  if (current !== fresh || elementsDoc !== freshElementsDoc || staleBindings.length) {
    console.error(
      `custom-elements.json, the element tables of ${ELEMENTS_DOC} or the framework bindings are stale: run \`node scripts/manifest.mjs\` and commit them.`,
    );
    process.exit(1);
  }
  console.log(`custom-elements.json, the element tables of ${ELEMENTS_DOC} and the framework bindings are current.`);
} else {
  writeFileSync('custom-elements.json', fresh);
  writeFileSync(ELEMENTS_DOC, freshElementsDoc);
  console.log(`custom-elements.json, the element tables of ${ELEMENTS_DOC} and the framework bindings written.`);
}
