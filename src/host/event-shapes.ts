/**
 * The shape of each page event, checked before the app's typed callbacks see it: a callback typed
 * `({shortCode, name}) => …` must never be handed `null` or `42`. Events of another shape, or of a name
 * the event map does not have, are dropped with a reason for `onRejected`.
 */
import type { PageToHostEvents } from '../bridge/methods.js';
import { isRecord } from '../core/http.js';

/** Text the page sends about a table or an error: present, and short enough for a log line or a label. */
const text = (value: unknown, max = 500) => typeof value === 'string' && value.length <= max;

type Check = (params: Record<string, unknown>) => boolean;
const CHECKS: Record<keyof PageToHostEvents, Check> = {
  'widget.ready': (params) => text(params.version, 100) && (params.locale === undefined || text(params.locale, 35)),
  'table.selected': (params) => text(params.shortCode, 100) && text(params.name),
  // As many tags, each as long, as the host may send in widget.setTags.
  'tags.changed': (params) =>
    Array.isArray(params.tags) && params.tags.length <= 100 && params.tags.every((tag) => text(tag, 200)),
  'form.opened': (params) =>
    text(params.shortCode, 100) && (params.handledBy === 'host' || params.handledBy === 'page'),
  'form.closed': (params) => text(params.shortCode, 100),
  'widget.error': (params) => text(params.kind, 100) && text(params.message, 2000),
  // What a form page posts is its own; only whose it is (the short code) is checked.
  'form.message': (params) => text(params.shortCode, 100) && 'data' in params,
};
// A Map, so that an event called `toString` finds no shape.
const SHAPES = new Map(Object.entries(CHECKS));

/** Why the event is dropped, or undefined when it has its documented shape. */
export function eventRefusal(name: string, params: unknown): string | undefined {
  const shape = SHAPES.get(name);
  if (!shape) return `unknown event ${name.slice(0, 100)}`;
  return isRecord(params) && shape(params) ? undefined : `bad params: ${name}`;
}
