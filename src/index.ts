// hub-embed's main entry: the elements and what a page needs around them. Side-effect free: importing
// this registers nothing (import 'hub-embed/define' for that). Lower-level pieces have entries of their
// own, and each name has one home: hub-embed/core (the token source, the API client, form URLs, HubError),
// hub-embed/bridge (the WebView bridge's page side and its wire protocol) and hub-embed/host (the native side).
export type { HubEventDetails, HubEventMap, HubEventName } from './components/events.js';
export { HubElement, define } from './components/base.js';
export { loadFormOpener } from './components/hub-embed/form-opener-loader.js';
export { HubEmbed, type OpenFormHook, type OpenMode } from './components/hub-embed/hub-embed.js';
export type { HostLink, HostLinker } from './components/hub-embed/host.js';
export { enableBridge } from './webview/host-link.js';
export { HubFormFrame } from './components/hub-form-frame/hub-form-frame.js';
export { HubTableCard } from './components/hub-table-card/hub-table-card.js';
export { HubTableGrid } from './components/hub-table-grid/hub-table-grid.js';
export { HubTagFilter } from './components/hub-tag-filter/hub-tag-filter.js';
export { stringsFor, type HubLocale, type HubStrings } from './components/strings.js';

/** This package's version. */
export const version: string = __HUB_EMBED_VERSION__;
