// The server's template tag: the elements' templates (card-markup-template.ts, chips-template.ts) written as
// an HTML string, every value escaped for where it lands. It reads Lit's binding syntax, as those templates
// are Lit templates too.
import { safeHttpUrl } from '../core/urls.js';

/** HTML this module wrote: a value of another template that goes in as it is, not as text. */
export class Markup {
  readonly html: string;
  constructor(html: string) {
    this.html = html;
  }
  toString(): string {
    return this.html;
  }
}

/**
 * Characters written as references: HTML's own (`&`, `<`, `>`, and quotes in attributes), and those that
 * would make the page's source say something else than the view shows: line and paragraph separators
 * (U+2028, U+2029, which end a line in a script that embeds the HTML as a string), the bidirectional controls
 * (which reorder the source around them: "Trojan Source"), CR (which the parser would turn into LF) and the
 * other C0 controls. As references they reach the DOM unchanged, so the view shows what the element would.
 */
const TEXT_SPECIAL = /[&<>\u0001-\u0008\u000b-\u001f\u007f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const ATTRIBUTE_SPECIAL =
  /[&<>"'\u0001-\u0008\u000b-\u001f\u007f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** NUL, and UTF-16 halves without their other half: no HTML page can carry them; U+FFFD stands in, as a parser would. */
const UNWRITABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const NAMED: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const reference = (char: string) => NAMED[char] ?? `&#x${char.codePointAt(0)!.toString(16)};`;

/** `value` as the text of an element. */
export function escapeText(value: string): string {
  return value.replace(UNWRITABLE, '\ufffd').replace(TEXT_SPECIAL, reference);
}

/** `value` as the value of a double-quoted attribute. */
export function escapeAttribute(value: string): string {
  return value.replace(UNWRITABLE, '\ufffd').replace(ATTRIBUTE_SPECIAL, reference);
}

/** Attributes whose value a browser loads or follows: only an http(s) URL may be written there. */
const URL_ATTRIBUTES = new Set(['src', 'href', 'srcset', 'action', 'formaction', 'poster']);

/**
 * A binding at the end of a template's static text, inside a tag: ` name=`, ` ?name=`, ` @name=`, ` .name=`,
 * the value's opening quote if any (Lit's syntax).
 */
const ATTRIBUTE_BINDING = /\s([.?@]?)([^\s"'>/=]+)=(["']?)$/;

/** One attribute for the binding `prefix name`, with its leading space, or '' when it writes none. */
function attribute(prefix: string, name: string, value: unknown): string {
  // A listener or a property is the element's business: nothing of it is markup.
  if (prefix === '@' || prefix === '.') return '';
  if (prefix === '?') return value ? ` ${name}` : '';
  // As Lit writes them: null and undefined as '', anything else as its string.
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- what Lit writes for any other value
  const text = value === undefined || value === null ? '' : String(value);
  if (URL_ATTRIBUTES.has(name.toLowerCase()) && safeHttpUrl(text) !== text)
    throw new TypeError(`The first view's templates bound ${name} to a value that is not an http(s) URL.`);
  return ` ${name}="${escapeAttribute(text)}"`;
}

/** A child binding's value as HTML: another template's markup as it is, a list item by item, the rest as text. */
function child(value: unknown): string {
  if (value instanceof Markup) return value.html;
  // Lit renders null, undefined and its `nothing` (a symbol) as nothing.
  if (value === undefined || value === null || typeof value === 'symbol') return '';
  if (Array.isArray(value)) return value.map(child).join('');
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- what Lit writes for any other value
  return escapeText(String(value));
}

/**
 * The server's `html`: a template as markup. A value in text is escaped as text; in an attribute, as an
 * attribute value (always double-quoted), checked as a URL where the attribute is one; `?attr` writes the
 * bare attribute when true; `@event` and `.property` bindings write nothing. A binding anywhere else inside
 * a tag is a mistake of the template, and throws.
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Markup {
  let out = '';
  let statics = '';
  // The quote that closed a dropped attribute binding's value: the next static text starts with it.
  let closing = '';
  strings.forEach((part, index) => {
    if (closing) {
      if (!part.startsWith(closing)) throw new SyntaxError(`An attribute binding's ${closing} is not closed.`);
      part = part.slice(closing.length);
    }
    closing = '';
    statics += part;
    if (index === values.length) {
      out += part;
      return;
    }
    const inTag = statics.lastIndexOf('<') > statics.lastIndexOf('>');
    if (!inTag) {
      out += part + child(values[index]);
      return;
    }
    const binding = ATTRIBUTE_BINDING.exec(part);
    if (!binding) throw new SyntaxError('A binding inside a tag must be an attribute value: name=${…}.');
    const [whole, prefix, name, quote] = binding as unknown as [string, string, string, string];
    out += part.slice(0, part.length - whole.length) + attribute(prefix, name, values[index]);
    closing = quote;
  });
  return new Markup(out);
}
