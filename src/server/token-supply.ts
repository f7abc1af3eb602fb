/** Tokens per end user: a cached one while it is good, else one exchange per user in flight, stored for reuse. */
import { HubError } from '../core/errors.js';
import type { ServerClient } from './server-client.js';
import { isTokenLifetime, MAX_TOKEN_LIFETIME_SECONDS } from './results.js';
import type { CachedToken, TokenCache } from './token-cache.js';

export interface TokenSupplyOptions {
  client: Pick<ServerClient, 'exchangeToken'>;
  cache: TokenCache;
  now: () => number;
  /** Failures of the cache (which cost an exchange, not the answer). */
  report: (error: unknown) => void;
}

/**
 * How long a token exchanged to replace a refused one is kept even when the browser says it was refused
 * too. A real revocation is met once: the widget retries once with the fresh token, within a round trip.
 * A replacement refused within seconds of its issue is a service refusing what it just issued (a clock or
 * key problem a new exchange does not fix) or a page asking on purpose; without the hold each answer's token
 * could be sent back as refused, one upstream exchange a call. With it, refusals make at most one exchange
 * per user per 5 s, and a page whose replacement really was revoked gets a good one 5 s later.
 */
export const REFUSAL_HOLD_MS = 5000;

export interface TokenSupply {
  /**
   * A token for this user that has more than half its lifetime left; exchange failures propagate.
   * `replacesRefused`: the exchange, if one is made, replaces a token forgetRefused dropped.
   */
  tokenFor(clientUserId: string, replacesRefused?: boolean): Promise<CachedToken>;
  /**
   * The browser says the service refused `previous` (an early revocation the cache cannot know about).
   * Drops the cached token only when it is exactly that one (once per token), and not when that token
   * itself replaced a refused one less than REFUSAL_HOLD_MS ago. True when it dropped it.
   */
  forgetRefused(previous: string | undefined, clientUserId: string): Promise<boolean>;
}

export function createTokenSupply({ client, cache, now, report }: TokenSupplyOptions): TokenSupply {
  const inFlight = new Map<string, Promise<CachedToken>>();

  async function fresh(clientUserId: string, replacesRefused: boolean): Promise<CachedToken> {
    let cached: CachedToken | undefined;
    try {
      cached = await cache.get(clientUserId);
    } catch (error) {
      report(error); // A cache outage costs an exchange, not the answer.
    }
    if (cached && isReusable(cached, now())) return cached;
    const exchange = () => exchangeAndStore(clientUserId, replacesRefused);
    if (!cache.exchangeOnce) return exchange();
    // A shared cache: one process exchanges for this user, the others wait for the token it stores.
    return cache.exchangeOnce(clientUserId, {
      exchange,
      isUsable: (token) => isReusable(token, now()),
      onCacheError: report,
    });
  }

  async function exchangeAndStore(clientUserId: string, replacesRefused: boolean): Promise<CachedToken> {
    const token = await client.exchangeToken(clientUserId);
    // A client of your own may skip createServerClient's check; an unbounded lifetime would reach the browser.
    if (!isTokenLifetime(token?.expiresIn))
      throw new HubError(
        'invalid-response',
        `exchangeToken gave an expiresIn that is not a number of seconds above 0 and at most ${MAX_TOKEN_LIFETIME_SECONDS}.`,
      );
    const issuedAt = now();
    const entry: CachedToken = {
      accessToken: token.accessToken,
      issuedAt,
      expiresAt: issuedAt + token.expiresIn * 1000,
      ...(replacesRefused ? { replacesRefused } : {}),
    };
    try {
      await cache.set(clientUserId, entry, (entry.expiresAt - issuedAt) / 2);
    } catch (error) {
      report(error);
    }
    return entry;
  }

  async function forgetRefused(previous: string | undefined, clientUserId: string): Promise<boolean> {
    if (previous === undefined || inFlight.has(clientUserId)) return false;
    try {
      const cached = await cache.get(clientUserId);
      // Only the cached token: an older one, or one never issued, forces nothing.
      if (cached?.accessToken !== previous) return false;
      if (cached.replacesRefused === true && now() - cached.issuedAt < REFUSAL_HOLD_MS) return false;
      // A shared cache deletes only while it still holds that token: another instance may have replaced it.
      if (cache.deleteIfToken) await cache.deleteIfToken(clientUserId, previous);
      else await cache.delete(clientUserId);
      return true;
    } catch (error) {
      report(error);
      return false;
    }
  }

  function tokenFor(clientUserId: string, replacesRefused = false): Promise<CachedToken> {
    const pending = inFlight.get(clientUserId);
    if (pending) return pending;
    const started = fresh(clientUserId, replacesRefused).finally(() => inFlight.delete(clientUserId));
    inFlight.set(clientUserId, started);
    return started;
  }

  return { tokenFor, forgetRefused };
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
