/** The typed method maps of both directions, and run-time checks for everything that arrives. */
import type { AccessToken } from '../core/types.js';
import { isObject } from './protocol.js';

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
  'widget.ready': { version: string };
  'table.selected': { shortCode: string; name: string };
  'form.opened': { shortCode: string; handledBy: 'host' | 'page' };
  'form.closed': { shortCode: string };
  'widget.error': { kind: string; message: string };
  /** A message the form page posted to the widget (its own iframe and the form URL's origin only). */
  'form.message': { shortCode: string; data: unknown };
}

/** Requests the native host sends to the page; the page registers handlers with `bridge.handle()`. */
export interface HostToPageRequests {
  'widget.refresh': { params: Record<string, never>; result: void };
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

/** The hello as the page sends it; the host answers with a HelloResult. */
export interface HelloParams {
  v: number[];
  widgetVersion: string;
  capabilities: string[];
}

/** Everything the page asks of its host: the handshake and the host's methods. */
export type PageRequests = PageToHostRequests & { 'bridge.hello': { params: HelloParams; result: HelloResult } };

/** Whether a value that arrived, parsed JSON, has type T: the shapes of the Methods table in docs/webview.md. */
export type Guard<T> = (value: unknown) => value is T;

export { isObject };

/** At most `max` strings of at most 200 characters each. */
const isStrings = (value: unknown, max: number): value is string[] =>
  Array.isArray(value) && value.length <= max && value.every((item) => typeof item === 'string' && item.length <= 200);

/**
 * A request that reads no params: an object (members it does not read are ignored, as the protocol
 * ignores unknown fields), or none at all, which the page treats as `{}` (see answers.ts).
 */
const isNoParams = (value: unknown): value is Record<string, never> => isObject(value);

// `satisfies` makes each map name exactly the methods of its interface, each with a guard of that
// method's type; lookups go through Object.hasOwn, so a method called `toString` finds nothing.
/** Params of the requests a host may send; any other method has no handler. */
export const HOST_REQUESTS = {
  'widget.refresh': isNoParams,
  'widget.setTags': (params): params is { tags: string[] } => isObject(params) && isStrings(params.tags, 100),
  'form.close': isNoParams,
} satisfies { [M in keyof HostToPageRequests]: Guard<HostToPageRequests[M]['params']> };

/** Results of the page's requests; a result of another shape is refused (E_INTERNAL). */
export const RESULTS = {
  // What the bridge relies on (platform, capabilities); the handshake checks `v` itself (another version is
  // E_VERSION, not a bad result), and `appVersion` and `config` are passed on as the host sent them.
  'bridge.hello': (result): result is HelloResult =>
    isObject(result) && typeof result.platform === 'string' && isStrings(result.capabilities, 200),
  'auth.getToken': (result): result is AccessToken =>
    isObject(result) &&
    typeof result.access_token === 'string' &&
    result.access_token !== '' &&
    typeof result.expires_in === 'number' &&
    Number.isFinite(result.expires_in) &&
    result.expires_in > 0,
  'form.open': (result): result is { handled: boolean } => isObject(result) && typeof result.handled === 'boolean',
} satisfies { [M in keyof PageRequests]: Guard<PageRequests[M]['result']> };
