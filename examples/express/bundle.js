// @ts-check
// The <script> bundle, served from the installed package, with its Subresource Integrity value: the
// build writes it next to the bundle as hub-embed.iife.js.sri ("sha384-...").
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dist = new URL('./dist/', import.meta.resolve('hub-embed/package.json'));

export const bundle = {
  file: fileURLToPath(new URL('hub-embed.iife.js', dist)),
  /** The form half, which the bundle loads from beside itself on intent (its integrity is inside the bundle). */
  formFile: fileURLToPath(new URL('hub-embed.form.js', dist)),
  integrity: readFileSync(new URL('hub-embed.iife.js.sri', dist), 'utf8').trim(),
};
