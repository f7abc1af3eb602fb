// Writes custom-elements.json from the elements' JSDoc. `--check` fails when the committed file is stale
// (CI runs the check, so the manifest and the element tables of docs/elements.md cannot drift from the code).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { withElements } from './element-tables.mjs';
import { syncBindings } from './bindings.mjs';
import { withRegions } from './doc-regions.mjs';

const check = process.argv.includes('--check');
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
const fresh = JSON.stringify(manifest, null, 2) + '\n';
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
  // After a build, the README's example regions and CDN tag (with the new integrity value) follow too.
  if (existsSync('dist/hub-embed.iife.js.sri'))
    writeFileSync('README.md', withRegions(readFileSync('README.md', 'utf8')));
  console.log(`custom-elements.json, the element tables of ${ELEMENTS_DOC} and the framework bindings written.`);
}
