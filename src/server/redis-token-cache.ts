import { HubError } from '../core/errors.js';
import { ILL_FORMED_ID, isWellFormedId } from './ids.js';
import type { CachedToken, SharedExchange, TokenCache } from './token-cache.js';
import { within } from './within.js';

/**
 * The few commands the cache needs, typed by shape so that node-redis v4 and v5 clients (`createClient()`
 * from the `redis` package) both fit without this package depending on either. Their answers are
 * `unknown` because v4 and v5 type them differently; the cache checks what it reads.
 */
export interface RedisClientLike {
  /** The stored string, or null. */
  get(key: string): Promise<unknown>;
  /** 'OK', or null when NX found the key taken. */
  set(key: string, value: string, options: { PX: number; NX?: true }): Promise<unknown>;
  del(key: string): Promise<unknown>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

export interface RedisTokenCacheOptions {
  /** A connected node-redis client. Give it an `error` listener: node-redis throws on an unheard error. */
  client: RedisClientLike;
  /** Prefix of every key this cache writes. Default `hub-embed:`. */
  prefix?: string;
  /** A Redis command slower than this counts as a failure: the request goes on without the cache. Default 500. */
  commandTimeoutMs?: number;
  /**
   * How long one process may hold a user's exchange lock before it expires by itself (if its holder dies).
   * Keep it above your client's `timeoutMs` (default 10 s), so a slow exchange is not made twice. Default 15000.
   */
  lockMs?: number;
  /** How long the other processes wait for the holder's token before exchanging themselves. Default 5000. */
  waitMs?: number;
  /** How often a waiting process looks for the token. Default 25. */
  pollMs?: number;
}

/** Releases a lock only when it is still ours: after it expired, another process may hold it. */
const RELEASE_OWN_LOCK = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/** Deletes a cached token only while it is the one the browser said was refused. */
const DELETE_IF_TOKEN = `local value = redis.call('GET', KEYS[1])
if not value then return 0 end
local ok, token = pcall(cjson.decode, value)
if ok and type(token) == 'table' and token.accessToken == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

function positiveInteger(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer (ms).`);
  return value;
}

function parseToken(value: unknown): CachedToken | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const token = JSON.parse(value) as Partial<CachedToken> | null;
    if (
      typeof token?.accessToken === 'string' &&
      token.accessToken !== '' &&
      Number.isFinite(token.issuedAt) &&
      Number.isFinite(token.expiresAt)
    ) {
      return {
        accessToken: token.accessToken,
        issuedAt: token.issuedAt!,
        expiresAt: token.expiresAt!,
        ...(token.replacesRefused === true ? { replacesRefused: true } : {}),
      };
    }
  } catch {
    // Not ours, or damaged: a miss.
  }
  return undefined;
}

/**
 * A TokenCache on Redis, shared by every instance of your backend: a user's token is exchanged by one
 * process and reused by all. On a miss one process takes a short lock for that user (`SET NX PX`),
 * exchanges and stores the token; the others poll for it up to `waitMs`, then exchange themselves. The
 * lock expires by itself if its holder dies. When Redis is down or slow, every request still gets a
 * token (the process exchanges on its own), and the failure goes to the token handler's `onError`.
 */
export function createRedisTokenCache(options: RedisTokenCacheOptions): TokenCache {
  const client = options?.client;
  if (typeof client?.get !== 'function' || typeof client.set !== 'function' || typeof client.eval !== 'function')
    throw new TypeError(
      'createRedisTokenCache needs client: a connected node-redis client (createClient().connect()).',
    );
  const prefix = options.prefix ?? 'hub-embed:';
  if (typeof prefix !== 'string') throw new TypeError('prefix must be a string.');
  const commandTimeoutMs = positiveInteger(options.commandTimeoutMs, 500, 'commandTimeoutMs');
  const lockMs = positiveInteger(options.lockMs, 15_000, 'lockMs');
  const waitMs = positiveInteger(options.waitMs, 5_000, 'waitMs');
  const pollMs = positiveInteger(options.pollMs, 25, 'pollMs');

  /** Redis keys are bytes: an id with no UTF-8 spelling would share its key with another id. */
  const keyPart = (clientUserId: string) => {
    if (!isWellFormedId(clientUserId)) throw new HubError('config', ILL_FORMED_ID);
    return clientUserId;
  };
  const tokenKey = (clientUserId: string) => `${prefix}token:${keyPart(clientUserId)}`;
  const lockKey = (clientUserId: string) => `${prefix}lock:${keyPart(clientUserId)}`;

  /** node-redis queues commands while it reconnects; a bound turns an outage into a prompt failure. */
  async function command<T>(name: string, run: () => Promise<T>): Promise<T> {
    return within(run(), commandTimeoutMs, () => {
      throw new Error(`Redis ${name} did not answer within ${commandTimeoutMs} ms.`);
    });
  }

  const get = async (clientUserId: string) =>
    parseToken(await command('GET', () => client.get(tokenKey(clientUserId))));

  async function exchangeOnce(clientUserId: string, work: SharedExchange): Promise<CachedToken> {
    const owner = randomOwner();
    const deadline = performance.now() + waitMs;
    for (;;) {
      let locked: boolean;
      try {
        locked =
          (await command('SET', () => client.set(lockKey(clientUserId), owner, { PX: lockMs, NX: true }))) === 'OK';
      } catch (error) {
        work.onCacheError(error);
        return work.exchange();
      }
      if (locked) return exchangeHoldingLock(clientUserId, owner, work);
      if (performance.now() >= deadline) return work.exchange();
      await sleep(pollMs);
      try {
        const token = await get(clientUserId);
        if (token && work.isUsable(token)) return token;
      } catch (error) {
        work.onCacheError(error);
        return work.exchange();
      }
      // Still no token: the holder is exchanging, or it failed or died and its lock is gone; try again.
    }
  }

  async function exchangeHoldingLock(clientUserId: string, owner: string, work: SharedExchange) {
    try {
      // Between our miss and our lock, the previous holder may have stored a token.
      const stored = await get(clientUserId).catch((error: unknown) => {
        work.onCacheError(error);
        return undefined;
      });
      if (stored && work.isUsable(stored)) return stored;
      return await work.exchange();
    } finally {
      await command('EVAL', () =>
        client.eval(RELEASE_OWN_LOCK, { keys: [lockKey(clientUserId)], arguments: [owner] }),
      ).catch((error: unknown) => work.onCacheError(error)); // An unreleased lock expires by itself after lockMs.
    }
  }

  return {
    get,
    async set(clientUserId, token, ttlMs) {
      const px = Math.ceil(ttlMs);
      if (!(px > 0)) return;
      await command('SET', () => client.set(tokenKey(clientUserId), JSON.stringify(token), { PX: px }));
    },
    async delete(clientUserId) {
      await command('DEL', () => client.del(tokenKey(clientUserId)));
    },
    async deleteIfToken(clientUserId, accessToken) {
      await command('EVAL', () =>
        client.eval(DELETE_IF_TOKEN, { keys: [tokenKey(clientUserId)], arguments: [accessToken] }),
      );
    },
    exchangeOnce,
  };
}

// Web Crypto and a plain timer instead of node:crypto and node:timers/promises: the same module on Bun and Deno.
function randomOwner(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_');
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// hub-embed/server/redis holds the pieces on Redis: this cache and the order store of createRechargeOrders.
export { createRedisOrderStore } from './redis-order-store.js';
export type { RedisOrderStoreOptions } from './redis-order-store.js';
