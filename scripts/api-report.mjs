// The public surface, pinned: one report per package entry (api/<entry>.api.md), generated from the
// declarations, so a change to what users can import is a reviewed diff (with its CHANGELOG line). The fast
// gate's type check (scripts/typecheck.mjs) emits the declarations and compares the reports; `npm run api`
// writes them.
// Each report lists every name the entry exports with its signature: its declaration as the .d.ts file has
// it, without comments and without Lit's statics, so that the report changes only when what a user can call
// or type does. The check also fails on a name exported by two entries: each name has one home.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const REPORTS = 'api';
const BUILT_TYPES = 'dist/types';
/** The simulator's package, reported as api/mock.api.md. */
const MOCK_PACKAGE = 'packages/hub-embed-mock';
/** hub-embed/mock re-exports hub-embed-mock for one release: its names are reported once, under the package's own. */
const ALIASES = new Set(['hub-embed/mock']);

/**
 * The entries that have types, `{ entry, file, name }` (`{ entry: 'hub-embed/core', name: 'core', … }`), each
 * `file` the entry's declarations as emitted from the repository's root, as scripts/typecheck.mjs emits them
 * (hub-embed's under src/). The two packages: hub-embed's entries, then hub-embed-mock's (named `mock`).
 */
export function packageEntries(
  pkg = JSON.parse(readFileSync('package.json', 'utf8')),
  mock = JSON.parse(readFileSync(`${MOCK_PACKAGE}/package.json`, 'utf8')),
) {
  const own = Object.entries(pkg.exports)
    .filter(([, target]) => typeof target === 'object' && target.types)
    .map(([path, target]) => ({
      entry: path === '.' ? pkg.name : `${pkg.name}/${path.slice(2)}`,
      file: join('src', relative(BUILT_TYPES, target.types)),
      name: path === '.' ? 'index' : path.slice(2).replace(/\//g, '-'),
    }))
    .filter(({ entry }) => !ALIASES.has(entry));
  // Its declarations are emitted from the repository's root too, so their path under its dist/types is the root's.
  return [...own, { entry: mock.name, file: relative('dist/types', mock.exports['.'].types), name: 'mock' }];
}

/**
 * Lit's own statics on an element class: `properties` (how attributes map to properties, which
 * custom-elements.json and its check cover) and `styles`. Neither is a signature a user calls.
 */
const LIT_STATICS = new Set(['properties', 'styles']);
const printer = ts.createPrinter({ removeComments: true });

/** A class without Lit's statics; any other declaration as it is. */
function withoutLitStatics(node) {
  if (!ts.isClassDeclaration(node)) return node;
  const members = node.members.filter(
    (member) =>
      !(
        ts.isPropertyDeclaration(member) &&
        member.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.StaticKeyword) &&
        LIT_STATICS.has(member.name.getText())
      ),
  );
  return ts.factory.updateClassDeclaration(
    node,
    node.modifiers,
    node.name,
    node.typeParameters,
    node.heritageClauses,
    members,
  );
}

/**
 * A declaration's signature: the whole statement as the .d.ts file has it, printed without any comment (doc
 * comments inside it included) and without Lit's statics, so a report changes only when a signature does.
 */
function declarationText(declaration) {
  const node = ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration;
  return printer
    .printNode(ts.EmitHint.Unspecified, withoutLitStatics(node), node.getSourceFile())
    .replace(/^export (declare )?/, '')
    .replace(/^declare /, '');
}

/** `{ name, kind, text }` for every name each entry exports, from the declarations in `typesDir`. */
export function surfaceOf(typesDir, entries = packageEntries()) {
  const files = entries.map((entry) => join(typesDir, entry.file));
  const program = ts.createProgram(files, { noEmit: true, skipLibCheck: true, types: [] });
  const checker = program.getTypeChecker();
  return entries.map((entry, index) => {
    const source = program.getSourceFile(files[index]);
    if (!source) throw new Error(`${files[index]} is missing: build the declarations first.`);
    const module = checker.getSymbolAtLocation(source);
    const names = (module ? checker.getExportsOfModule(module) : []).map((symbol) => {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      const declarations = target.declarations ?? [];
      const kind = target.flags & ts.SymbolFlags.Value ? 'value' : 'type';
      const text = [...new Set(declarations.map(declarationText))].join('\n');
      // Where the name is declared: two entries exporting the same declaration export one name twice.
      const first = declarations[0];
      const home = first ? `${relative(typesDir, first.getSourceFile().fileName)}:${first.pos}` : symbol.name;
      return { name: symbol.name, kind, text, home };
    });
    names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { ...entry, names };
  });
}

/** The report of one entry, as checked in. */
export function renderReport({ entry, names }) {
  const values = names.filter((n) => n.kind === 'value').length;
  return [
    `# API report: \`${entry}\``,
    '',
    `Generated from the built declarations by \`npm run api\` (scripts/api-report.mjs); the fast gate fails when`,
    `it differs from the code. ${names.length} names: ${values} values, ${names.length - values} types only.`,
    '',
    '```ts',
    ...names.map((n) => `// ${n.name} (${n.kind})\n${n.text}\n`),
    '```',
    '',
  ].join('\n');
}

/**
 * Declarations that more than one entry exports: `{ name, entries }`. A name is a different thing in another
 * entry only when it is another declaration (hub-embed/react's HubEmbed component is not the element class).
 */
export function namesInTwoEntries(surface) {
  const homes = new Map();
  for (const { entry, names } of surface)
    for (const { name, home } of names) {
      const seen = homes.get(home) ?? { name, entries: [] };
      seen.entries.push(entry);
      homes.set(home, seen);
    }
  return [...homes.values()].filter(({ entries }) => entries.length > 1);
}

/**
 * Compares (`check`) or writes the reports from the declarations in `typesDir`; returns the problems found:
 * a name exported by two entries, and with `check` a report that differs from the code.
 */
export function reportProblems(typesDir, check) {
  const surface = surfaceOf(typesDir);
  const problems = [];
  for (const { name, entries } of namesInTwoEntries(surface))
    problems.push(`${name} is exported by ${entries.join(' and ')}: give it one home.`);
  mkdirSync(REPORTS, { recursive: true });
  for (const report of surface) {
    const file = join(REPORTS, `${report.name}.api.md`);
    const fresh = renderReport(report);
    const current = existsSync(file) ? readFileSync(file, 'utf8') : '';
    if (current === fresh) continue;
    if (check)
      problems.push(`${file} differs from the code: run \`npm run api\`, review the diff, add a CHANGELOG line.`);
    else writeFileSync(file, fresh);
  }
  return { problems, entries: surface.length };
}
