import { tokenizer, tokTypes } from 'acorn';
import type { Plugin } from 'vite';

/** `text` with every character beyond ASCII written as a \uXXXX escape, as the <script> bundles have it. */
export function toAscii(text: string): string {
  return text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The tokens inside which a \uXXXX escape means the character it replaces. */
const ESCAPABLE = new Set([tokTypes.string, tokTypes.template, tokTypes.regexp]);

/**
 * `code`, a script, with every character beyond ASCII escaped. It is parsed into tokens first: a character
 * beyond ASCII may only stand in a string, a template or a regular expression, where its escape means the
 * same; one elsewhere (a name, a comment) fails, naming where, as does a backslash before one (`\é` is not
 * `\\u00e9`).
 */
export function asciiScript(code: string, file = 'the script'): string {
  let out = '';
  let at = 0;
  for (const token of tokenizer(code, {
    ecmaVersion: 'latest',
    sourceType: 'script',
    allowReturnOutsideFunction: true,
  })) {
    const text = code.slice(token.start, token.end);
    const between = code.slice(at, token.start);
    if (/[^\x00-\x7f]/.test(between))
      throw new Error(`${file}: a character beyond ASCII outside any token, before ${token.start}.`);
    out += between;
    if (/[^\x00-\x7f]/.test(text)) {
      if (!ESCAPABLE.has(token.type))
        throw new Error(`${file}: a character beyond ASCII in a ${token.type.label} at ${token.start}.`);
      if (/\\[^\x00-\x7f]/.test(text))
        throw new Error(`${file}: a backslash before a character beyond ASCII at ${token.start}.`);
      out += toAscii(text);
    } else out += text;
    at = token.end;
  }
  const rest = code.slice(at);
  if (/[^\x00-\x7f]/.test(rest)) throw new Error(`${file}: a character beyond ASCII after its last token.`);
  return out + rest;
}

/**
 * Why: a script is decoded with its page's charset when its server sends none, so UTF-8 Chinese text
 * would turn to mojibake on a GBK or Latin-1 page. The <script> bundles are pure ASCII: every other
 * character is written as a \uXXXX escape (and the escapes happen to gzip smaller than UTF-8 bytes). After
 * Terser (terser-pass.ts), the last step that touches a chunk.
 */
export const asciiOnly: Plugin = {
  name: 'hub-embed-ascii-only',
  generateBundle(_, bundle) {
    for (const chunk of Object.values(bundle))
      if (chunk.type === 'chunk') chunk.code = asciiScript(chunk.code, chunk.fileName);
  },
};
