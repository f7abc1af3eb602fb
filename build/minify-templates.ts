import MagicString from 'magic-string';
import { minifyHTMLLiterals } from 'minify-literals';
import ts from 'typescript';
import type { Plugin } from 'vite';

/** Lit's template tags, as src/ imports them (from lit, or from the form half's imports module). */
const TAGS = new Set(['html', 'svg', 'css']);

/** One part of a template: the text Lit reads (the cooked string) and where its source text lies. */
interface Part {
  cooked: string;
  start: number;
  end: number;
}

/** A tagged template of Lit's: its tag and its parts, the text between its `${}` bindings. */
export interface LitTemplate {
  tag: string;
  parts: Part[];
}

/** Parses `source` as TypeScript. */
const parse = (source: string, fileName: string) =>
  ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);

/**
 * Every html``, svg`` and css`` of `source`, found by the TypeScript parser: text that only looks like one
 * (in a string, a comment, another tag's template) is none. A template whose text holds an escape that
 * has no cooked value (`\u{`, `\x` alone) is left out: Lit cannot read it either.
 */
export function litTemplates(source: string, fileName = 'the module'): LitTemplate[] {
  const templates: LitTemplate[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isTaggedTemplateExpression(node) && ts.isIdentifier(node.tag) && TAGS.has(node.tag.text)) {
      const parts = partsOf(node.template);
      if (parts) templates.push({ tag: node.tag.text, parts });
    }
    ts.forEachChild(node, visit);
  };
  visit(parse(source, fileName));
  return templates;
}

/**
 * Whether `raw`, a template part's source text, holds an escape with no cooked value (`\u{zz}`, `\x` alone).
 * A tagged template allows one and gives Lit `undefined` for its string; an untagged one is a syntax error,
 * which the parser reports.
 */
const hasInvalidEscape = (raw: string) =>
  raw.includes('\\') && (ts.transpileModule(`\`${raw}\``, { reportDiagnostics: true }).diagnostics?.length ?? 0) > 0;

/** A literal's text and range, without its delimiters (`` ` `` or `}` before, `` ` `` or `${` after). */
function part(literal: ts.TemplateLiteralLikeNode & ts.Node, after: number): Part | undefined {
  const start = literal.getStart() + 1;
  const end = literal.end - after;
  if (hasInvalidEscape(literal.getSourceFile().text.slice(start, end))) return undefined;
  return { cooked: literal.text, start, end };
}

function partsOf(template: ts.TemplateLiteral): Part[] | undefined {
  const literals = ts.isNoSubstitutionTemplateLiteral(template)
    ? [part(template, 1)]
    : [
        part(template.head, 2),
        ...template.templateSpans.map((span) => part(span.literal, ts.isTemplateTail(span.literal) ? 1 : 2)),
      ];
  return literals.every((literal) => literal !== undefined) ? literals : undefined;
}

/**
 * `text` as a template literal's source spells it: a backslash, a backtick and `${` escaped, and a carriage
 * return too (the language reads a bare one as a line feed). Everything else stands as it is.
 */
export function templateSource(text: string): string {
  return text.replace(/[\\`]|\$\{|\r/g, (match) => (match === '\r' ? '\\r' : `\\${match}`));
}

/**
 * Characters that JavaScript's `\s` matches and HTML and CSS do not count as space (U+2028, U+2029, the
 * other Unicode spaces, U+FEFF): clean-css drops one outside a string (`--x: a\u2028 b` became `--x:a b`,
 * another name). They go through the minifiers as words of ASCII letters, and come back after.
 */
const NOT_HTML_SPACE = /[\v\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/g;

/** The minified text of each part of `template`, by minify-literals' strategy (the one the build has always used). */
async function minifiedParts(template: LitTemplate): Promise<string[]> {
  const joined = template.parts.map((item) => item.cooked).join('');
  let mark = 'hubembedchar';
  while (joined.includes(mark)) mark += 'x';
  const hide = (text: string) =>
    text.replace(NOT_HTML_SPACE, (c) => `${mark}${c.charCodeAt(0).toString(16).padStart(4, '0')}z`);
  const show = (text: string) =>
    text.replace(new RegExp(`${mark}([0-9a-f]{4})z`, 'g'), (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  const out = template.parts.map((item) => item.cooked);
  /**
   * minify-literals finds templates itself and writes what it made over the source text it read. Here it
   * is handed this one template, its cooked text (part i at [i, i + 1)), and what it writes is taken back
   * part by part, to be spelled as template source (templateSource) by the caller.
   */
  class Parts {
    overwrite(start: number, _end: number, content: string) {
      out[start] = show(content);
    }
    toString() {
      return '';
    }
    generateMap(): never {
      throw new Error('no map: minify-templates writes its own');
    }
  }
  await minifyHTMLLiterals('', {
    parseLiterals: () => [
      {
        tag: template.tag,
        parts: template.parts.map((item, i) => ({ text: hide(item.cooked), start: i, end: i + 1 })),
      },
    ],
    MagicString: Parts,
    generateSourceMap: false,
    minifyOptions: { removeAttributeQuotes: true },
  });
  return out;
}

/**
 * `source` with the text of each of its Lit templates minified, and its source map; null when nothing
 * changed. The result is parsed again and each template's text as Lit will read it compared with what the
 * minifier made: a template that would read otherwise (a backtick or `${` let out of a part) fails here,
 * naming the file, never in a user's page.
 */
export async function minifyLitTemplates(
  source: string,
  fileName: string,
): Promise<{ code: string; map: string } | null> {
  const templates = litTemplates(source, fileName);
  if (templates.length === 0) return null;
  const minified = await Promise.all(templates.map(minifiedParts));
  const code = new MagicString(source);
  templates.forEach((template, t) =>
    template.parts.forEach((item, p) => {
      const text = minified[t]![p]!;
      if (text !== item.cooked) code.overwrite(item.start, item.end, templateSource(text), { contentOnly: true });
    }),
  );
  if (!code.hasChanged()) return null;
  const output = code.toString();
  const reread = litTemplates(output, fileName);
  const expected = minified.flat();
  const got = reread.flatMap((template) => template.parts.map((item) => item.cooked));
  if (reread.length !== templates.length || got.some((text, i) => text !== expected[i]))
    throw new Error(`${fileName}: a minified Lit template reads otherwise than the minifier made it.`);
  return { code: output, map: code.generateMap({ source: fileName, hires: true, includeContent: true }).toString() };
}

/**
 * Why: Lit ships html`` and css`` text verbatim, so without this every indent and comment of the sources
 * would ship. Source templates and stylesheets are written for people; the builds minify them with
 * minify-literals (html-minifier-terser for templates, clean-css for stylesheets), which keeps Lit's
 * binding markers and attribute case intact. Attribute values lose their quotes where HTML needs none
 * (`part=card`, `aria-busy=${busy}`): Lit reads an unquoted value, bindings in it too, as it reads a quoted one.
 * The templates are found by parsing the module (litTemplates), and each is minified as the text Lit
 * reads, then written back as template source (minifyLitTemplates).
 */
export const minifyTemplates: Plugin = {
  name: 'hub-embed-minify-templates',
  enforce: 'pre',
  async transform(source, id) {
    if (!/\/src\/.*\.ts$/.test(id)) return null;
    // With its source map: without it the components' code maps to nothing, in the shipped .map files
    // and in `npm run size:why` (which then counted every element as "(glue)").
    return minifyLitTemplates(source, id);
  },
};
