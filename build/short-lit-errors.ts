import type { Plugin } from 'vite';

/**
 * Why: Lit's css`` tag throws two long messages that only a misuse in our own stylesheets could reach (a
 * page cannot call the bundle's css``): the <script> bundles carry them in short, which saves about 90 B gzip.
 */
const LIT_CSS_ERRORS: [string, string][] = [
  ['"CSSResult is not constructable. Use `unsafeCSS` or `css` instead."', '"CSSResult: use css"'],
  [
    `"Value passed to 'css' function must be a 'css' function result: "+t+". Use 'unsafeCSS' to pass non-literal values, but take care to ensure page security."`,
    '"css: not a css result: "+t',
  ],
];

export const shortLitErrors: Plugin = {
  name: 'hub-embed-short-lit-errors',
  transform(source, id) {
    if (!id.includes('/@lit/reactive-element/css-tag.js')) return null;
    let code = source;
    for (const [long, short] of LIT_CSS_ERRORS) {
      if (!code.includes(long)) throw new Error(`Lit's css-tag.js no longer says ${long}; update shortLitErrors.`);
      code = code.replace(long, short);
    }
    return { code, map: null };
  },
};
