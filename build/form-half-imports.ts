import { resolve, sep } from 'node:path';
import type { Plugin } from 'vite';

/**
 * The form half of <hub-embed> (src/components/hub-embed/form-opener.ts) loads on intent. In the ES
 * build that is a dynamic import, and the page's bundler makes the chunk. A classic script has no
 * imports, so for the <script> bundles the form half is a classic script of its own, built first:
 * dist/hub-embed.form.js, copied to dist/hub-embed-webview.form.js by scripts/build.mjs so that each
 * bundle's later file sits beside it under its own name.
 *
 * The half's modules import from outside the half one module only: its imports module,
 * src/components/form-half-imports.ts (Lit, the base class, define, the shared styles and texts,
 * HubError), which the type checker checks like any import. The main file's loader
 * (form-opener-loader.script.ts) puts an object typed as that module at the global `__hubEmbedFormImports`
 * before it adds the script, and reads the half's exports at `__hubEmbedFormHalf` when the script has
 * run (the loader's `FormChunkGlobals` names the same two).
 */
export const FORM_CHUNK = 'hub-embed.form.js';
const FORM_IMPORTS = resolve('src/components/form-half-imports.ts');
/** The imports module as this build sees it: the imports module's names, taken from the global that the loader fills. */
const FORM_IMPORTS_IN_HALF = '\0hub-embed:form-half-imports';
/**
 * Only the form half builds form URLs and reads the form page's load report: it has its own copy of
 * core/token-links.ts, of the part of core/urls.ts that checks the form site, of the rules it checks short codes
 * with, and of core/form-report.ts. What they import from the rest of core (HubError: one class for both
 * halves) is the main file's; core cannot import the imports module, so here their imports of core resolve to it.
 */
const CORE = resolve('src/core') + sep;
const coreCopies = [
  'src/core/urls.ts',
  'src/core/token-links.ts',
  'src/core/link-rules.ts',
  'src/core/loopback.ts',
  'src/core/form-report.ts',
  'src/core/paths.ts',
].map((file) => resolve(file));
/** The modules of the form half; the first is its entry. */
export const formChunkModules = [
  'src/components/hub-embed/later-half.script.ts',
  'src/components/hub-embed/later-half.ts',
  'src/components/hub-embed/form-opener.ts',
  'src/components/hub-embed/form-preparer.ts',
  'src/components/hub-embed/form-opener.styles.ts',
  'src/components/hub-form-frame/hub-form-frame.ts',
  'src/components/hub-form-frame/hub-form-frame.styles.ts',
  'src/components/hub-form-frame/hub-form-frame.strings.ts',
  'src/components/hub-tag-filter/chip-keys.ts',
  'src/components/hub-table-grid/draw-schedule.ts',
  'src/components/hub-table-grid/keep-place.ts',
  'src/components/hub-embed/lowercased-attributes.ts',
  'src/components/locales/other-locales.ts',
  'src/components/locales/zh-CN.ts',
  'src/components/locales/zh-TW.ts',
  'src/components/locales/ja.ts',
  'src/components/locales/ko.ts',
  'src/components/hub-embed/explain-failure.ts',
  'src/components/hub-embed/view-mismatch.ts',
  'src/components/hub-embed/first-view-handover.ts',
  'src/components/hub-embed/stale-cards.styles.ts',
].map((file) => resolve(file));

/**
 * Why: a classic script cannot import, so an import that leaves the form half would silently bundle a
 * second Lit into it. Each import in the half resolves, by the bundler's own resolution, to a module of
 * the half or to the imports module; any other fails the build, naming it. In this build the imports
 * module is a module that exports the names the bundler reads from form-half-imports.ts, so a name the
 * half takes that the imports module lacks (which a core copy's import of core could do unseen by the
 * type checker) fails the build as a missing export, not when a user opens a form.
 */
export const formHalfImports: Plugin = {
  name: 'hub-embed-form-half-imports',
  enforce: 'pre',
  async resolveId(source, importer, options) {
    if (!importer) return null;
    // The imports module itself is loaded only for its names (below): nothing it imports is bundled.
    if (importer === FORM_IMPORTS) return { id: source, external: true };
    const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
    const id = resolved?.id;
    if (id && (formChunkModules.includes(id) || coreCopies.includes(id))) return resolved;
    if (id === FORM_IMPORTS || (coreCopies.includes(importer) && id?.startsWith(CORE))) return FORM_IMPORTS_IN_HALF;
    throw new Error(
      `The form half imports ${source} (from ${importer}), which is neither one of its modules (formChunkModules ` +
        'in build/form-half-imports.ts) nor its imports module: take what the main file has from form-half-imports.ts.',
    );
  },
  async load(id) {
    if (id !== FORM_IMPORTS_IN_HALF) return null;
    const { exports } = await this.load({ id: FORM_IMPORTS });
    return `export const { ${exports.join(', ')} } = globalThis.__hubEmbedFormImports;`;
  },
};
