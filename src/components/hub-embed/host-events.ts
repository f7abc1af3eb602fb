// What a host hears of each `<hub-embed>` event: one table for the WebView bridge's page side
// (src/webview/host-link.ts) and for `<HubEmbedView>` on the web (src/react-native/web-events.ts), which
// hears the element with no bridge between, so that an app's one handler serves iOS, Android and the web.
import type { HostEventDetails } from './host.js';
import { localeOf } from '../base.js';
import type { HubEventName } from '../events.js';
import type { PageToHostEvents } from '../../bridge/methods.js';

/** A host event: its name and params, as a pair. */
type HeardEvent = { [Name in keyof PageToHostEvents]: [Name, PageToHostEvents[Name]] }[keyof PageToHostEvents];

/** Each element event (typed by src/components/events.ts) and the host event it becomes. */
export const HOST_EVENTS: { [Name in HubEventName]?: (detail: HostEventDetails[Name], element: Node) => HeardEvent } = {
  // The language the element shows (its `locale`, else the `lang` it sits in).
  'hub-ready': (_, element) => ['widget.ready', { version: __HUB_EMBED_VERSION__, locale: localeOf(element) }],
  'hub-table-select': ({ table }) => ['table.selected', { shortCode: table.short_code, name: table.name }],
  // A copy: a host (an app on the web, with no bridge between) that keeps or changes it holds none of the element's.
  'hub-tags-change': ({ tags }) => ['tags.changed', { tags: [...tags] }],
  'hub-form-open': ({ shortCode }) => ['form.opened', { shortCode, handledBy: 'page' }],
  'hub-form-close': ({ shortCode }) => ['form.closed', { shortCode }],
  'hub-error': ({ error }) => ['widget.error', { kind: error.kind, message: error.message }],
  'hub-form-message': ({ shortCode, data }) => ['form.message', { shortCode, data }],
};
