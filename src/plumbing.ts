// `hub-embed/plumbing`: what the elements are built from and wired with, for code that extends or wires them
// rather than places them on a page: the one base class and its guarded define(), the form half's loader (a
// page that uses <hub-form-frame> alone awaits it), the host link a WebView build plugs into <hub-embed>
// (enableBridge; hub-embed/webview calls it), the string tables, and this package's version. Side-effect free,
// as `hub-embed` is; that entry holds the elements, their types and the event map, and nothing else.
export { HubElement, define } from './components/base.js';
export { loadFormOpener } from './components/hub-embed/form-opener-loader.js';
export type { HostLink, HostLinker } from './components/hub-embed/host.js';
export { enableBridge } from './webview/host-link.js';
export { stringsFor } from './components/strings.js';

/** This package's version. */
export const version: string = __HUB_EMBED_VERSION__;
