// The later half as the <script> builds load it (dist/hub-embed.form.js, build/form-half-imports.ts): the
// ES builds' later half and the tables of the locales other than English, which a classic script cannot
// load by an import of its own (the ES builds load them as a chunk of their own, texts-loader.ts).
export * from './later-half.js';
export { otherLocales } from '../locales/other-locales.js';
