// hub-embed's main entry: the elements, the types of their properties and the event map, nothing else (as
// stripe-js's is loadStripe and its types). Side-effect free: importing this registers nothing (import
// 'hub-embed/define' for that). Every other name has one home of its own: hub-embed/core (the token source,
// the API client, form URLs, HubError), hub-embed/bridge (the WebView bridge's page side and its wire
// protocol), hub-embed/host (the native side) and hub-embed/plumbing (the base class, define(), the form
// half's loader, the bridge's link, the string tables, the version).
export type { HubEventDetails, HubEventMap, HubEventName } from './components/events.js';
export { HubEmbed, type OpenFormHook, type OpenMode } from './components/hub-embed/hub-embed.js';
export { HubFormFrame } from './components/hub-form-frame/hub-form-frame.js';
export { HubTableCard } from './components/hub-table-card/hub-table-card.js';
export { HubTableGrid } from './components/hub-table-grid/hub-table-grid.js';
export { HubTagFilter } from './components/hub-tag-filter/hub-tag-filter.js';
export type { HubLocale, HubStrings } from './components/strings.js';
