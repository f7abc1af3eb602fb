// Side-effect free: importing this registers nothing (import 'hub-embed/define' for that).
export * from './core/index.js';
// The WebView bridge: connectBridge, its protocol and types. Nothing there runs on import either.
// createMockHost, a test double of a native host, is exported from hub-embed/bridge only.
export * from './bridge/runtime.js';
export { HubElement } from './components/base.js';
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
