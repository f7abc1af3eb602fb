// @ts-check
// The files the Hono app serves, read from disk where there is one (Node, Bun, Deno): the Express
// example's pages and assets (the same HTML, so both examples show the same page) and the installed
// package's bundle with its integrity value. On workerd there is no file system: worker.js gets the same
// object as a module that the build puts beside it (see README.md).
import { readFileSync } from 'node:fs';

const publicDir = new URL('../express/public/', import.meta.url);
const dist = new URL('./dist/', import.meta.resolve('hub-embed/package.json'));

/** @param {URL} url */
const read = (url) => readFileSync(url, 'utf8');
/** The Express pages' titles name their framework. @param {string} name */
const page = (name) => read(new URL(name, publicDir)).replaceAll('Express example', 'Hono example');

/** @returns {import('./app.js').ExampleFiles} */
export function readExampleFiles() {
  return {
    pages: { widget: page('index.html'), points: page('points.html'), signIn: page('sign-in.html') },
    assets: Object.fromEntries(
      ['points-page.js', 'style.css', 'widget-page.js'].map((name) => [
        name,
        read(new URL(`assets/${name}`, publicDir)),
      ]),
    ),
    bundle: {
      script: read(new URL('hub-embed.iife.js', dist)),
      formScript: read(new URL('hub-embed.form.js', dist)),
      integrity: read(new URL('hub-embed.iife.js.sri', dist)).trim(),
    },
  };
}
