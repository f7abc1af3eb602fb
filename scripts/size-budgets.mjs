// The first files' size budgets (gzip -9, zlib's count): one copy, read by the build (which fails without
// the room) and by the bench (whose rows show each file against its budget).
//
// The plain file stays close to Typeform's embed script by design (the bench measures both), and each
// budget keeps at least ROOM bytes free, so that a feature never reopens a byte diet. A budget moves only in
// a commit that says why in its body, with the figures. The bytes come down only by build-level means
// (template and CSS minification, Lit's production build, tree shaking), never by bending the source.

/** The room each first file keeps under its budget, always. */
export const ROOM = 256;

/** Each first file (what a page loads before hub-ready) and its budget. */
export const BUDGETS = [
  { bundle: 'plain', file: 'dist/hub-embed.iife.js', budget: 15_136 },
  { bundle: 'webview', file: 'dist/hub-embed-webview.iife.js', budget: 18_464 },
];

/**
 * The npm path's budget: what `import 'hub-embed/define'` adds to a Vite app's first load (gzip -9,
 * scripts/vite-app-size.mjs) is at most the plain bundle's first file plus this many bytes, with ROOM free
 * as every budget keeps. The two carry the same widget; the app's also holds its bundler's glue.
 */
export const NPM_PATH_OVER_SCRIPT = 256;
