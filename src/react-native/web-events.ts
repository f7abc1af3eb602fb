/**
 * On the web, <HubEmbedView> hears the `<hub-embed>` element's own events, with no bridge between: each
 * becomes the event a native view's app hears for it, with the same name and params as the WebView
 * bridge's page side sends (src/webview/host-link.ts), so that one handler serves all three platforms.
 */
import type { HubEventDetails, HubEventName } from '../components/events.js';
import { localeOf } from '../components/base.js';
import type { HubEmbedViewEvent } from './view-props.js';

/** The element's events that reach the app, in the order of the bridge's event map. */
export const ELEMENT_EVENTS = [
  'hub-ready',
  'hub-table-select',
  'hub-tags-change',
  'hub-form-open',
  'hub-form-close',
  'hub-error',
  'hub-form-message',
] as const satisfies readonly HubEventName[];

/**
 * The app's event for one element event, or undefined for none. `openForm` is the short code of the form
 * open now (from `hub-form-open`), which the element's `hub-form-message` does not carry; a message with no
 * form open reaches nobody, as the page side sends none then.
 */
export function viewEventOf<Name extends (typeof ELEMENT_EVENTS)[number]>(
  name: Name,
  detail: HubEventDetails[Name],
  element: Node,
  openForm: string | undefined,
): HubEmbedViewEvent | undefined {
  const any = detail;
  switch (name) {
    case 'hub-ready':
      // The language the element shows (its `locale`, else the `lang` it sits in), as the page side says it.
      return { name: 'widget.ready', params: { version: __HUB_EMBED_VERSION__, locale: localeOf(element) } };
    case 'hub-table-select': {
      const { table } = any as HubEventDetails['hub-table-select'];
      return { name: 'table.selected', params: { shortCode: table.short_code, name: table.name } };
    }
    case 'hub-tags-change':
      return { name: 'tags.changed', params: { tags: [...(any as HubEventDetails['hub-tags-change']).tags] } };
    case 'hub-form-open':
      return {
        name: 'form.opened',
        params: { shortCode: (any as HubEventDetails['hub-form-open']).shortCode, handledBy: 'page' },
      };
    case 'hub-form-close':
      // The element's own dialog (or inline form) closed: a native view says `page` for the same close.
      return {
        name: 'form.closed',
        params: { shortCode: (any as HubEventDetails['hub-form-close']).shortCode, reason: 'page' },
      };
    case 'hub-error': {
      const { error } = any as HubEventDetails['hub-error'];
      return { name: 'widget.error', params: { kind: error.kind, message: error.message } };
    }
    case 'hub-form-message':
      return openForm === undefined
        ? undefined
        : {
            name: 'form.message',
            params: { shortCode: openForm, data: (any as HubEventDetails['hub-form-message']).data },
          };
  }
  return undefined;
}
