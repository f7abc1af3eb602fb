// The first files' size budgets (gzip -9, zlib's count): one copy, read by the build (which fails without
// the room) and by the bench (whose rows show each file against its budget).
//
// The plain file stays under Typeform's embed script by design (the bench measures both): its budget never
// goes above that ceiling. Each budget is the figure reached plus ROOM, so that a feature never reopens a
// byte diet; where that would pass the ceiling, the budget is the ceiling, and the file may fill it (what
// the next feature needs then comes out of the first file first). A budget moves only in a commit that
// says why in its body, with the figures. The bytes come down by build-level means (template
// and CSS minification, Lit's production build without what the widget never uses, build/lean-lit.ts, tree
// shaking) and by moving code that waits for the first screen out of the first file, into the form half
// that loads on intent; never by making an error say less.

/** The room each first file keeps under its budget, always. */
export const ROOM = 256;

/** Typeform's embed script (@typeform/embed's build/embed.js, gzip -9, as the bench measures it): the plain file's ceiling. */
export const TYPEFORM_CEILING = 14_202;

/** Each first file (what a page loads before hub-ready), its budget, and the budget's ceiling if any. */
export const BUDGETS = [
  { bundle: 'plain', file: 'dist/hub-embed.iife.js', budget: 14_202, ceiling: TYPEFORM_CEILING },
  { bundle: 'webview', file: 'dist/hub-embed-webview.iife.js', budget: 17_785 },
];

/**
 * The most a first file may weigh (gzip -9), as the build checks it: its budget less ROOM, or a budget at
 * its ceiling whole.
 */
export function limitOf({ budget, ceiling }) {
  return budget === ceiling ? budget : budget - ROOM;
}

/**
 * The npm path's budget: the first load of a Vite app whose only code is `import 'hub-embed/define'` (gzip -9,
 * scripts/vite-app-size.mjs), with ROOM free as every budget under its ceiling keeps. It holds the widget, the app's copy of
 * Lit and Vite's preload helper, which the lazy form half brings to an app without lazy imports of its own.
 * It is a budget of its own, above the plain file's, by what the widget cannot cut there: the app's Lit is
 * whole (build/lean-lit.ts cuts only the <script> bundles' own copy; the app's is shared with its other
 * Lit code), and Vite wraps every dynamic import of a client build in its helper, with or without
 * `@vite-ignore`. `npm run build` prints the figure.
 */
export const NPM_PATH_BUDGET = 16_793;
