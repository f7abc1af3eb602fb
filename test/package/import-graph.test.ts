// The import graph of src/ (issue 37, "Done when"): no circle, and no import from a lower layer to a higher
// one (docs/architecture.md, "Layers and their import rules"). Imports are read by the TypeScript compiler's
// parser and resolved by its module resolution with tsconfig.json's options, as tsc itself resolves them:
// static imports, re-exports and dynamic import() alike. test/package/import-rules.test.ts keeps the rules
// that are not about layers (what the simulator may take, the one copy of the link rules).
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');
/** The simulator's sources, its own package: named `mock/...` here, the layer they were under src/. */
const MOCK = join(ROOT, 'packages/hub-embed-mock/src');
const nameOf = (path: string) => (path.startsWith(MOCK + '/') ? `mock/${relative(MOCK, path)}` : relative(SRC, path));

/**
 * What each layer may import besides itself: the layers below it. The browser stack is core < bridge <
 * components < webview < the entries < bindings < react, vue, jsx; the native host stands on the bridge's protocol,
 * the server on core, and the simulator on core's shared rules and, for types, on the server's event shapes.
 */
const MAY_IMPORT: Record<string, readonly string[]> = {
  core: [],
  bridge: ['core'],
  components: ['core', 'bridge'],
  webview: ['core', 'bridge', 'components'],
  entry: ['core', 'bridge', 'components', 'webview'],
  bindings: ['core', 'bridge', 'components', 'webview', 'entry'],
  react: ['core', 'bridge', 'components', 'webview', 'entry', 'bindings'],
  vue: ['core', 'bridge', 'components', 'webview', 'entry', 'bindings'],
  // The JSX frameworks' types (hub-embed/jsx/preact, …): the elements' members, for types only.
  jsx: ['components'],
  host: ['core', 'bridge'],
  // Its web side (hub-embed-view.web.ts) renders the element itself, registered as hub-embed/define does.
  'react-native': ['core', 'bridge', 'host', 'components', 'entry'],
  server: ['core'],
  // hub-embed/server's entry (server/index.ts): the server's pieces and its first view.
  'server-entry': ['core', 'server', 'first-view'],
  // The server's first view (issue 80): the elements' markup, styles and texts from their own DOM-free
  // modules (import-rules.test.ts names which), fetched through the server's prefetcher.
  'first-view': ['core', 'components', 'server'],
  mock: ['core', 'server'],
};

interface Edge {
  from: string;
  to: string;
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

const parsed = ts.getParsedCommandLineOfConfigFile(
  join(ROOT, 'tsconfig.json'),
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  },
);
if (!parsed) throw new Error('tsconfig.json did not parse');
const options = parsed.options;

/** The module specifiers a file imports, re-exports or import()s, each with whether only types come. */
function specifiersOf(file: string): { specifier: string; typeOnly: boolean }[] {
  const source = ts.createSourceFile(file, ts.sys.readFile(file) ?? '', ts.ScriptTarget.Latest, true);
  const found: { specifier: string; typeOnly: boolean }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.importClause?.isTypeOnly ?? false });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteralLike(argument)) found.push({ specifier: argument.text, typeOnly: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every import between two files of src/, resolved as tsc resolves it (paths relative to src/). */
function edgesOf(files: string[]): Edge[] {
  return files.flatMap((file) =>
    specifiersOf(file).flatMap(({ specifier, typeOnly }) => {
      const resolved = ts.resolveModuleName(specifier, file, options, ts.sys).resolvedModule;
      const target = resolved?.resolvedFileName;
      if (!target || !(target.startsWith(SRC + '/') || target.startsWith(MOCK + '/'))) return [];
      return [{ from: nameOf(file), to: nameOf(target), typeOnly }];
    }),
  );
}

/**
 * The layer of a path under src/: its first folder, or `entry` for the files at src/ root; mock.ts, the
 * hub-embed/mock entry that re-exports the simulator's package, is the simulator's.
 */
const layerOf = (path: string) =>
  path === 'mock.ts'
    ? 'mock'
    : path === 'server/index.ts'
      ? 'server-entry'
      : path.includes('/')
        ? path.split('/')[0]!
        : 'entry';

/** The imports that go sideways or up: to a layer not below the importer's. */
function upwardImports(edges: Edge[]): string[] {
  return edges
    .filter(({ from, to }) => {
      const [source, target] = [layerOf(from), layerOf(to)];
      return source !== target && !(MAY_IMPORT[source] ?? []).includes(target);
    })
    .map(({ from, to }) => `${from} -> ${to}`);
}

/** The circles of the graph (its strongly connected components of two files or more, or a self-import). */
function circles(edges: Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  // Tarjan's algorithm: one depth-first walk; a file whose walk comes back to it closes a component.
  let counter = 0;
  const order = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const walk = (file: string): void => {
    order.set(file, counter);
    lowest.set(file, counter);
    counter++;
    stack.push(file);
    onStack.add(file);
    for (const target of next.get(file) ?? []) {
      if (!order.has(target)) {
        walk(target);
        lowest.set(file, Math.min(lowest.get(file)!, lowest.get(target)!));
      } else if (onStack.has(target)) {
        lowest.set(file, Math.min(lowest.get(file)!, order.get(target)!));
      }
    }
    if (lowest.get(file) !== order.get(file)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || next.get(file)?.includes(file)) found.push(component.sort());
  };
  for (const file of next.keys()) if (!order.has(file)) walk(file);
  return found;
}

const files = [...sourceFiles(SRC), ...sourceFiles(MOCK)];
const edges = edgesOf(files);

describe('the import graph of src/ (issue 37)', () => {
  it('reads every kind of import: static, type-only, re-export and dynamic import()', () => {
    expect(edges.length).toBeGreaterThan(200);
    expect(edges).toContainEqual({ from: 'webview/host-link.ts', to: 'bridge/bridge.ts', typeOnly: false });
    expect(edges.some((edge) => edge.from === 'index.ts' && edge.typeOnly)).toBe(true);
    // The form half is reached only through a dynamic import().
    expect(edges.some((edge) => edge.to === 'components/hub-embed/form-opener.ts' && !edge.typeOnly)).toBe(true);
    // Every folder of src/ has its place in the layers.
    expect(files.map((file) => layerOf(nameOf(file))).filter((layer) => !(layer in MAY_IMPORT))).toEqual([]);
  });

  it('has no circle, counting type-only imports too', () => {
    expect(circles(edges)).toEqual([]);
  });

  it('has no import from a lower layer to a higher one', () => {
    expect(upwardImports(edges)).toEqual([]);
  });

  it('the checks find what they look for (a circle, an upward import)', () => {
    const made = (from: string, to: string): Edge => ({ from, to, typeOnly: false });
    expect(
      circles([made('core/a.ts', 'core/b.ts'), made('core/b.ts', 'core/c.ts'), made('core/c.ts', 'core/a.ts')]),
    ).toEqual([['core/a.ts', 'core/b.ts', 'core/c.ts']]);
    expect(circles([made('core/a.ts', 'core/b.ts'), made('core/b.ts', 'core/c.ts')])).toEqual([]);
    expect(upwardImports([made('core/a.ts', 'components/b.ts'), made('components/b.ts', 'core/a.ts')])).toEqual([
      'core/a.ts -> components/b.ts',
    ]);
    expect(upwardImports([made('components/b.ts', 'webview/c.ts')])).toEqual(['components/b.ts -> webview/c.ts']);
  });
});
