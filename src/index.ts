// hub-embed's main entry: the elements and what a page needs around them. Side-effect free: importing
// this registers nothing (import 'hub-embed/define' for that). Lower-level pieces have entries of their
// own: hub-embed/core (URL and path building, the token source's parts), hub-embed/bridge (the WebView
// bridge's page side and its wire protocol) and hub-embed/host (the native side).
export { HubError, isHubError, type HubErrorKind } from './core/errors.js';
export { TokenSource, type TokenAnswer, type TokenContext, type TokenProvider } from './core/token-source.js';
export { tokenFromEndpoint, type TokenEndpointOptions } from './core/endpoint.js';
export { WebClient, type WebClientOptions } from './core/web-client.js';
/** @deprecated Renamed `WebClient`; see hub-embed/core. */
// eslint-disable-next-line @typescript-eslint/no-deprecated -- the old name stays exported, deprecated, for one release
export { HubClient, type HubClientOptions } from './core/index.js';
export { buildFormUrl } from './core/urls.js';
export type { AccessToken, PublishedTable } from './core/types.js';
export type { HubEventDetails, HubEventMap, HubEventName } from './components/events.js';
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
