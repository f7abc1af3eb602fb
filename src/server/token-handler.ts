import { HubError, isHubError } from '../core/errors.js';
import { ILL_FORMED_ID, isWellFormedId } from './ids.js';
import { readBodyBytes } from './body.js';
import type { ServiceClient } from './client.js';
import { PLAIN_HANDLER, type PlainAnswer, type PlainInput } from './plain.js';
import { createPrefetcher, parseSelection, type PrefetchOptions, type Selection } from './prefetch.js';
import { isTokenLifetime, MAX_TOKEN_LIFETIME_SECONDS } from './results.js';
import { createMemoryTokenCache, type CachedToken, type TokenCache } from './token-cache.js';

export interface TokenHandlerOptions {
  /** exchangeToken; with `prefetch` also publishedTags and publishedList. */
  client: Pick<ServiceClient, 'exchangeToken'> & Partial<Pick<ServiceClient, 'publishedTags' | 'publishedList'>>;
  /**
   * Your own session lookup: the signed-in end user's id, or null when nobody is signed in (401).
   * Never read the id from the request body or query: whoever sends it would become that user.
   */
  resolveClientUserId: (request: Request) => string | null | undefined | Promise<string | null | undefined>;
  /** When set, only these origins (e.g. "https://app.example.com") may call; others get 403. */
  allowedOrigins?: readonly string[];
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

/** A Request as the handler reads it. */
function webInput(request: Request): PlainInput {
  return {
    method: request.method,
    header: (name) => request.headers.get(name),
    request: () => request,
    // A resolveClientUserId that read the body itself leaves nothing to read.
    body: async (maxBytes) =>
      request.body === null || request.bodyUsed ? new Uint8Array(0) : readBodyBytes(request, maxBytes),
  };
}

/** The body holds the refused token and what the widget loads next, which are small; a bigger one is answered 413. */
export const MAX_TOKEN_REQUEST_BYTES = 8192;
const TOO_LARGE = Symbol('body too large');
const TOO_SLOW = Symbol('body too slow');

/** What the handler reads from the body: both parts optional, anything odd simply absent. */
interface TokenRequest {
  /** The token the browser says the service refused (`previous`, as the browser's TokenContext names it). */
  previous?: string;
  /** What the widget loads next, for the prefetch (`load`, as in the browser's TokenContext). */
  load?: Selection;
}

/**
 * `previous` from a `{reason: 'unauthorized', previous}` body and `load` (tags and limit); anything
 * else (or no body) is ignored. Reading stops at MAX_TOKEN_REQUEST_BYTES, so an endless upload costs 8 KB, not
 * whatever the client sends.
 */
async function readTokenRequest(
  input: PlainInput,
  timeoutMs: number,
): Promise<TokenRequest | typeof TOO_LARGE | typeof TOO_SLOW> {
  let text: string;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<typeof TOO_SLOW>((resolve) => (timer = setTimeout(() => resolve(TOO_SLOW), timeoutMs)));
  try {
    const bytes = await Promise.race([input.body(MAX_TOKEN_REQUEST_BYTES), late]);
    if (bytes === TOO_SLOW) return TOO_SLOW;
    if (bytes === undefined) return TOO_LARGE;
    text = new TextDecoder().decode(bytes);
  } catch {
    return {};
  } finally {
    clearTimeout(timer);
  }
  return parseTokenRequest(text);
}

function parseTokenRequest(text: string): TokenRequest {
  let body: { reason?: unknown; previous?: unknown; load?: unknown } | null;
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return {};
  }
  const previous =
    body?.reason === 'unauthorized' && typeof body.previous === 'string' && body.previous !== ''
      ? body.previous
      : undefined;
  return { previous, load: parseSelection(body?.load) };
}

function normaliseOrigins(origins: readonly string[]): Set<string> {
  // A JavaScript caller may pass anything. Array.isArray(origins) would narrow the typed list to any[].
  const given: unknown = origins;
  if (!Array.isArray(given))
    throw new HubError('config', 'allowedOrigins must be an array of origins, e.g. ["https://app.example.com"].');
  return new Set(
    origins.map((origin) => {
      try {
        const url = new URL(origin);
        if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin !== origin.replace(/\/$/, ''))
          throw new Error();
        return url.origin;
      } catch {
        throw new HubError(
          'config',
          `allowedOrigins entry "${String(origin)}" is not an origin; use scheme://host[:port] without a path.`,
        );
      }
    }),
  );
}

function defaultOnError(error: unknown): void {
  // Client errors are already free of the key; print name and message only, never request details.
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  console.error(`[hub-embed/server] token endpoint failed: ${text}`);
}

/**
 * The browser's token endpoint. It answers `{access_token, expires_in}` for the user your session names,
 * reusing a cached token while more than half its lifetime is left, with one exchange per user in flight.
 */
export function createTokenHandler(options: TokenHandlerOptions): TokenHandler {
  if (typeof options?.client?.exchangeToken !== 'function')
    throw new HubError('config', 'createTokenHandler needs client: createServiceClient({apiKey, baseUrl}).');
  if (typeof options.resolveClientUserId !== 'function') {
    throw new HubError(
      'config',
      'createTokenHandler needs resolveClientUserId(request): your session lookup returning the user id or null.',
    );
  }
  const origins = options.allowedOrigins === undefined ? undefined : normaliseOrigins(options.allowedOrigins);
  const now = options.now ?? Date.now;
  const cache = options.cache ?? createMemoryTokenCache({ now });
  const onError = options.onError ?? defaultOnError;
  const inFlight = new Map<string, Promise<CachedToken>>();

  const report = aggregateReports(onError, now);
  const bodyTimeoutMs = options.bodyTimeoutMs ?? 10_000;
  if (!Number.isSafeInteger(bodyTimeoutMs) || bodyTimeoutMs < 1)
    throw new HubError('config', 'bodyTimeoutMs must be a whole number of milliseconds above 0.');

  const { client, prefetch } = options;
  if (prefetch && (typeof client.publishedTags !== 'function' || typeof client.publishedList !== 'function'))
    throw new HubError(
      'config',
      'prefetch needs a client with publishedTags and publishedList: use createServiceClient.',
    );
  const prefetcher = prefetch
    ? createPrefetcher(client as Required<typeof client>, typeof prefetch === 'object' ? prefetch : {}, report)
    : undefined;

  async function fresh(clientUserId: string): Promise<CachedToken> {
    let cached: CachedToken | undefined;
    try {
      cached = await cache.get(clientUserId);
    } catch (error) {
      report(error); // A cache outage costs an exchange, not the answer.
    }
    if (cached && isReusable(cached, now())) return cached;
    const exchange = () => exchangeAndStore(clientUserId);
    if (!cache.exchangeOnce) return exchange();
    // A shared cache: one process exchanges for this user, the others wait for the token it stores.
    return cache.exchangeOnce(clientUserId, {
      exchange,
      isUsable: (token) => isReusable(token, now()),
      onCacheError: report,
    });
  }

  async function exchangeAndStore(clientUserId: string): Promise<CachedToken> {
    const token = await options.client.exchangeToken(clientUserId);
    // A client of your own may skip createServiceClient's check; an unbounded lifetime would reach the browser.
    if (!isTokenLifetime(token?.expiresIn))
      throw new HubError(
        'invalid-response',
        `exchangeToken gave an expiresIn that is not a number of seconds above 0 and at most ${MAX_TOKEN_LIFETIME_SECONDS}.`,
      );
    const issuedAt = now();
    const entry = { accessToken: token.accessToken, issuedAt, expiresAt: issuedAt + token.expiresIn * 1000 };
    try {
      await cache.set(clientUserId, entry, (entry.expiresAt - issuedAt) / 2);
    } catch (error) {
      report(error);
    }
    return entry;
  }

  /**
   * The browser says the service refused `previous` (an early revocation the cache cannot know about).
   * Drop the cached token only when it is exactly that one, so a page can force at most one fresh
   * exchange per token it really holds, never a stream of them.
   */
  async function forgetRefused(previous: string | undefined, clientUserId: string): Promise<void> {
    if (previous === undefined || inFlight.has(clientUserId)) return;
    try {
      if (cache.deleteIfToken) {
        await cache.deleteIfToken(clientUserId, previous);
        return;
      }
      const cached = await cache.get(clientUserId);
      if (cached?.accessToken === previous) await cache.delete(clientUserId);
    } catch (error) {
      report(error);
    }
  }

  function tokenFor(clientUserId: string): Promise<CachedToken> {
    const pending = inFlight.get(clientUserId);
    if (pending) return pending;
    const started = fresh(clientUserId).finally(() => inFlight.delete(clientUserId));
    inFlight.set(clientUserId, started);
    return started;
  }

  async function respond(input: PlainInput): Promise<PlainAnswer> {
    const origin = input.header('origin');
    const cors: Record<string, string> = {};
    if (origins) {
      cors.vary = 'Origin';
      if (origin !== null && origins.has(origin)) {
        cors['access-control-allow-origin'] = origin;
        cors['access-control-allow-credentials'] = 'true';
      }
    }
    if (input.method === 'OPTIONS' && cors['access-control-allow-origin']) {
      return answer(204, null, {
        ...cors,
        'access-control-allow-methods': 'POST',
        'access-control-allow-headers': 'content-type',
        'access-control-max-age': '600',
      });
    }
    if (input.method !== 'POST') return answer(405, { error: 'Use POST.' }, { ...cors, allow: 'POST' });
    // Browsers always send Origin on POST, so a missing one is refused too once origins are configured.
    if (origins && !cors['access-control-allow-origin']) return answer(403, { error: 'Origin not allowed.' }, cors);

    let clientUserId: string | null | undefined;
    try {
      clientUserId = await options.resolveClientUserId(input.request());
    } catch (error) {
      report(error);
      return answer(500, { error: 'Could not read the session.' }, cors);
    }
    if (
      clientUserId === null ||
      clientUserId === undefined ||
      (typeof clientUserId === 'string' && clientUserId.trim() === '')
    ) {
      return answer(401, { error: 'Sign in first.' }, cors);
    }
    if (typeof clientUserId !== 'string') {
      report(new HubError('config', 'resolveClientUserId must return a string or null.'));
      return answer(500, { error: 'Could not read the session.' }, cors);
    }
    // Before any cache sees it: as a key it would collide with another user's.
    if (!isWellFormedId(clientUserId)) {
      report(new HubError('config', ILL_FORMED_ID));
      return answer(500, { error: 'Could not read the session.' }, cors);
    }

    const body = await readTokenRequest(input, bodyTimeoutMs);
    if (body === TOO_LARGE) return answer(413, { error: 'Body too large.' }, cors);
    // `connection: close` tells toNodeListener to drop the socket the slow body is still arriving on.
    if (body === TOO_SLOW) return answer(408, { error: 'Body too slow.' }, { ...cors, connection: 'close' });
    let token: CachedToken;
    try {
      await forgetRefused(body.previous, clientUserId);
      token = await tokenFor(clientUserId);
    } catch (error) {
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

  const handler: TokenHandler = async (request) => {
    const { status, headers, body } = await respond(webInput(request));
    return new Response(body, { status, headers });
  };
  // toNodeListener serves this form on node:http, without a Request and a Response per call (plain.ts).
  return Object.assign(handler, { [PLAIN_HANDLER]: respond });
}

/** How long one failure is reported once; repeats within it are counted into the next report. */
const REPORT_WINDOW_MS = 10_000;
const MAX_REPORT_KINDS = 100;

/**
 * onError, called once per distinct failure per window. A Redis outage or a down service fails every
 * request the same way; 3,000 requests made 12,003 reports before. Repeats are counted, and the first
 * report after the window is preceded by how many were held back.
 */
function aggregateReports(onError: (error: unknown) => void, now: () => number): (error: unknown) => void {
  const seen = new Map<string, { until: number; held: number }>();
  const call = (error: unknown) => {
    try {
      onError(error);
    } catch {
      // Logging must not change the answer.
    }
  };
  return (error) => {
    const key = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    const at = now();
    const entry = seen.get(key);
    if (entry && at < entry.until) {
      entry.held++;
      return;
    }
    if (entry?.held) call(new Error(`${entry.held} more like this in ${REPORT_WINDOW_MS / 1000} s: ${key}`));
    if (!entry && seen.size >= MAX_REPORT_KINDS) seen.clear();
    seen.set(key, { until: at + REPORT_WINDOW_MS, held: 0 });
    call(error);
  };
}

/** How far ahead of this process's clock another instance's `issuedAt` may be (clocks drift). */
const CLOCK_SKEW_MS = 60_000;

/**
 * Whether a cached token may be handed out: checked like a fresh exchange (a token, a lifetime above 0 and
 * at most 30 days) and issued no later than now, since a shared cache is only as trustworthy as whoever
 * can write to it. More than half its lifetime must be left. Anything else is a miss, never an answer.
 */
function isReusable(token: CachedToken, at: number): boolean {
  const lifetime = token.expiresAt - token.issuedAt;
  return (
    typeof token.accessToken === 'string' &&
    token.accessToken !== '' &&
    Number.isFinite(token.issuedAt) &&
    token.issuedAt <= at + CLOCK_SKEW_MS &&
    isTokenLifetime(lifetime / 1000) &&
    token.expiresAt - at > lifetime / 2
  );
}
