import { HubError } from './errors.js';
import { TokenSource, checkAccessToken, type TokenProvider } from './token-source.js';

export interface TokenEndpointOptions {
  /** Defaults to 'same-origin', so the developer's session cookie goes along. */
  credentials?: RequestCredentials;
  headers?: Record<string, string>;
  fetch?: typeof fetch;
}

/**
 * A TokenProvider that POSTs to the developer's own token endpoint, which holds the API key and decides
 * the end user from its session. Accepts `{access_token, expires_in}` or the service's envelope.
 */
export function tokenFromEndpoint(url: string, options: TokenEndpointOptions = {}): TokenProvider {
  if (typeof url !== 'string' || url.trim() === '') {
    throw new HubError('config', 'Set token-endpoint to your backend route that returns {access_token, expires_in}.');
  }
  return async ({ reason, signal }) => {
    const doFetch = options.fetch ?? globalThis.fetch;
    let response: Response;
    try {
      response = await doFetch(url, {
        method: 'POST',
        credentials: options.credentials ?? 'same-origin',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...options.headers },
        // The browser says why it asks, never who the user is: the backend decides that.
        body: JSON.stringify({ reason }),
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if (signal?.aborted) throw new HubError('aborted', 'The token request was cancelled.');
      throw new HubError('network', `Could not reach the token endpoint ${url}; check the network and the URL.`, { cause: error });
    }
    const where = `The token endpoint ${url}`;
    if (!response.ok) {
      throw new HubError('token', `${where} answered HTTP ${response.status}; check that the user is signed in and the endpoint works.`, { status: response.status });
    }
    let body: unknown;
    try {
      body = JSON.parse(await response.text());
    } catch {
      throw new HubError('token', `${where} did not answer JSON (HTTP ${response.status}).`, { status: response.status });
    }
    const envelope = body as { code?: unknown; data?: unknown } | null;
    if (envelope && typeof envelope === 'object' && 'data' in envelope && 'code' in envelope) {
      if (envelope.code !== 200) {
        throw new HubError('token', `${where} answered code ${String(envelope.code)} (HTTP ${response.status}).`, { status: response.status });
      }
      return checkAccessToken(envelope.data, where, response.status);
    }
    return checkAccessToken(body, where, response.status);
  };
}

const shared = new Map<string, TokenSource>();

/**
 * One TokenSource per endpoint (and credentials/headers) for the whole page, so several widgets with
 * the same token endpoint share one token and one request.
 */
export function sharedTokenSource(url: string, options: Omit<TokenEndpointOptions, 'fetch'> = {}): TokenSource {
  const key = JSON.stringify([new URL(url, globalThis.location?.href).href, options.credentials ?? 'same-origin', options.headers ?? {}]);
  let source = shared.get(key);
  if (!source) {
    source = new TokenSource(tokenFromEndpoint(url, options));
    shared.set(key, source);
  }
  return source;
}
