// The custom elements manifest, generated from the elements' JSDoc by the analyzer (in process) and never
// committed: `node scripts/manifest.mjs` (the build runs it) writes it to dist/custom-elements.json, where the
// package ships it, and writes what is committed from the same analysis: the element tables of
// docs/elements.md and the framework bindings (src/react, src/vue, src/components/members.ts). Those change
// only when an element does. `--check` (CI's manifest lane) fails when the committed ones are stale.
// Tests take the manifest from `elementsManifest()`, so they need no build.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { create, ts } from '@custom-elements-manifest/analyzer';
import { litPlugin } from '@custom-elements-manifest/analyzer/src/features/framework-plugins/lit/lit.js';
import { withElements } from './element-tables.mjs';
import { syncBindings } from './bindings.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Where the build writes the manifest the package ships (package.json's `customElements`). */
export const MANIFEST_FILE = 'dist/custom-elements.json';
const ELEMENTS_DOC = 'docs/elements.md';
/** The schema version the manifest follows: the package custom-elements-manifest's (a devDependency). */
const SCHEMA_VERSION = JSON.parse(
  readFileSync(join(ROOT, 'node_modules/custom-elements-manifest/package.json'), 'utf8'),
).version;
/** Where the main entry's code ships, and where hub-embed/define registers the tags. */
const MAIN = 'dist/index.js';
const DEFINE = 'dist/define.js';

/** Names a module exports with `export { A, B as C, type D } from './x.js'`, by the source file they come from. */
function reExports(file) {
  const byModule = new Map();
  for (const [, list, from] of readFileSync(join(ROOT, file), 'utf8').matchAll(
    /export\s*\{([^}]*)\}\s*from\s*'([^']+)'/g,
  )) {
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
  const defined = [
    ...readFileSync(join(ROOT, 'src/components/register.ts'), 'utf8').matchAll(/^define\('([^']+)', (\w+)\);$/gm),
  ];
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

/** The elements' modules as the analyzer is given them: every .ts of src/components but styles and members.ts. */
function elementSources() {
  const folder = join(ROOT, 'src/components');
  return readdirSync(folder, { recursive: true })
    .map((name) => relative(ROOT, join(folder, name)))
    .filter((path) => path.endsWith('.ts') && !path.endsWith('.styles.ts') && path !== 'src/components/members.ts')
    .sort();
}

let analysis;
/**
 * The analyzer's manifest of the elements (`analyzed`: every module of src/components, which the bindings
 * and docs/elements.md are generated from) and the manifest the package ships (`shipped`), analysed once
 * per process.
 */
export function elementsManifest() {
  if (analysis) return analysis;
  const modules = elementSources().map((path) =>
    ts.createSourceFile(path, readFileSync(join(ROOT, path), 'utf8'), ts.ScriptTarget.ES2015, true),
  );
  const analyzed = create({ modules, plugins: litPlugin(), context: { dev: false, thirdPartyCEMs: [] } });
  // Sorted by path, so that the output does not depend on the order the file system lists them in.
  analyzed.modules.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const module of analyzed.modules)
    for (const declaration of module.declarations ?? []) {
      // `emit(name, ...)` in the base class shows up as an event literally called "name": drop it.
      if (declaration.events) declaration.events = declaration.events.filter((event) => event.name !== 'name');
      // The manifest describes what users can reach: #private and `private` members are implementation, and
      // listing them would make every internal refactor a manifest change. Protected ones stay (subclasses).
      if (declaration.members)
        declaration.members = declaration.members.filter((m) => m.privacy !== 'private' && !m.name.startsWith('#'));
    }
  analysis = { analyzed, shipped: shippedManifest(analyzed) };
  return analysis;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const check = process.argv.includes('--check');
  const { analyzed, shipped } = elementsManifest();
  const elementsDoc = readFileSync(join(ROOT, ELEMENTS_DOC), 'utf8');
  const freshElementsDoc = withElements(elementsDoc, analyzed);
  // The React and Vue bindings are generated from the same manifest (scripts/bindings.mjs).
  const staleBindings = await syncBindings(analyzed, { check });
  if (check) {
    if (elementsDoc !== freshElementsDoc || staleBindings.length) {
      console.error(
        `The element tables of ${ELEMENTS_DOC} or the framework bindings are stale: run \`node scripts/manifest.mjs\` and commit them.`,
      );
      process.exit(1);
    }
    console.log(`The element tables of ${ELEMENTS_DOC} and the framework bindings are current.`);
  } else {
    mkdirSync(join(ROOT, dirname(MANIFEST_FILE)), { recursive: true });
    writeFileSync(join(ROOT, MANIFEST_FILE), `${JSON.stringify(shipped, null, 2)}\n`);
    if (elementsDoc !== freshElementsDoc) writeFileSync(join(ROOT, ELEMENTS_DOC), freshElementsDoc);
    console.log(
      `${MANIFEST_FILE} written; the element tables of ${ELEMENTS_DOC} and the framework bindings are current.`,
    );
  }
}
