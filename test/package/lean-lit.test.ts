// build/lean-lit.ts cuts what no element uses from the <script> bundles' Lit, each cut by its exact text: it
// must apply to the Lit installed, leave code that parses, and fail the build (never cut blindly) when Lit's
// text changes or a module of ours comes to use what a cut removed.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseAst } from 'vite';
import { describe, expect, it } from 'vitest';
import { leanLit } from '../../build/lean-lit.ts';

const NODE_MODULES = fileURLToPath(new URL('../../node_modules/', import.meta.url));
const LIT_MODULES = {
  'lit-html/lit-html.js': [
    'litHtmlVersions',
    'litHtmlPolyfillSupport',
    'creationScope',
    '"<svg>"',
    's.h[0]',
    'setConnected',
    '_$AU',
    '_$AO',
    '_$AP',
    '_$Cv',
    '_$litDirective$',
    '_$AN',
    'get parentNode',
    'startNode',
    'endNode',
    'get tagName',
    '/^(?:script|style|textarea|title)$/i',
    'type:7',
    'Symbol.iterator',
    'type:6',
    'renderBefore',
    'i=t=>t,',
    // Every use of the node wrapper goes with it.
    'i(t)',
  ],
  '@lit/reactive-element/reactive-element.js': [
    'reactiveElementVersions',
    'reactiveElementPolyfillSupport',
    'litPropertyMetadata',
    'addInitializer',
    'useDefault',
    'JSON.parse',
    'shadowRootOptions',
    'wrapped',
    'noAccessor',
    's.state',
    'addController',
    'hostConnected',
    'hostDisconnected',
    'hostUpdate',
    '_$EO',
    'h(this.prototype,t)',
    'enableUpdating(t){}',
    'case Boolean:t=t?l:null',
    'emptyScript',
    'd=(t,s)=>t',
    // Every call of the renaming function goes with it.
    'd("',
    '"string"==typeof t?t.toLowerCase():void 0',
    's.flat(1/0)',
  ],
  'lit-element/lit-element.js': [
    'litElementVersions',
    'litElementPolyfillSupport',
    'litElementHydrateSupport',
    'setConnected',
    'isConnected',
    '_$Do',
    '_$litElement$',
    'renderBefore',
  ],
  '@lit/reactive-element/css-tag.js': ['litNonce', 'ShadyCSS', 'e.reduce('],
};

/** The plugin's transform, as Vite calls it: the code it gives back, or null when it leaves the module. */
function transform(source: string, id: string): string | null {
  const hook = leanLit.transform as unknown as (code: string, id: string) => { code: string } | null;
  return hook.call({}, source, id)?.code ?? null;
}

/** The production module of Lit that the <script> builds read (each package's default export condition). */
function litModule(path: string): { id: string; source: string } {
  const id = NODE_MODULES + path;
  return { id, source: readFileSync(id, 'utf8') };
}

describe('the lean Lit of the <script> bundles', () => {
  for (const [path, gone] of Object.entries(LIT_MODULES))
    it(`cuts from ${path} what no element uses, and what is left parses`, () => {
      const { id, source } = litModule(path);
      const cut = transform(source, id)!;
      expect(cut.length).toBeLessThan(source.length);
      for (const text of gone) {
        expect(source).toContain(text);
        expect(cut).not.toContain(text);
      }
      expect(() => parseAst(cut)).not.toThrow();
    });

  it('a Lit whose text changed fails the build instead of being cut blindly', () => {
    const { id, source } = litModule('lit-html/lit-html.js');
    const changed = source.replace('(t?.creationScope??l)', '(t?.creationScope ?? l)');
    expect(() => transform(changed, id)).toThrow(/no longer holds .*build\/lean-lit\.ts/);
  });

  it('a module of ours that imports what a cut removed fails the build', () => {
    const id = '/repo/src/components/x.ts';
    expect(() => transform("import { html, svg } from 'lit';\n", id)).toThrow(/imports svg from Lit/);
    expect(() => transform("export { unsafeCSS } from 'lit';\n", id)).toThrow(/imports unsafeCSS from Lit/);
    expect(() => transform('const t = html`<textarea>${value}</textarea>`;\n', id)).toThrow(/raw-text element/);
    expect(() => transform('const t = html`<p>a</p><style>p{color:red}</style>`;\n', id)).toThrow(/raw-text element/);
    expect(() => transform('const t = html`<p>a</p><!-- ${note} -->`;\n', id)).toThrow(/inside an HTML comment/);
    expect(() => transform('const s = css`:host{width:${width}px}`;\n', id)).toThrow(/value in a css`` literal/);
    expect(() => transform('static properties = { open: { type: Boolean, reflect: true } };\n', id)).toThrow(
      /reflects a Boolean property/,
    );
    expect(() => transform('static properties = { open: { reflect: true, type: Boolean } };\n', id)).toThrow(
      /reflects a Boolean property/,
    );
    expect(transform('static properties = { open: { type: Boolean }, theme: { reflect: true } };\n', id)).toBeNull();
    expect(transform('const t = html`<p>a</p><!-- a note --><b>${x}</b>`;\n', id)).toBeNull();
    expect(() => transform('this.addController(this.loader);\n', id)).toThrow(/adds a reactive controller/);
    expect(() => transform('render(card, root, { renderBefore: root.firstChild });\n', id)).toThrow(/renderBefore/);
    const styles = (given: string) => `class X extends HubElement {\n  static override styles = ${given};\n}\n`;
    for (const given of [
      '[shared, [card, styles]]',
      '[shared, ...more]',
      '[shared, styles, shared]',
      'styles',
      '[shared, , styles]',
    ])
      expect(() => transform(styles(given), id), given).toThrow(/not a flat array of distinct stylesheets/);
    expect(transform(styles('[shared, cardStyles, styles]'), id)).toBeNull();
    expect(transform(styles('[\n    shared,\n    styles,\n  ]'), id)).toBeNull();
    expect(() => transform('const t = html`<ul>${items.values()}</ul>`;\n', id)).toThrow(
      /iterable that is not an array/,
    );
    expect(() => transform('const t = html`<p>${new Set(tags)}</p>`;\n', id)).toThrow(/iterable that is not an array/);
    expect(transform('const t = html`<p>${[...new Set(tags)].map(chip)}</p>`;\n', id)).toBeNull();
    expect(() => transform('const t = html`<p ${ref}>a</p>`;\n', id)).toThrow(/binds a value to an element/);
    expect(() => transform('const t = html`<p part="a b" title=${t} ${ref}></p>`;\n', id)).toThrow(
      /binds a value to an element/,
    );
    expect(() => transform('const t = html`<input disabled @click=${go} ${ref}>`;\n', id)).toThrow(
      /binds a value to an element/,
    );
    expect(
      transform('const t = html`<p part="a b" title=${t} ?hidden=${h} @click=${go}>${x} ${y}</p>`;\n', id),
    ).toBeNull();
    expect(() => transform("import { ref } from 'lit/directives/ref.js';\n", id)).toThrow(/uses a directive/);
    expect(() => transform("import { classMap } from 'lit/directives/class-map.js';\n", id)).toThrow(
      /uses a directive/,
    );
    expect(() => transform("import { Directive, directive } from 'lit/directive.js';\n", id)).toThrow(
      /uses a directive/,
    );
    expect(() => transform("import { AsyncDirective } from 'lit/async-directive.js';\n", id)).toThrow(
      /uses a directive/,
    );
    const element = (member: string) =>
      `class X extends HubElement {\n  static override properties = {\n    open: { type: Boolean },\n    tables: { attribute: false },\n  };\n${member}\n}\n`;
    expect(() => transform(element('  get open() {\n    return true;\n  }'), id)).toThrow(/accessor .* open/);
    expect(() => transform(element('  set tables(value: string[]) {}'), id)).toThrow(/accessor .* tables/);
    expect(() => transform(element('  static other = { busy: { state: true } };'), id)).toThrow(/state or noAccessor/);
    expect(() => transform(element('  static other = { busy: { noAccessor: true } };'), id)).toThrow(
      /state or noAccessor/,
    );
    expect(transform(element('  get prepared() {\n    return 1;\n  }'), id)).toBeNull();
    expect(transform("import { html, nothing } from 'lit';\nhtml`<p>${1}</p>`;\n", id)).toBeNull();
  });
});
