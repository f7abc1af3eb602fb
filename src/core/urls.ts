import { HubError } from './errors.js';
import { isText } from './http.js';
import { isLoopbackHost } from './loopback.js';

/** The value as an absolute http(s) URL, or undefined. */
function httpUrl(value: unknown): URL | undefined {
  if (isText(value)) {
    try {
      const url = new URL(value);
      if (url.protocol === 'https:' || url.protocol === 'http:') return url;
    } catch {
      // Not a URL at all: the same as any other unusable value.
    }
  }
}

/**
 * What safeHttpUrl made of each text it was given: a list checks its icons, its cards check them again,
 * and a filter change lists the same tables. As many as a catalogue has icons; past SAFE_URLS_KEPT (a
 * service that signs its icon URLs anew for every list) it starts over, so a long visit never holds more.
 */
const safeHttpUrls = new Map<string, string | undefined>();

/** The most texts safeHttpUrl keeps: a catalogue of a thousand tables, four times over. */
export const SAFE_URLS_KEPT = 4096;

/** The value as an absolute http(s) URL string, or undefined (for icons and other untrusted links). */
export function safeHttpUrl(value: unknown): string | undefined {
  if (isText(value) && !safeHttpUrls.has(value)) {
    if (safeHttpUrls.size >= SAFE_URLS_KEPT) safeHttpUrls.clear();
    safeHttpUrls.set(value, httpUrl(value)?.href);
  }
  return safeHttpUrls.get(value as string);
}

/** Where the spec puts every endpoint: under `{base_url}/api/v1/hub`. */
export const API_PREFIX = '/api/v1/hub';

/** The end of an API root's path: `/api/v<n>/<segment>`, any letter case (see apiBaseUrl). */
export const API_ROOT_ENDING = /\/api\/v\d+\/[^/]+$/i;

/**
 * The one rule for the service's address, for the widget's `base-url`, the server's `baseUrl` and every
 * other caller: an absolute http(s) URL without credentials, query or fragment. A path that ends in
 * `/api/v<n>/<segment>` is the API root as given: the spec's `…/api/v1/hub`, or the real deployment's
 * `…/api/v1/apihub` (people copy the endpoints' common prefix). Any other path is the spec's `{base_url}`
 * and gets `/api/v1/hub`. A root that would hold `/api/v<n>/` twice (from `…/api/v1`, an endpoint's path,
 * a doubled root) is refused, and so is an encoded slash (`%2F`), which a server may decode into more
 * segments.
 * Returns the API root without a trailing slash; `what` names the setting in errors.
 */
export function apiBaseUrl(baseUrl: unknown, what: string): string {
  const url = httpUrl(baseUrl);
  const path = url ? url.pathname.replace(/\/+$/, '') : '';
  const root = API_ROOT_ENDING.test(path) ? path : path + API_PREFIX;
  // Nothing but an origin and a path. One message for every refusal: it says what a usable value looks like.
  if (
    !url ||
    url.href !== url.origin + url.pathname ||
    /%2f/i.test(path) ||
    root.match(/\/api\/v\d+(?=\/)/gi)!.length > 1
  ) {
    throw new HubError('config', `Set ${what} to the service's address, like https://hub.example.com/api/v1/apihub.`);
  }
  return url.origin + root;
}

/**
 * Parses a form-site address: absolute http(s), and https unless the host is loopback, because the
 * token travels in its query string.
 */
export function parseFormSite(formUrl: string, what = 'form-url'): URL {
  const url = httpUrl(formUrl);
  if (!url || (url.protocol === 'http:' && !isLoopbackHost(url.hostname))) {
    // One message for every refusal: it says what a usable value looks like.
    throw new HubError('config', `Set ${what} to an https URL.`);
  }
  return url;
}
