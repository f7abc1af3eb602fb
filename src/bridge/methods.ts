/** The typed method maps of both directions, and run-time checks for everything that arrives. */
import type { AccessToken } from '../core/types.js';
import { isAccessToken, isRecord } from '../core/http.js';

/** Requests the page sends to the native host. */
export interface PageToHostRequests {
  /** The host supplies the token instead of the developer's token endpoint. */
  /**
   * `reason` is core's TokenSource reason; `previous` the token being replaced (`unauthorized`: the service
   * refused it early, so the host must not hand it back). Hosts read `expired`, from older pages, as `expiring`.
   */
  'auth.getToken': {
    params: { reason?: 'initial' | 'expiring' | 'unauthorized' | 'expired'; previous?: string };
    result: AccessToken;
  };
  /** The host answers `{handled: true}` when it opens the form natively. */
  'form.open': { params: { shortCode: string; url: string }; result: { handled: boolean } };
}

/** Fire-and-forget events the page sends to the native host. */
export interface PageToHostEvents {
  /**
   * `locale` is the language the widget shows (`zh-CN` or `en`; absent from older pages), so that the host's
   * own controls (the form Modal's close label) speak it too.
   */
  'widget.ready': { version: string; locale?: string };
  'table.selected': { shortCode: string; name: string };
  /** The user changed the selection in the page (a chip, or "show all"); never for the host's own setTags. */
  'tags.changed': { tags: string[] };
  'form.opened': { shortCode: string; handledBy: 'host' | 'page' };
  'form.closed': { shortCode: string };
  'widget.error': { kind: string; message: string };
  /** A message the form page posted to the widget (its own iframe and the form URL's origin only). */
  'form.message': { shortCode: string; data: unknown };
}

/**
 * The page's event names, as data: the host's event checks (src/host/event-shapes.ts) and the checks of the
 * Swift, Kotlin and Dart hosts read this list. Page code does not import it, so no page bundle carries it.
 */
export const PAGE_EVENTS = [
  'widget.ready',
  'table.selected',
  'tags.changed',
  'form.opened',
  'form.closed',
  'widget.error',
  'form.message',
] as const satisfies ReadonlyArray<keyof PageToHostEvents>;
/** Types only: a type error unless every event of PageToHostEvents is in PAGE_EVENTS. */
export type PageEventsComplete = Complete<
  [Exclude<keyof PageToHostEvents, (typeof PAGE_EVENTS)[number]>] extends [never] ? true : false
>;

/** Requests the native host sends to the page; the page registers handlers with `bridge.handle()`. */
export interface HostToPageRequests {
  // `void`: what the page's handler returns, which the host reads as null.
  // eslint-disable-next-line @typescript-eslint/no-invalid-void-type
  'widget.refresh': { params: Record<string, never>; result: void };
  // eslint-disable-next-line @typescript-eslint/no-invalid-void-type
  'widget.setTags': { params: { tags: string[] }; result: void };
  'form.close': { params: Record<string, never>; result: { closed: boolean } };
}

/** What the host tells the page in its answer to `bridge.hello`. */
export interface HelloResult {
  v: number;
  platform: string;
  appVersion?: string;
  capabilities: string[];
  config?: Record<string, unknown>;
}

/** Whether (truthy) a value that arrived, parsed JSON, has the shape the Methods table of docs/webview.md gives. */
export type Shape = (value: unknown) => unknown;

const noParams: Shape = (value) => value === undefined || isRecord(value);
const strings = (value: unknown, max: number) =>
  Array.isArray(value) && value.length <= max && value.every((item) => typeof item === 'string' && item.length <= 200);

/** [method, shape] pairs for the methods of `Methods`: a misspelt method fails the type check. */
export type Shapes<Methods> = ReadonlyArray<{ [Method in keyof Methods]: readonly [Method, Shape] }[keyof Methods]>;

/**
 * `true` when `Pairs` has a shape for every method of `Methods`, else `false`: `Complete<…>` below then fails
 * the type check, so a method added to an interface without its run-time shape cannot build.
 */
export type EveryMethod<Methods, Pairs extends Shapes<Methods>> = [Exclude<keyof Methods, Pairs[number][0]>] extends [
  never,
]
  ? true
  : false;
/** A type error unless its argument is `true`. */
export type Complete<Check extends true> = Check;

const hostRequests = [
  ['widget.refresh', noParams],
  ['widget.setTags', (params) => isRecord(params) && strings(params.tags, 100)],
  ['form.close', noParams],
] as const satisfies Shapes<HostToPageRequests>;
/** Types only (nothing is emitted): every host request has its shape above. */
export type HostRequestsComplete = Complete<EveryMethod<HostToPageRequests, typeof hostRequests>>;

// Maps rather than object literals, so that a method called `toString` finds nothing.
/** Params of the requests a host may send; any other method has no handler. */
export const HOST_REQUESTS = new Map<string, Shape>(hostRequests);

type PageRequests = PageToHostRequests & { 'bridge.hello': unknown };
const results = [
  [
    'bridge.hello',
    (result) => isRecord(result) && typeof result.platform === 'string' && strings(result.capabilities, 200),
  ],
  ['auth.getToken', isAccessToken],
  ['form.open', (result) => isRecord(result) && typeof result.handled === 'boolean'],
] as const satisfies Shapes<PageRequests>;
/** Types only: every page request (and the hello) has its result's shape above. */
export type ResultsComplete = Complete<EveryMethod<PageRequests, typeof results>>;

/** Results of the page's requests (and of its hello); a result of another shape is refused (E_INTERNAL). */
export const RESULTS = new Map<string, Shape>(results);
