import type { Plugin } from 'vite';

/** `text` with every character beyond ASCII written as a \uXXXX escape, as the <script> bundles have it. */
export function toAscii(text: string): string {
  return text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Why: a script is decoded with its page's charset when its server sends none, so UTF-8 Chinese text
 * would turn to mojibake on a GBK or Latin-1 page. The <script> bundles are pure ASCII: every other
 * character is written as a \uXXXX escape (and the escapes happen to gzip smaller than UTF-8 bytes).
 */
export const asciiOnly: Plugin = {
  name: 'hub-embed-ascii-only',
  generateBundle(_, bundle) {
    for (const chunk of Object.values(bundle)) {
      if (chunk.type !== 'chunk') continue;
      // An escape after a backslash would change meaning (`\é` is not `\\u00e9`); minifiers never emit one.
      if (/\\[^\x00-\x7f]/.test(chunk.code))
        throw new Error(`${chunk.fileName}: a backslash before a non-ASCII character.`);
      chunk.code = toAscii(chunk.code);
    }
  },
};
