/**
 * On the web, <HubEmbedView> hears the `<hub-embed>` element's own events, with no bridge between: each
 * becomes the event a native view's app hears for it, from the table the WebView bridge's page side sends
 * by (src/components/hub-embed/host-events.ts), so that one handler serves all three platforms.
 */
import type { HubEventDetails, HubEventName } from '../components/events.js';
import type { HostEventDetails } from '../components/hub-embed/host.js';
import { HOST_EVENTS } from '../components/hub-embed/host-events.js';
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
 * The app's event for one element event, or undefined for none: host-events.ts's, as a native view's app
 * hears it. `openForm` is the short code of the form open now (from `hub-form-open`), which the element's
 * `hub-form-message` does not carry; a message with no form open reaches nobody, as the page side sends
 * none then. The element's own dialog (or inline form) closing is a close by the `page`, as on iOS and Android.
 */
export function viewEventOf<Name extends (typeof ELEMENT_EVENTS)[number]>(
  name: Name,
  detail: HubEventDetails[Name],
  element: Node,
  openForm: string | undefined,
): HubEmbedViewEvent | undefined {
  if (name === 'hub-form-message' && openForm === undefined) return undefined;
  // Only the form page's message lacks the short code a host hears; every other detail has its own.
  const heard = name === 'hub-form-message' ? { ...detail, shortCode: openForm } : detail;
  const event = HOST_EVENTS[name]?.(heard as HostEventDetails[Name], element);
  if (!event) return undefined;
  const [type, params] = event;
  return (
    type === 'form.closed' ? { name: type, params: { reason: 'page', ...params } } : { name: type, params }
  ) as HubEmbedViewEvent;
}
