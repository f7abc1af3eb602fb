// build/minify-templates.ts: Lit's html``, svg`` and css`` found by parsing the module, minified as the text
// Lit reads, and written back as template source. Each module here is run with tags that record the strings
// Lit would be given, before and after.
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { litTemplates, minifyLitTemplates, minifyTemplates, templateSource } from './minify-templates.ts';

/** The strings each tag is called with when `code` (plain JavaScript, no imports) runs, in call order. */
function stringsLitReads(code: string): string[][] {
  const calls: string[][] = [];
  const tag = (strings: TemplateStringsArray) => {
    calls.push([...strings]);
    return '';
  };
  runInNewContext(code, { html: tag, svg: tag, css: tag, x: 'x', y: 'y' });
  return calls;
}

/** `code` minified; fails when it does not change. */
async function minified(code: string): Promise<string> {
  const result = await minifyLitTemplates(code, '/repo/src/a.ts');
  if (!result) throw new Error('nothing was minified');
  return result.code;
}

describe('litTemplates: the templates of a module, by its parse', () => {
  it('finds html``, svg`` and css`` (also inside a binding), and nothing that only looks like one', () => {
    const code = [
      'const a = html`<p>${x}</p>${html`<i> ${y} </i>`}`;',
      'const b = svg`<g></g>`, c = css`:host { }`;',
      'const s = "html`<p>   </p>`"; // html`<b>   </b>`',
      '/* css`a { }` */ const d = unsafe`<p>   </p>`, e = `html${"`"}<p> </p>`;',
    ].join('\n');
    expect(litTemplates(code).map(({ tag, parts }) => [tag, parts.map((part) => part.cooked)])).toEqual([
      ['html', ['<p>', '</p>', '']],
      ['html', ['<i> ', ' </i>']],
      ['svg', ['<g></g>']],
      ['css', [':host { }']],
    ]);
  });

  it('leaves out a template with an escape that has no cooked value', () => {
    expect(litTemplates('html`\\u{zz} <p>  </p>`')).toEqual([]);
  });
});

describe('templateSource: text as a template literal spells it', () => {
  it('escapes a backslash, a backtick, `${` and a carriage return, and nothing else', () => {
    const text = 'a\\b`c${d}$e\rf\u2028😀';
    const source = templateSource(text);
    expect(source).toBe('a\\\\b\\`c\\${d}$e\\rf\u2028😀');
    expect(runInNewContext(`\`${source}\``)).toBe(text);
  });
});

describe('minifyLitTemplates', () => {
  it('minifies a template and a stylesheet, and Lit reads the bindings where they were', async () => {
    const code = [
      'html`\n  <div part="card"  class=${x}>\n    <!-- a comment -->\n    <p>${y}</p>\n  </div>\n`;',
      'css`\n  :host {\n    color : red ;\n  }\n`;',
    ].join('\n');
    const out = await minified(code);
    expect(stringsLitReads(out)).toEqual([['<div part=card class=', '><p>', '</p></div>'], [':host{color:red}']]);
  });

  it('changes nothing outside the templates: a string or a comment that looks like one stays', async () => {
    const code = 'const s = "html`<p>   </p>`"; // html`<b>   </b>`\nhtml`<p>   ${x}   </p>`;';
    const out = await minified(code);
    expect(out).toBe('const s = "html`<p>   </p>`"; // html`<b>   </b>`\nhtml`<p>${x}</p>`;');
    expect(await minifyLitTemplates('const s = "html`<p>   </p>`";', 'a.ts')).toBeNull();
  });

  it('an entity that decodes to a backtick, `${` or a backslash is written escaped: the module still parses and reads the same', async () => {
    // Before the parse, the minifier's decoded `&#96;` ended the template and `&#36;{x}` became a binding.
    const code = 'html`<p>&#96;&#36;{x}&#92;</p> ${y}`;';
    const out = await minified(code);
    expect(stringsLitReads(out)).toEqual([['<p>`${x}\\</p>', '']]);
  });

  it('keeps a backtick and a `${` that the template escapes, and a `${` in a binding\u2019s string', async () => {
    const code = "html`<code> \\`x\\` </code>   <i>\\${y}</i>   <b>${'${x} `'}</b>`;";
    const out = await minified(code);
    expect(stringsLitReads(out)).toEqual([['<code>`x`</code> <i>${y}</i> <b>', '</b>']]);
  });

  it('keeps </style> in a stylesheet\u2019s string and in a template\u2019s <style>', async () => {
    const code =
      'css`:host { --x: "</style>" ;  color : red }`;\nhtml`<style>  p { color : red }  </style>  <p>${x}</p>`;';
    const out = await minified(code);
    expect(stringsLitReads(out)).toEqual([
      [':host{--x:"</style>";color:red}'],
      ['<style>p{color:red}</style><p>', '</p>'],
    ]);
  });

  it('keeps U+2028, U+2029, U+3000 and emoji, in text, in an attribute and in a stylesheet', async () => {
    const code = [
      'html`<p title="a\u2028b">  a\u2029b   😀 ${x}  </p>`;',
      'css`:host { --x: a\u2028 b; --y: "\u3000😀" }`;',
    ].join('\n');
    const out = await minified(code);
    expect(stringsLitReads(out)).toEqual([
      ['<p title=a\u2028b>a\u2029b 😀 ', '</p>'],
      [':host{--x:a\u2028 b;--y:"\u3000😀"}'],
    ]);
  });

  it('keeps a template whose text has no cooked value as it is', async () => {
    expect(await minifyLitTemplates('html`\\u{zz} <p>  </p>`;', 'a.ts')).toBeNull();
  });
});

describe('minifyTemplates, the plugin', () => {
  const transform = minifyTemplates.transform as (
    source: string,
    id: string,
  ) => Promise<{ code: string; map: string } | null>;

  it('minifies the modules of src/, with a source map of the module', async () => {
    const result = await transform('export const a = html`<p>   </p>`;', '/repo/src/a.ts');
    expect(result?.code).toBe('export const a = html`<p></p>`;');
    expect(JSON.parse(result!.map)).toMatchObject({ sources: ['/repo/src/a.ts'] });
  });

  it('leaves every other module alone (Lit, tests)', async () => {
    expect(await transform('html`<p>   </p>`;', '/repo/node_modules/lit/a.js')).toBeNull();
    expect(await transform('html`<p>   </p>`;', '/repo/test/a.ts')).toBeNull();
  });
});
