// Editor data for the elements, generated from the custom elements manifest (scripts/manifest.mjs) by the build
// (scripts/build.mjs), beside the manifest in dist/ and, like it, never committed:
//   dist/vscode.html-custom-data.json  VS Code's HTML custom data (the `html.customData` setting reads it)
//   dist/vscode.css-custom-data.json   VS Code's CSS custom data (`css.customData`): the --hub-* properties and
//                                      the ::part() names, completed in a page's stylesheets
//   dist/web-types.json                JetBrains web-types (WebStorm and IntelliJ read package.json's `web-types`)
// An attribute whose type is a union of string literals offers each literal as a value, also when the
// manifest names the type by an alias (`OpenMode`): the alias is resolved with the TypeScript compiler,
// from the property the attribute sets, so the values are the ones the code accepts.
//   node scripts/editor-data.mjs          writes the three files
//   node scripts/editor-data.mjs --check  fails when dist/ holds other files than the manifest gives
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { elementsManifest } from './manifest.mjs';

export const VSCODE_FILE = 'dist/vscode.html-custom-data.json';
export const VSCODE_CSS_FILE = 'dist/vscode.css-custom-data.json';
export const WEB_TYPES_FILE = 'dist/web-types.json';
const DOCS = 'https://github.com/hub-embed/hub-embed#readme';

/** The custom elements of the manifest, each with the module it is declared in. */
function elementsOf(manifest) {
  const elements = [];
  for (const module of manifest.modules)
    for (const declaration of module.declarations ?? [])
      if (declaration.customElement && declaration.tagName) elements.push({ path: module.path, declaration });
  elements.sort((a, b) => (a.declaration.tagName < b.declaration.tagName ? -1 : 1));
  if (!elements.length) throw new Error('The custom elements manifest lists no elements.');
  return elements;
}

/**
 * The string literals each attribute's property accepts, by tag and field name: [] for a property of
 * any other type. Read from the compiled sources, where aliases are resolved.
 */
export function literalValues(elements, root = process.cwd()) {
  // The manifest names the shipped files (dist/index.js); the types come from the sources they are built
  // from: each element class as src/index.ts exports it, aliases followed to its declaration.
  const entry = `${root}/src/index.ts`;
  const program = ts.createProgram([entry], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const entrySource = program.getSourceFile(entry);
  if (!entrySource) throw new Error('src/index.ts: not found');
  const exported = new Map(
    checker.getExportsOfModule(checker.getSymbolAtLocation(entrySource)).map((symbol) => [symbol.name, symbol]),
  );
  const values = new Map();
  for (const { path, declaration } of elements) {
    let symbol = exported.get(declaration.name);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    const classNode = symbol?.declarations?.find((node) => ts.isClassDeclaration(node));
    if (!classNode) throw new Error(`${path}: src/index.ts exports no class ${declaration.name}`);
    const classType = checker.getTypeAtLocation(classNode);
    for (const attribute of declaration.attributes ?? []) {
      const property = attribute.fieldName && checker.getPropertyOfType(classType, attribute.fieldName);
      let literals = [];
      if (property) {
        const type = checker.getTypeOfSymbolAtLocation(property, classNode);
        const parts = (type.isUnion() ? type.types : [type]).filter(
          (part) => !(part.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null)),
        );
        if (parts.length && parts.every((part) => part.isStringLiteral())) literals = parts.map((part) => part.value);
      }
      values.set(`${declaration.tagName} ${attribute.name}`, literals);
    }
  }
  return values;
}

/**
 * What an editor should offer for each element: the attributes a page can write (those of private
 * fields, such as <hub-embed>'s internal `opening`, are left out), their values, events, parts and CSS
 * properties.
 */
export function editorModel(manifest, values = literalValues(elementsOf(manifest))) {
  return elementsOf(manifest).map(({ declaration: d }) => {
    const publicFields = new Set((d.members ?? []).filter((m) => m.kind === 'field').map((m) => m.name));
    const attributes = (d.attributes ?? [])
      .filter((a) => !a.fieldName || publicFields.has(a.fieldName))
      .map((a) => ({
        name: a.name,
        description: a.description ?? '',
        type: a.type?.text ?? 'string',
        default: a.default,
        values: values.get(`${d.tagName} ${a.name}`) ?? [],
        boolean: a.type?.text === 'boolean',
      }));
    return {
      tag: d.tagName,
      description: [d.summary, d.description].filter(Boolean).join('\n\n'),
      attributes,
      // Public fields with no attribute (tokenProvider, openFormHook): set from JavaScript only.
      properties: (d.members ?? [])
        .filter((m) => m.kind === 'field' && !m.static && !m.attribute && (m.privacy ?? 'public') === 'public')
        .map((m) => ({ name: m.name, description: m.description ?? '', type: m.type?.text })),
      events: (d.events ?? []).map((e) => ({ name: e.name, description: e.description ?? '' })),
      parts: (d.cssParts ?? []).map((p) => ({ name: p.name, description: p.description ?? '' })),
      cssProperties: (d.cssProperties ?? []).map((p) => ({ name: p.name, description: p.description ?? '' })),
    };
  });
}

const listed = (title, items) =>
  items.length
    ? `\n\n**${title}:** ${items.map((i) => `\`${i.name}\`${i.description ? ` ${i.description}` : ''}`).join('; ')}`
    : '';

/** VS Code's HTML custom data, version 1.1 (vscode-html-languageservice's customData.schema.json). */
export function vscodeData(model) {
  return {
    $schema: 'https://raw.githubusercontent.com/microsoft/vscode-html-languageservice/main/docs/customData.schema.json',
    version: 1.1,
    tags: model.map((e) => ({
      name: e.tag,
      // VS Code's hover shows the tag's description only: JavaScript properties, events, parts and CSS
      // properties go in it.
      description: {
        kind: 'markdown',
        value:
          e.description +
          listed('JavaScript properties', e.properties) +
          listed('Events', e.events) +
          listed('CSS parts', e.parts) +
          listed('CSS properties', e.cssProperties),
      },
      attributes: e.attributes.map((a) => ({
        name: a.name,
        description: a.description,
        ...(a.values.length ? { values: a.values.map((name) => ({ name })) } : {}),
        ...(a.boolean ? { valueSet: 'v' } : {}),
      })),
      references: [{ name: 'hub-embed', url: DOCS }],
    })),
  };
}

/**
 * VS Code's CSS custom data, version 1.1 (vscode-css-languageservice's customData.schema.json): every
 * `--hub-*` property and every `::part()` name of the elements, once each, with the description of the
 * element that gives it (<hub-embed>'s first: it forwards the others' parts), so that a page's stylesheet
 * completes them; the HTML data only shows them in a hover.
 */
export function vscodeCssData(model) {
  const once = (items) => [...new Map(items.map((item) => [item.name, item])).values()];
  const first = [...model].sort((a, b) => (a.tag === 'hub-embed' ? -1 : b.tag === 'hub-embed' ? 1 : 0));
  return {
    $schema: 'https://raw.githubusercontent.com/microsoft/vscode-css-languageservice/main/docs/customData.schema.json',
    version: 1.1,
    properties: once(first.flatMap((e) => e.cssProperties)).map((p) => ({ name: p.name, description: p.description })),
    pseudoElements: once(first.flatMap((e) => e.parts)).map((p) => ({
      name: `::part(${p.name})`,
      description: p.description,
    })),
  };
}

/** JetBrains web-types 2.0 (github.com/JetBrains/web-types, schema/web-types.json). */
export function webTypes(model, pkg) {
  return {
    $schema: 'https://raw.githubusercontent.com/JetBrains/web-types/master/schema/web-types.json',
    name: pkg.name,
    version: pkg.version,
    'description-markup': 'markdown',
    'js-types-syntax': 'typescript',
    contributions: {
      html: {
        elements: model.map((e) => ({
          name: e.tag,
          description: e.description,
          'doc-url': DOCS,
          attributes: e.attributes.map((a) => ({
            name: a.name,
            description: a.description,
            ...(a.default !== undefined ? { default: a.default } : {}),
            value: a.boolean
              ? { kind: 'no-value', type: 'boolean' }
              : {
                  kind: 'plain',
                  // A union of the literals themselves, which the IDE offers as completions. Any other
                  // attribute is text (a list is comma-separated), or a number.
                  type: a.values.length
                    ? a.values.map((v) => JSON.stringify(v)).join(' | ')
                    : /\bnumber\b/.test(a.type)
                      ? 'number'
                      : 'string',
                },
          })),
          events: e.events.map((ev) => ({ name: ev.name, description: ev.description })),
          js: {
            properties: e.properties.map((p) => ({
              name: p.name,
              description: p.description,
              ...(p.type ? { value: { type: p.type } } : {}),
            })),
            events: e.events.map((ev) => ({ name: ev.name, description: ev.description })),
          },
          css: {
            parts: e.parts.map((p) => ({ name: p.name, description: p.description })),
            properties: e.cssProperties.map((p) => ({ name: p.name, description: p.description })),
          },
        })),
      },
    },
  };
}

/** The three files' text, from the manifest of the elements and package.json in `root`. */
export function editorFiles(root = process.cwd()) {
  const manifest = elementsManifest().shipped;
  const pkg = JSON.parse(readFileSync(`${root}/package.json`, 'utf8'));
  const model = editorModel(manifest, literalValues(elementsOf(manifest), root));
  // Compact: editors read these, people read the manifest and docs/elements.md; indented, the three cost
  // the tarball about 1.3 kB.
  const json = (value) => `${JSON.stringify(value)}\n`;
  return {
    [VSCODE_FILE]: json(vscodeData(model)),
    [VSCODE_CSS_FILE]: json(vscodeCssData(model)),
    [WEB_TYPES_FILE]: json(webTypes(model, pkg)),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const files = editorFiles();
  if (process.argv.includes('--check')) {
    const stale = Object.entries(files).filter(
      ([file, text]) => !existsSync(file) || readFileSync(file, 'utf8') !== text,
    );
    if (stale.length) {
      console.error(`${stale.map(([file]) => file).join(', ')}: stale or missing; run npm run build.`);
      process.exit(1);
    }
  } else {
    for (const [file, text] of Object.entries(files)) writeFileSync(file, text);
    console.log(`${Object.keys(files).join(', ')} written from the custom elements manifest.`);
  }
}
