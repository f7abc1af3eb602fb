import { LRUCache } from 'lru-cache';

/** A token as the token handler keeps it. Times are milliseconds since the epoch. */
export interface CachedToken {
  accessToken: string;
  issuedAt: number;
  expiresAt: number;
  /** Exchanged because the browser said the token before it was refused: it is not refused again at once. */
  replacesRefused?: boolean;
}

/**
 * Where the token handler keeps tokens per end user. The in-memory default serves one process; a shared
 * store (Redis, Memcached...) lets several server instances reuse each other's tokens. Every method may be
 * synchronous or return a promise. Values are plain JSON-safe objects, so `JSON.stringify` stores them.
 */
export interface TokenCache {
  get(clientUserId: string): CachedToken | undefined | Promise<CachedToken | undefined>;
  /** ttlMs: how long the entry is worth keeping; a store may drop it any time earlier. */
  set(clientUserId: string, token: CachedToken, ttlMs: number): void | Promise<void>;
  delete(clientUserId: string): void | Promise<void>;
  /**
   * Optional, for a cache shared by several processes: deletes the entry only while it still holds
   * `accessToken`, in one step, so that a refusal of an old token never drops a newer one that another
   * process has just stored. Without it the handler compares and deletes in two steps.
   */
  deleteIfToken?(clientUserId: string, accessToken: string): Promise<void>;
  /**
   * Optional, for a cache shared by several processes: lets at most one process at a time exchange a
   * token for this user while the others wait for the token it stores. See createRedisTokenCache.
   */
  exchangeOnce?(clientUserId: string, work: SharedExchange): Promise<CachedToken>;
}

/** What the token handler hands to `TokenCache.exchangeOnce`. */
export interface SharedExchange {
  /** Exchanges upstream and stores the result in the cache; its failures are the upstream's and propagate. */
  exchange(): Promise<CachedToken>;
  /** Whether a token found in the cache may be handed out now. */
  isUsable(token: CachedToken): boolean;
  /** Reports a failure of the cache itself; the cache then falls back to `exchange()`. */
  onCacheError(error: unknown): void;
}

export interface MemoryTokenCacheOptions {
  /** Most users kept at once; the least recently used go first. Default 10000. */
  max?: number;
  /** The clock TTLs are measured by, in milliseconds; replaceable for tests. Default: performance.now. */
  now?: () => number;
}

/** The default cache: a bounded LRU, so a flood of distinct users cannot grow memory without limit. */
export function createMemoryTokenCache(options: MemoryTokenCacheOptions = {}): TokenCache {
  const max = options.max ?? 10_000;
  if (!Number.isSafeInteger(max) || max < 1) throw new RangeError('max must be a positive integer.');
  const lru = new LRUCache<string, CachedToken>({
    max,
    ...(options.now ? { perf: { now: options.now }, ttlResolution: 0 } : {}),
  });
  return {
    get: (clientUserId) => lru.get(clientUserId),
    set: (clientUserId, token, ttlMs) => {
      if (ttlMs > 0) lru.set(clientUserId, token, { ttl: Math.ceil(ttlMs) });
    },
    delete: (clientUserId) => {
      lru.delete(clientUserId);
    },
  };
}
