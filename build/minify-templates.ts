import { minifyHTMLLiterals } from 'minify-literals';
import type { Plugin } from 'vite';

/**
 * Why: Lit ships html`` and css`` text verbatim, so without this every indent and comment of the sources
 * would ship. Source templates and stylesheets are written for people; the builds minify them with
 * minify-literals (html-minifier-terser for templates, clean-css for stylesheets), which keeps Lit's
 * binding markers and attribute case intact. Attribute values lose their quotes where HTML needs none
 * (`part=card`, `aria-busy=${busy}`): Lit reads an unquoted value, bindings in it too, as it reads a quoted one.
 */
export const minifyTemplates: Plugin = {
  name: 'hub-embed-minify-templates',
  enforce: 'pre',
  async transform(source, id) {
    if (!/\/src\/.*\.ts$/.test(id) || !/\b(html|css)`/.test(source)) return null;
    // With its source map: without it the components' code maps to nothing, in the shipped .map files
    // and in `npm run size:why` (which then counted every element as "(glue)").
    const minified = await minifyHTMLLiterals(source, {
      fileName: id,
      minifyOptions: { removeAttributeQuotes: true },
    });
    return minified ? { code: minified.code, map: minified.map?.toString() } : null;
  },
};
