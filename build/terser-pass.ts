import { minify } from 'terser';
import type { Plugin } from 'vite';

/**
 * Why: the <script> bundles' first file has a byte budget, and two minifiers find more than either alone.
 * After Vite's own (Oxc), Terser's compressor, in two passes, inlines what is called once, writes methods
 * that return a value as arrows and puts comparisons in one order, which gzip finds more repeats in; it
 * then mangles the names its inlining left. Terser in place of Oxc gives a larger file, so this is a pass
 * after it, in generateBundle (where a chunk is already minified), before the plugin that writes the file's
 * escapes (ascii-only.ts). Safe transforms only: no `unsafe` option, no property mangling (Lit's
 * and the elements' names are read by name).
 */
export const terserPass: Plugin = {
  name: 'hub-embed-terser-pass',
  async generateBundle(_, bundle) {
    for (const chunk of Object.values(bundle)) {
      if (chunk.type !== 'chunk') continue;
      // With a source map (npm run size:why), Terser's map goes on from the one it was given.
      const map = chunk.map ? { content: JSON.stringify(chunk.map), includeSources: true } : false;
      const result = await minify(chunk.code, {
        ecma: 2022,
        compress: { passes: 2 },
        mangle: true,
        sourceMap: map,
      });
      if (result.code === undefined) throw new Error(`Terser returned nothing for ${chunk.fileName}.`);
      chunk.code = result.code;
      const mapFile = bundle[`${chunk.fileName}.map`];
      if (mapFile?.type === 'asset' && typeof result.map === 'string') mapFile.source = result.map;
    }
  },
};
