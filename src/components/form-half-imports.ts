// What the form half takes from the main file, and the only module outside the half that its modules
// import at run time. In the ES build it is an ordinary module. In the <script> builds the form half is a
// classic script of its own (dist/hub-embed.form.js, build/form-half-imports.ts), which cannot import: there the
// main file's loader (form-opener-loader.script.ts) hands the half an object of this module's exports, typed
// as this module, and the half's build refuses any other import that leaves the half. Both sides name this one module, so the
// type checker checks each name the half takes against what the main file gives.
//
// Shared, not copied: the half renders with the main file's Lit (a second Lit could not render into the
// first one's templates), its element extends the main file's HubElement, registers through its define()
// and fills texts with its fill(); its errors are the main file's HubError, so `isHubError` and
// `instanceof HubEmbed.HubError` hold for them.
export { adoptStyles, css, html, nothing } from 'lit';
export { define, HubElement, nextTask } from './base.js';
export { shared } from './shared.styles.js';
export { fill } from './strings.js';
export { preconnect } from './hub-embed/dom.js';
// Whole, because core/token-links.ts and core/urls.ts, which the half carries, import core/errors.ts itself (core
// cannot import from here): the half's build resolves that import to this module (build/form-half-imports.ts).
export { HubError } from '../core/errors.js';
export { isText } from '../core/http.js';
