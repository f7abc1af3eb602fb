// The `HubEmbed` global of both <script> bundles (src/script-tag.ts, src/script-tag-webview.ts): the element
// classes and the core they already contain (buildNotificationLink is not there: it would add code). The
// build's duplicate guard reads `version`.
export { loadFormOpener } from './components/hub-embed/form-opener-loader.js';
export { define } from './components/base.js';
export { HubEmbed } from './components/hub-embed/hub-embed.js';
export { HubTableCard } from './components/hub-table-card/hub-table-card.js';
export { HubTableGrid } from './components/hub-table-grid/hub-table-grid.js';
export { HubTagFilter } from './components/hub-tag-filter/hub-tag-filter.js';
export { HubError } from './core/errors.js';
export { TokenSource } from './core/token-source.js';
export { tokenFromEndpoint } from './core/endpoint.js';
export { WebClient } from './core/web-client.js';
export const version: string = __HUB_EMBED_VERSION__;
