import type { Plugin } from 'vite';

/**
 * Why: Lit's CSSResult throws a long message that only a misuse in our own stylesheets could reach (a page
 * cannot call the bundle's css``): the <script> bundles carry it in short. The other, for a value in a css``
 * literal, goes with that feature (build/lean-lit.ts).
 */
const LIT_CSS_ERRORS: [string, string][] = [
  ['"CSSResult is not constructable. Use `unsafeCSS` or `css` instead."', '"CSSResult: use css"'],
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
