/**
 * The shape of each page event, checked before the app's typed callbacks see it: a callback typed
 * `({shortCode, name}) => …` must never be handed `null` or `42`. Events of another shape, or of a name
 * the event map does not have, are dropped with a reason for `onRejected`.
 */
import type { PageToHostEvents } from '../bridge/methods.js';
import { isObject } from '../bridge/methods.js';

/** Text the page sends about a table or an error: present, and short enough for a log line or a label. */
const text = (value: unknown, max = 500) => typeof value === 'string' && value.length <= max;

type Check = (params: Record<string, unknown>) => boolean;
const CHECKS: Record<keyof PageToHostEvents, Check> = {
  'widget.ready': (p) => text(p.version, 100) && (p.locale === undefined || text(p.locale, 35)),
  'table.selected': (p) => text(p.shortCode, 100) && text(p.name),
  // As many tags, each as long, as the host may send in widget.setTags.
  'tags.changed': (p) =>
    Array.isArray(p.tags) && p.tags.length <= 100 && p.tags.every((tag) => text(tag, 200)),
  'form.opened': (p) => text(p.shortCode, 100) && (p.handledBy === 'host' || p.handledBy === 'page'),
  'form.closed': (p) => text(p.shortCode, 100),
  'widget.error': (p) => text(p.kind, 100) && text(p.message, 2000),
  // What a form page posts is its own; only whose it is (the short code) is checked.
  'form.message': (p) => text(p.shortCode, 100) && 'data' in p,
};
// A Map, so that an event called `toString` finds no shape.
const SHAPES = new Map(Object.entries(CHECKS));

/** Why the event is dropped, or undefined when it has its documented shape. */
export function eventRefusal(name: string, params: unknown): string | undefined {
  const shape = SHAPES.get(name);
  if (!shape) return `unknown event ${name.slice(0, 100)}`;
  return isObject(params) && shape(params) ? undefined : `bad params: ${name}`;
}
