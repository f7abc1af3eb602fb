import { HubError } from './errors.js';
import { envelopeOf, readJson } from './json.js';
import { TokenSource, abortError, checkAccessToken, type TokenProvider } from './token-source.js';

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
    throw new HubError('config', 'Set token-endpoint.');
  }
  const where = 'Token endpoint ' + url;
  return async ({ reason, previous, signal }) => {
    const doFetch = options.fetch ?? globalThis.fetch;
    let response: Response;
    try {
      response = await doFetch(url, {
        method: 'POST',
        credentials: options.credentials ?? 'same-origin',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...options.headers },
        // The browser says why it asks, never who the user is: the backend decides that.
        body: JSON.stringify(reason === 'unauthorized' ? { reason, previous } : { reason }),
        signal,
      });
    } catch (error) {
      throw signal?.aborted ? abortError() : new HubError('network', `${where} unreachable; check it.`, { cause: error });
    }
    const { status } = response;
    const body = await readJson(response);
    const envelope = envelopeOf(body);
    if (!response.ok || (envelope && envelope.code !== 200)) {
      throw new HubError('token', `${where}: ${envelope?.code ?? status}; check it.`, { status });
    }
    // The service's envelope or the bare token; `code` alone beside the token still counts as bare.
    return checkAccessToken((envelope?.data as object | undefined) ?? body, where, status);
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
