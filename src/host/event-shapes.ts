/**
 * The shape of each page event, checked before the app's typed callbacks see it: a callback typed
 * `({shortCode, name}) => …` must never be handed `null` or `42`. Events of another shape, or of a name
 * the event map does not have, are dropped with a reason for `onRejected`.
 */
import { PAGE_EVENTS, type PageToHostEvents } from '../bridge/methods.js';
import { isRecord } from '../core/http.js';

/**
 * The longest each text param of a page event may be, in UTF-16 units (JavaScript's length): short enough
 * for a log line or a label. The same name has the same bound in every event. Data, so that the checks of
 * the Swift, Kotlin and Dart hosts read the bounds this file enforces.
 */
export const TEXT_LIMITS = { version: 100, locale: 35, shortCode: 100, name: 500, kind: 100, message: 2000 } as const;
/** `tags.changed`: as many tags, each as long, as the host may send in widget.setTags. */
export const TAG_LIMITS = { count: 100, length: 200 } as const;

type TextParam = keyof typeof TEXT_LIMITS;
const within = (value: unknown, max: number) => typeof value === 'string' && value.length <= max;
/** The text param `key`: present, a string, and no longer than its bound. */
const text = (params: Record<string, unknown>, key: TextParam) => within(params[key], TEXT_LIMITS[key]);

type Check = (params: Record<string, unknown>) => boolean;
const CHECKS: Record<keyof PageToHostEvents, Check> = {
  'widget.ready': (params) => text(params, 'version') && (params.locale === undefined || text(params, 'locale')),
  'table.selected': (params) => text(params, 'shortCode') && text(params, 'name'),
  'tags.changed': (params) =>
    Array.isArray(params.tags) &&
    params.tags.length <= TAG_LIMITS.count &&
    params.tags.every((tag) => within(tag, TAG_LIMITS.length)),
  'form.opened': (params) => text(params, 'shortCode') && (params.handledBy === 'host' || params.handledBy === 'page'),
  'form.closed': (params) => text(params, 'shortCode'),
  'widget.error': (params) => text(params, 'kind') && text(params, 'message'),
  // What a form page posts is its own; only whose it is (the short code) is checked.
  'form.message': (params) => text(params, 'shortCode') && 'data' in params,
};
// A Map, so that an event called `toString` finds no shape.
const SHAPES = new Map<string, Check>(PAGE_EVENTS.map((name) => [name, CHECKS[name]]));

/** Why the event is dropped, or undefined when it has its documented shape. */
export function eventRefusal(name: string, params: unknown): string | undefined {
  const shape = SHAPES.get(name);
  if (!shape) return `unknown event ${name.slice(0, 100)}`;
  return isRecord(params) && shape(params) ? undefined : `bad params: ${name}`;
}
