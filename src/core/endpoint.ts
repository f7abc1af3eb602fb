import { HubError } from './errors.js';
import { readAnswer, send } from './http.js';
import { TokenSource, checkAccessToken, type TokenProvider } from './token-source.js';

export interface TokenEndpointOptions {
  /**
   * Unset, fetch's own default: 'same-origin', so the developer's session cookie goes along. 'include'
   * sends the cookie to a token endpoint on another origin (which must allow credentials for yours).
   */
  credentials?: RequestCredentials;
  /**
   * More headers for the token request, or a function giving them, asked before each request: the
   * header way for an app whose session is a bearer token (docs/webview-capacitor.md).
   */
  headers?: Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);
  fetch?: typeof fetch;
  /** A token endpoint that never answers is a `timeout` error after this long. Default 15 s. */
  timeoutMs?: number;
}

/**
 * A TokenProvider that POSTs to the developer's own token endpoint, which holds the API key and decides
 * the end user from its session. Accepts `{access_token, expires_in}` or the service's envelope.
 */
export function tokenFromEndpoint(url: string, options: TokenEndpointOptions = {}): TokenProvider {
  if (typeof url !== 'string' || !url.trim()) {
    throw new HubError('config', 'Set token-endpoint.');
  }
  const where = 'Token endpoint ' + url;
  return async ({ reason, previous, signal, load }) => {
    const init: RequestInit = {
      method: 'POST',
      credentials: options.credentials,
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json',
        // A function is asked before each request, so that a renewed session goes along.
        ...(typeof options.headers == 'function' ? await options.headers() : options.headers),
      },
      // The browser says why it asks, never who the user is: the backend decides that. The refused token
      // goes along only after a 401 (JSON.stringify leaves out an undefined previous). `load` lets an
      // endpoint with prefetch fetch the first tags and list along with the token.
      body: JSON.stringify({ reason, previous: reason === 'unauthorized' ? previous : undefined, load }),
      signal,
    };
    const response = await send(where, url, init, options.fetch, options.timeoutMs ?? 15_000);
    // The endpoint's own refusal: its session lookup (the developer's resolveUser) found no signed-in user.
    // Its own kind, so that a page can send the user to sign in; asking again cannot help.
    if (response.status === 401)
      throw new HubError('unauthorized', `${where} answered 401: no signed-in user; check the session cookie.`, {
        status: 401,
      });
    const { body, data } = await readAnswer(response, 'token', where);
    // The service's envelope or the bare token; `code` alone beside the token still counts as bare.
    return checkAccessToken(data ?? body, where, response.status);
  };
}

const shared = new Map<string, TokenSource>();

/**
 * One TokenSource per endpoint for the whole page, so several widgets with the same token endpoint share
 * one token and one request.
 */
export function sharedTokenSource(url: string): TokenSource {
  const key = new URL(url, globalThis.location?.href).href;
  let source = shared.get(key);
  if (!source) {
    source = new TokenSource(tokenFromEndpoint(url));
    shared.set(key, source);
  }
  return source;
}
