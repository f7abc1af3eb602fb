/** The typed method maps of both directions, and run-time checks for everything that arrives. */
import type { AccessToken } from '../core/types.js';

/** Requests the page sends to the native host. */
export interface PageToHostRequests {
  /** The host supplies the token instead of the developer's token endpoint. */
  'auth.getToken': { params: { reason?: 'initial' | 'expired' }; result: AccessToken };
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

/** Whether a value that arrived has the shape the Methods table of docs/webview.md gives. */
export type Shape = (value: any) => unknown;

export const isObject = (v: any): v is Record<string, any> => !!v && typeof v === 'object' && !Array.isArray(v);
const noParams: Shape = (v) => v === undefined || isObject(v);
const strings = (v: unknown, max: number) =>
  Array.isArray(v) && v.length <= max && v.every((s) => typeof s === 'string' && s.length <= 200);

// Maps rather than object literals, so that a method called `toString` finds nothing.
/** Params of the requests a host may send; any other method has no handler. */
export const HOST_REQUESTS = new Map<string, Shape>([
  ['widget.refresh', noParams],
  ['widget.setTags', (v) => strings(v?.tags, 100)],
  ['form.close', noParams],
]);

/**
 * Results of the page's requests; a result of another shape is refused (E_INTERNAL). Results (and the params above)
 * are parsed JSON, in which only an object can have a named member: `v?.member` checks both.
 */
export const RESULTS = new Map<string, Shape>([
  ['bridge.hello', (v) => typeof v?.platform == 'string' && strings(v.capabilities, 200)],
  [
    'auth.getToken',
    (v) => v?.access_token && typeof v.access_token == 'string' && v.expires_in > 0 && Number.isFinite(v.expires_in),
  ],
  ['form.open', (v) => typeof v?.handled == 'boolean'],
]);
