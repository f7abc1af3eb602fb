// The editor data the package ships (scripts/editor-data.mjs): VS Code custom data and JetBrains
// web-types, generated from the custom elements manifest, name every element, every attribute a page can write,
// every event, and offer the values of an attribute whose type is a union of literals, aliases resolved.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { editorFiles, VSCODE_CSS_FILE, VSCODE_FILE, WEB_TYPES_FILE } from '../../scripts/editor-data.mjs';
import { elementsManifest } from '../../scripts/manifest.mjs';

interface ManifestAttribute {
  name: string;
  fieldName?: string;
  type?: { text: string };
}
interface Declaration {
  tagName?: string;
  members?: { name: string; kind: string; static?: boolean; attribute?: string; privacy?: string }[];
  attributes?: ManifestAttribute[];
  events?: { name: string }[];
  cssParts?: { name: string }[];
  cssProperties?: { name: string }[];
}
interface VsCodeTag {
  name: string;
  description: { value: string };
  attributes: { name: string; values?: { name: string }[]; valueSet?: string }[];
}
interface WebTypesElement {
  name: string;
  attributes: { name: string; value: { kind: string; type: string } }[];
  events: { name: string }[];
  js: { events: { name: string }[]; properties: { name: string }[] };
  css: { parts: { name: string }[]; properties: { name: string }[] };
}

const root = new URL('../../', import.meta.url);
const manifest = elementsManifest().shipped as {
  modules: { declarations?: Declaration[] }[];
};
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
  'web-types'?: string;
  files: string[];
};
const elements = manifest.modules.flatMap((m) => m.declarations ?? []).filter((d) => d.tagName);
/** The attributes a page can write: those of public fields (the manifest also lists private ones). */
const writable = (d: Declaration) =>
  (d.attributes ?? []).filter((a) => !a.fieldName || (d.members ?? []).some((m) => m.name === a.fieldName));

const files = editorFiles(decodeURI(root.pathname).replace(/\/$/, ''));
const vscode = JSON.parse(files[VSCODE_FILE]!) as { version: number; tags: VsCodeTag[] };
type CssEntry = { name: string; description: string };
const vscodeCss = JSON.parse(files[VSCODE_CSS_FILE]!) as {
  version: number;
  properties: CssEntry[];
  pseudoElements: CssEntry[];
};
const webTypes = JSON.parse(files[WEB_TYPES_FILE]!) as {
  name: string;
  contributions: { html: { elements: WebTypesElement[] } };
};
const jetbrains = webTypes.contributions.html.elements;

/** The literals of a type written as a union of string literals in the manifest, else undefined. */
function writtenLiterals(text: string): string[] | undefined {
  const parts = text
    .split('|')
    .map((part) => part.trim())
    .filter((part) => part !== 'undefined');
  return parts.every((part) => /^'[^']*'$/.test(part)) ? parts.map((part) => part.slice(1, -1)) : undefined;
}

describe('editor data generated from the custom elements manifest', () => {
  it('both files list every element of the manifest, and nothing else', () => {
    const tags = elements.map((d) => d.tagName).sort();
    expect(vscode.version).toBe(1.1);
    expect(vscode.tags.map((t) => t.name).sort()).toEqual(tags);
    expect(jetbrains.map((e) => e.name).sort()).toEqual(tags);
  });

  it('every attribute a page can write, and no internal one (hub-embed has no `opening`)', () => {
    for (const d of elements) {
      const names = writable(d).map((a) => a.name);
      expect(names.length, d.tagName).toBeGreaterThan(0);
      expect(vscode.tags.find((t) => t.name === d.tagName)!.attributes.map((a) => a.name)).toEqual(names);
      expect(jetbrains.find((e) => e.name === d.tagName)!.attributes.map((a) => a.name)).toEqual(names);
    }
    const embed = vscode.tags.find((t) => t.name === 'hub-embed')!;
    expect(embed.attributes.map((a) => a.name)).not.toContain('opening');
  });

  it('union types are expanded into their values, aliases resolved: open-mode offers modal, inline, navigate', () => {
    const values = (tag: string, attribute: string) =>
      vscode.tags
        .find((t) => t.name === tag)!
        .attributes.find((a) => a.name === attribute)!
        .values?.map((v) => v.name);
    // OpenMode and HubLocale are aliases in the manifest; their values come from the code.
    expect(values('hub-embed', 'open-mode')).toEqual(['modal', 'inline', 'navigate']);
    expect(values('hub-embed', 'locale')?.sort()).toEqual(['en', 'ja', 'ko', 'zh-CN', 'zh-TW']);
    expect(values('hub-form-frame', 'locale')?.sort()).toEqual(['en', 'ja', 'ko', 'zh-CN', 'zh-TW']);
    for (const d of elements)
      for (const a of writable(d)) {
        const literals = writtenLiterals(a.type?.text ?? 'string');
        if (literals) expect(values(d.tagName!, a.name)?.sort(), `${d.tagName} ${a.name}`).toEqual(literals.sort());
        const jb = jetbrains.find((e) => e.name === d.tagName)!.attributes.find((x) => x.name === a.name)!;
        const offered = values(d.tagName!, a.name);
        if (offered) expect(jb.value.type, `${d.tagName} ${a.name}`).toBe(offered.map((v) => `"${v}"`).join(' | '));
      }
    // No type name reaches an editor where values belong.
    const all = files[VSCODE_FILE]! + files[WEB_TYPES_FILE]!;
    expect(all).not.toMatch(/"(OpenMode|HubLocale)"/);
    expect(all).not.toMatch(/"type": "[^"]*(OpenMode|HubLocale)/);
  });

  it('boolean attributes take no value', () => {
    const card = jetbrains.find((e) => e.name === 'hub-table-card')!;
    expect(card.attributes.find((a) => a.name === 'busy')!.value.kind).toBe('no-value');
    expect(
      vscode.tags.find((t) => t.name === 'hub-embed')!.attributes.find((a) => a.name === 'matches-only')!.valueSet,
    ).toBe('v');
  });

  it('every --hub-* custom property the styles read is named, once, in the manifest, web-types and the VS Code hover', () => {
    const components = new URL('src/components/', root);
    const read = new Set<string>();
    for (const file of readdirSync(components, { recursive: true, encoding: 'utf8' }))
      if (file.endsWith('.ts'))
        for (const [, name] of readFileSync(new URL(file, components), 'utf8').matchAll(/var\((--hub-[a-z-]+)/g))
          read.add(name!);
    expect(read.size).toBeGreaterThan(0);
    const named = elements.flatMap((d) => (d.cssProperties ?? []).map((p) => p.name));
    expect(named.toSorted()).toEqual([...read].toSorted());
    const inWebTypes = jetbrains.flatMap((e) => e.css.properties.map((p) => p.name));
    expect(inWebTypes.toSorted()).toEqual([...read].toSorted());
    const hovers = vscode.tags.map((t) => t.description.value).join('\n');
    for (const name of read) expect(hovers, name).toContain(name);
    // A stylesheet completes each one, once, from VS Code's CSS data.
    expect(vscodeCss.properties.map((p) => p.name).toSorted()).toEqual([...read].toSorted());
    for (const property of vscodeCss.properties) expect(property.description, property.name).not.toBe('');
  });

  it("VS Code's CSS data completes every ::part() name of every element, once, each with its description", () => {
    const named = new Set(elements.flatMap((d) => (d.cssParts ?? []).map((p) => p.name)));
    expect(named.size).toBeGreaterThan(20);
    expect(vscodeCss.pseudoElements.map((p) => p.name).toSorted()).toEqual(
      [...named].map((name) => `::part(${name})`).toSorted(),
    );
    for (const part of vscodeCss.pseudoElements) expect(part.description, part.name).not.toBe('');
    expect(vscodeCss.version).toBe(1.1);
  });

  it("every ::part() name the templates give or forward is named in the manifest, and web-types lists each element's", () => {
    const components = new URL('src/components/', root);
    const sources = readdirSync(components, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .map((file) => readFileSync(new URL(file, components), 'utf8'))
      .join('\n');
    const cardParts = /CARD_PARTS = '([^']+)'/.exec(sources)![1]!;
    const given = new Set<string>();
    const add = (list: string, separator: RegExp) => {
      // An exportparts entry `loading:frame-loading` gives the name after the colon.
      for (const entry of list.replace('${CARD_PARTS}', cardParts).split(separator))
        if (entry.trim()) given.add(entry.trim().split(':').at(-1)!);
    };
    for (const [, list] of sources.matchAll(/\bpart="([^"$]+)"/g)) add(list!, / /);
    for (const [, list] of sources.matchAll(/exportparts="([^"]+)"/g)) add(list!, /,/);
    for (const [, list] of sources.matchAll(/'exportparts',\s*'([^']+)'/g)) add(list!, /,/);
    for (const [, name] of sources.matchAll(/setAttribute\('part', '([a-z-]+)'\)/g)) given.add(name!);
    add(cardParts, /,/);
    expect(given.size).toBeGreaterThan(20);
    const named = new Set(elements.flatMap((d) => (d.cssParts ?? []).map((p) => p.name)));
    expect([...named].toSorted()).toEqual([...given].toSorted());
    for (const d of elements)
      expect(
        jetbrains.find((e) => e.name === d.tagName)!.css.parts.map((p) => p.name),
        d.tagName,
      ).toEqual((d.cssParts ?? []).map((p) => p.name));
  });

  it('every public property set from JavaScript only (tokenProvider, openFormHook) is in web-types js and the VS Code hover', () => {
    let count = 0;
    for (const d of elements) {
      const jsOnly = (d.members ?? [])
        .filter((m) => m.kind === 'field' && !m.static && !m.attribute && (m.privacy ?? 'public') === 'public')
        .map((m) => m.name);
      count += jsOnly.length;
      const jb = jetbrains.find((e) => e.name === d.tagName)!;
      expect(
        jb.js.properties.map((p) => p.name),
        d.tagName,
      ).toEqual(jsOnly);
      const hover = vscode.tags.find((t) => t.name === d.tagName)!.description.value;
      for (const name of jsOnly) expect(hover, `${d.tagName} ${name}`).toContain(`\`${name}\``);
    }
    expect(count).toBeGreaterThan(0);
    expect(jetbrains.find((e) => e.name === 'hub-embed')!.js.properties.map((p) => p.name)).toContain('tokenProvider');
  });

  it('every event (web-types html and js) and every CSS part, also in the VS Code hover', () => {
    for (const d of elements) {
      const events = (d.events ?? []).map((e) => e.name);
      const jb = jetbrains.find((e) => e.name === d.tagName)!;
      expect(
        jb.events.map((e) => e.name),
        d.tagName,
      ).toEqual(events);
      expect(
        jb.js.events.map((e) => e.name),
        d.tagName,
      ).toEqual(events);
      expect(
        jb.css.parts.map((p) => p.name),
        d.tagName,
      ).toEqual((d.cssParts ?? []).map((p) => p.name));
      const hover = vscode.tags.find((t) => t.name === d.tagName)!.description.value;
      for (const name of [...events, ...(d.cssParts ?? []).map((p) => p.name)])
        expect(hover, `${d.tagName} ${name}`).toContain(`\`${name}\``);
    }
  });

  it('the package ships both: package.json names the web-types file, and both lie in a shipped folder', () => {
    expect(webTypes.name).toBe('hub-embed');
    expect(pkg['web-types']).toBe(`./${WEB_TYPES_FILE}`);
    for (const file of [VSCODE_FILE, VSCODE_CSS_FILE, WEB_TYPES_FILE])
      expect(pkg.files.some((entry) => file === entry || file.startsWith(`${entry}/`))).toBe(true);
  });
});
