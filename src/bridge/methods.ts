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

/** Returns a reason when a value is not acceptable, undefined when it is. */
type Check = (value: any) => string | undefined;

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const emptyParams: Check = (v) => (v === undefined || isObject(v) ? undefined : 'not an object');
const stringList = (v: unknown, max: number) =>
  Array.isArray(v) && v.length <= max && v.every((s) => typeof s === 'string' && s.length <= 200);

export const HOST_REQUEST_CHECKS: Record<string, Check> = {
  'widget.refresh': emptyParams,
  'widget.setTags': (v) => (isObject(v) && stringList(v.tags, 100) ? undefined : 'tags: up to 100 strings'),
  'form.close': emptyParams,
};

export const RESULT_CHECKS: Record<string, Check> = {
  'bridge.hello': (v) =>
    isObject(v) && typeof v.platform === 'string' && stringList(v.capabilities, 200)
      ? undefined
      : 'need {v, platform, capabilities}',
  'auth.getToken': (v) =>
    isObject(v) && typeof v.access_token === 'string' && v.access_token && (v.expires_in as number) > 0 && Number.isFinite(v.expires_in)
      ? undefined
      : 'need {access_token, expires_in > 0}',
  'form.open': (v) => (isObject(v) && typeof v.handled === 'boolean' ? undefined : 'need {handled: boolean}'),
};
