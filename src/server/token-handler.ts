/** The browser's token endpoint: its options, and the order a request is answered in (CORS, method, user, body, token). */
import { HubError, isHubError } from '../core/errors.js';
import type { ServerClient } from './server-client.js';
import { PAGE_LISTS, type PageListsSource } from './page-lists.js';
import { PLAIN_HANDLER, type PlainAnswer, type PlainInput } from './plain.js';
import { createPrefetcher, type PrefetchOptions } from './prefetch.js';
import { createMemoryTokenCache, type CachedToken, type TokenCache } from './token-cache.js';
import { corsPolicy } from './token-origins.js';
import { aggregateReports, defaultOnError } from './token-reports.js';
import { readTokenRequest, TOO_LARGE, TOO_SLOW, webInput } from './token-request.js';
import { createTokenSupply } from './token-supply.js';
import { reportOnce, unsetSetting } from './settings.js';
import { resolveUser, SESSION_UNREADABLE, SIGNED_OUT } from './token-user.js';
import { within } from './within.js';

export interface TokenHandlerOptions {
  /** exchangeToken; with `prefetch` also publishedTags and publishedList. */
  client: Pick<ServerClient, 'exchangeToken'> & Partial<Pick<ServerClient, 'publishedTags' | 'publishedList'>>;
  /**
   * Your own session lookup: the signed-in end user's id, or null when nobody is signed in (401).
   * Never read the id from the request body or query: whoever sends it would become that user.
   */
  resolveClientUserId: (request: Request) => string | null | undefined | Promise<string | null | undefined>;
  /**
   * When set, only these origins may call; others, and a request without `Origin`, get 403. Exact
   * origins: a web app's (`https://app.example.com`) or a hybrid shell's (`capacitor://localhost`,
   * `ionic://localhost`, `https://localhost`, or the `scheme://host` the app configures).
   */
  allowedOrigins?: readonly string[];
  /**
   * Headers the app's token request carries beyond content-type, e.g. `["authorization"]` for a bearer
   * token: the preflight allows content-type and exactly these. Needs allowedOrigins.
   */
  allowedHeaders?: readonly string[];
  /**
   * Also answer a request that has no `Origin` at all: a native HTTP client's (Capacitor's native HTTP).
   * Browsers send `Origin` on every POST, so this admits no other site's page. Needs allowedOrigins.
   */
  allowMissingOrigin?: boolean;
  /** Default: an in-memory LRU of 10000 users. */
  cache?: TokenCache;
  /** Milliseconds since the epoch; replaceable for tests. Default Date.now. */
  now?: () => number;
  /**
   * Called with failures the browser only sees as a generic 5xx (or, for a cache outage, not at all).
   * The same failure again within 10 s is counted, not repeated: the next report after that carries
   * the count, so an outage under load is a few lines, not one per request. Default: console.error.
   */
  onError?: (error: unknown) => void;
  /**
   * Also fetch, with the user's new token, the tags and the list the widget says it loads next, and answer
   * them beside the token (`prefetched`): the widget then needs one browser round trip instead of three.
   * A prefetch that fails or is late never fails the token answer; the widget then loads as usual.
   * `{cacheMs}` shares the answers between users for that long (see PrefetchOptions). Default off.
   */
  prefetch?: boolean | PrefetchOptions;
  /**
   * How long the request body may take to arrive, in ms; a slower one gets 408 and the connection is
   * closed. The body is a few hundred bytes, so a slow one is a client holding connections open (Node's
   * own limit is its 300 s requestTimeout). Default 10000.
   */
  bodyTimeoutMs?: number;
}

export type TokenHandler = (request: Request) => Promise<Response>;

function answer(status: number, body: unknown, headers: Record<string, string>): PlainAnswer {
  return {
    status,
    headers: {
      ...(body === null ? {} : { 'content-type': 'application/json; charset=utf-8' }),
      'cache-control': 'no-store',
      ...headers,
    },
    body: body === null ? null : JSON.stringify(body),
  };
}

/**
 * The browser's token endpoint. It answers `{access_token, expires_in}` for the user your session names,
 * reusing a cached token while more than half its lifetime is left, with one exchange per user in flight.
 */
export function createTokenHandler(options: TokenHandlerOptions): TokenHandler {
  if (typeof options?.client?.exchangeToken !== 'function')
    throw new HubError('config', 'createTokenHandler needs client: createServerClient({apiKey, baseUrl}).');
  if (typeof options.resolveClientUserId !== 'function') {
    throw new HubError(
      'config',
      'createTokenHandler needs resolveClientUserId(request): your session lookup returning the user id or null.',
    );
  }
  const policy = corsPolicy(options);
  const now = options.now ?? Date.now;
  const cache = options.cache ?? createMemoryTokenCache({ now });
  const onError = options.onError ?? defaultOnError;

  const report = aggregateReports(onError, now);
  const bodyTimeoutMs = options.bodyTimeoutMs ?? 10_000;
  if (!Number.isSafeInteger(bodyTimeoutMs) || bodyTimeoutMs < 1)
    throw new HubError('config', 'bodyTimeoutMs must be a whole number of milliseconds above 0.');

  const { client, prefetch } = options;
  if (prefetch && (typeof client.publishedTags !== 'function' || typeof client.publishedList !== 'function'))
    throw new HubError(
      'config',
      'prefetch needs a client with publishedTags and publishedList: use createServerClient.',
    );
  const prefetcher = prefetch
    ? createPrefetcher(client as Required<typeof client>, typeof prefetch === 'object' ? prefetch : {}, report)
    : undefined;

  const tokens = createTokenSupply({ client, cache, now, report });
  // The same missing key fails every request alike: one log line says it, not one per request.
  const reportUnset = reportOnce(report);

  async function respond(input: PlainInput): Promise<PlainAnswer> {
    const origin = input.header('origin');
    const cors = policy.headers(origin);
    if (input.method === 'OPTIONS' && cors['access-control-allow-origin'])
      return answer(204, null, { ...cors, ...policy.preflight });
    if (input.method !== 'POST') return answer(405, { error: 'Use POST.' }, { ...cors, allow: 'POST' });
    if (policy.refuses(origin)) return answer(403, { error: 'Origin not allowed.' }, cors);

    const clientUserId = await resolveUser(() => options.resolveClientUserId(input.request()), report);
    if (clientUserId === SIGNED_OUT) return answer(401, { error: 'Sign in first.' }, cors);
    if (clientUserId === SESSION_UNREADABLE) return answer(500, { error: 'Could not read the session.' }, cors);

    const body = await readTokenRequest(input, bodyTimeoutMs);
    if (body === TOO_LARGE) return answer(413, { error: 'Body too large.' }, cors);
    // `connection: close` tells toNodeListener to drop the socket the slow body is still arriving on.
    if (body === TOO_SLOW) return answer(408, { error: 'Body too slow.' }, { ...cors, connection: 'close' });
    let token: CachedToken;
    try {
      const dropped = await tokens.forgetRefused(body.previous, clientUserId);
      token = await tokens.tokenFor(clientUserId, dropped);
    } catch (error) {
      const unset = unsetSetting(error);
      if (unset) {
        reportUnset(error);
        // The server's own fault, named so whoever deploys it can fix it; the value itself is never shown.
        return answer(
          500,
          {
            error: `The token route is not configured: set ${unset.variable} (the server client's ${unset.option}). The server log says more.`,
          },
          cors,
        );
      }
      report(error);
      // The browser learns only that the upstream failed, never why: the reason may be about the key.
      if (isHubError(error, 'timeout'))
        return answer(504, { error: 'The points service did not answer in time. Try again.' }, cors);
      return answer(502, { error: 'Could not obtain a token. Try again later.' }, cors);
    }
    // After the token: the prefetch uses it, and its failures (reported) leave the token answer as it is.
    const prefetched = prefetcher && body.load ? await prefetcher(token.accessToken, body.load) : undefined;
    const expiresIn = Math.max(1, Math.floor((token.expiresAt - now()) / 1000));
    return answer(200, { access_token: token.accessToken, expires_in: expiresIn, prefetched }, cors);
  }

  /** A page's lists for its user, as the token answer's prefetch would give them, within its timeoutMs in all. */
  const pageLists: PageListsSource = async (request, load) => {
    if (!prefetcher)
      throw new HubError(
        'config',
        'renderFirstView needs a token handler with prefetch on: createTokenHandler({ ..., prefetch: { cacheMs: 60_000 } }).',
      );
    const clientUserId = await resolveUser(() => options.resolveClientUserId(request), report);
    // Signed out or unreadable: the page gets the bare element, which says so as the token route does.
    if (typeof clientUserId !== 'string') return undefined;
    const lists = (async () => {
      const { accessToken } = await tokens.tokenFor(clientUserId);
      const answers = await prefetcher(accessToken, load);
      return answers && { accessToken, answers };
    })().catch((error: unknown) => {
      (unsetSetting(error) ? reportUnset : report)(error);
      return undefined;
    });
    return within(lists, prefetcher.timeoutMs, () => undefined);
  };

  const handler: TokenHandler = async (request) => {
    const { status, headers, body } = await respond(webInput(request));
    return new Response(body, { status, headers });
  };
  // toNodeListener serves this form on node:http, without a Request and a Response per call (plain.ts);
  // renderFirstView draws a page's first view from the lists this handler's prefetch fetches (page-lists.ts).
  return Object.assign(handler, { [PLAIN_HANDLER]: respond, [PAGE_LISTS]: pageLists });
}
