import type { HubError } from '../core/errors.js';
import type { PublishedTable } from '../core/types.js';

/**
 * Every `hub-*` event the elements fire, and its `detail`: the one place event names and details are
 * typed. `emit()` takes only these, the page's `addEventListener` sees them through
 * `GlobalEventHandlersEventMap`, and the WebView bridge mirrors them to the host from the same names.
 * All are `bubbles: true, composed: true`; `hub-table-select` is cancelable.
 */
export interface HubEventDetails {
  /**
   * Once per load, when the tags on offer (`offered`) and the list for the tags selected by then are both in. `matching`:
   * how many of `tables` match the selected tags (all of them with none selected), as the count shows.
   */
  'hub-ready': { offered: string[]; tables: PublishedTable[]; matching: number };
  /** The user changed the tag selection: `tags` is the new one, as `tags` holds it on every element. */
  'hub-tags-change': { tags: string[] };
  /** A card was activated; preventDefault() keeps the form closed. */
  'hub-table-select': { table: PublishedTable };
  'hub-form-open': { shortCode: string };
  'hub-form-close': { shortCode: string };
  /** A message the form page posted, from its own window and origin. */
  'hub-form-message': { data: unknown };
  /** Cancelable: preventDefault() keeps the error off the browser console (the widget still shows it). */
  'hub-error': { error: HubError };
}

export type HubEventName = keyof HubEventDetails;

/** The events as the DOM delivers them. */
export type HubEventMap = { [Name in HubEventName]: CustomEvent<HubEventDetails[Name]> };

declare global {
  // Declaration merging: the global map gains the hub-* events, so addEventListener types their detail.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface GlobalEventHandlersEventMap extends HubEventMap {}
}
