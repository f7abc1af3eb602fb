import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Plugin } from 'vite';
import { FORM_CHUNK } from './form-half-imports.ts';

/** The modules that load something with a dynamic import, each with a `.script.ts` twin beside it. */
const LOADERS = ['/form-opener-loader.js', '/texts-loader.js'];

/**
 * Why: a classic script has no dynamic import, so in the <script> bundles <hub-embed> loads its form half
 * (dist/hub-embed.form.js, build/form-half-imports.ts) with the classic-script loader instead, and the
 * elements the other locales' texts from that same script (texts-loader.script.ts).
 */
export const scriptFormLoader: Plugin = {
  name: 'hub-embed-script-form-loader',
  enforce: 'pre',
  async resolveId(source, importer) {
    if (!importer || !LOADERS.some((loader) => source.endsWith(loader))) return null;
    return resolve(dirname(importer), source.replace(/\.js$/, '.script.ts'));
  },
};

/** The form chunk's file name beside `bundle` (the first file's name) and its integrity, for the loader. */
export function formChunkDefine(bundle: 'hub-embed' | 'hub-embed-webview') {
  const file = `dist/${FORM_CHUNK}`;
  if (!existsSync(file)) throw new Error(`${file} is missing: build it first (vite build --mode form-chunk).`);
  const integrity = `sha384-${createHash('sha384').update(readFileSync(file)).digest('base64')}`;
  return {
    __HUB_FORM_CHUNK_FILE__: JSON.stringify(`${bundle}.form.js`),
    __HUB_FORM_CHUNK_INTEGRITY__: JSON.stringify(integrity),
  };
}
