// The Redis token cache against a real redis-server and the simulator: one exchange per user across
// handlers and processes, the unauthorized rule across instances, and Redis outages that cost no request.
import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'redis';
import { startSimulator, type RunningSimulator } from '../../packages/hub-embed-mock/src/index.js';
import { createServerClient, createTokenHandler, type TokenHandler } from '../../src/server/index.js';
import { createRedisTokenCache, type RedisTokenCacheOptions } from '../../src/server/redis-token-cache.js';
import { findRedisServer, REDIS_MISSING, redisRequired, startRedisServer, type RedisServer } from './redis-server.js';
import { startTokenInstance } from './token-instance-process.js';

const binary = findRedisServer();
if (!binary) {
  if (redisRequired) throw new Error(`CI requires Redis: ${REDIS_MISSING}`);
  console.warn(`\n!!! SKIPPING the Redis token-cache tests: ${REDIS_MISSING}\n`);
}

type Redis = ReturnType<typeof createClient>;

let redis: RedisServer;
let sim: RunningSimulator;
const clients: Redis[] = [];

async function connect(): Promise<Redis> {
  const client = createClient({ url: redis.url, socket: { reconnectStrategy: () => 50 } });
  client.on('error', () => undefined);
  await client.connect();
  clients.push(client);
  return client;
}

/** Upstream token exchanges the simulator has answered so far, per user. */
function exchanges(user?: string): number {
  return sim.hub.requestLog.filter(
    (entry) => entry.path.endsWith('/apikeys/token') && entry.status === 200 && (!user || entry.clientUserId === user),
  ).length;
}

/** One backend instance: its own handler (own in-flight map), sharing Redis with the others. */
async function instance(options: Partial<RedisTokenCacheOptions> = {}, errors: unknown[] = []): Promise<TokenHandler> {
  const client = options.client ?? (await connect());
  return createTokenHandler({
    client: createServerClient({ apiKey: sim.apiKey, baseUrl: sim.baseUrl }),
    // Generous: these tests are about the lock and the cache, not the timeout (its own test sets 100 ms). At
    // 200 ms, a CI run with faults beside it timed out SET NX on three instances, which then each exchanged.
    cache: createRedisTokenCache({ commandTimeoutMs: 2_000, ...options, client }),
    resolveClientUserId: (request) => request.headers.get('x-test-user'),
    onError: (error) => errors.push(error),
  });
}

async function ask(handler: TokenHandler, user: string, body?: unknown) {
  const response = await handler(
    new Request('http://app.test/api/hub-token', {
      method: 'POST',
      headers: { 'x-test-user': user, 'content-type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
    }),
  );
  return { status: response.status, body: (await response.json()) as { access_token: string; expires_in: number } };
}

describe.skipIf(!binary)('createRedisTokenCache (real redis-server)', () => {
  beforeAll(async () => {
    redis = await startRedisServer(binary!);
    sim = await startSimulator({ host: '127.0.0.1', apiPort: 0, formPort: 0 });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.disconnect().catch(() => undefined)));
    if (redis) {
      await redis.kill();
      await redis.restart();
    }
  });
  afterAll(async () => {
    await sim?.close();
    await redis?.stop();
  });

  it('a token stored by one instance is reused by another: one exchange per user', async () => {
    const [a, b] = [await instance(), await instance()];
    const first = await ask(a, 'shared-1');
    const second = await ask(b, 'shared-1');
    expect(first.status).toBe(200);
    expect(second.body.access_token).toBe(first.body.access_token);
    expect(exchanges('shared-1')).toBe(1);
  });

  it('concurrent misses on several instances make exactly one exchange (lock with SET NX PX)', async () => {
    const handlers = await Promise.all([instance(), instance(), instance(), instance()]);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => ask(handlers[i % handlers.length]!, 'stampede')),
    );
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(new Set(answers.map((answer) => answer.body.access_token)).size).toBe(1);
    expect(exchanges('stampede')).toBe(1);
  });

  it('a lock whose holder died expires by itself, and the next instance exchanges', async () => {
    const client = await connect();
    // A holder that took the lock and died without releasing it.
    await client.set('hub-embed:lock:orphan', 'dead-holder', { PX: 300 });
    const handler = await instance({ client, waitMs: 5_000, pollMs: 20 });
    const answer = await ask(handler, 'orphan');
    expect(answer.status).toBe(200);
    expect(exchanges('orphan')).toBe(1);
    expect(await client.get('hub-embed:lock:orphan')).toBeNull();
  });

  it('a waiter gives up after waitMs and exchanges itself, never failing the request', async () => {
    const client = await connect();
    await client.set('hub-embed:lock:stuck', 'slow-holder', { PX: 60_000 });
    const answer = await ask(await instance({ client, waitMs: 150, pollMs: 20 }), 'stuck');
    expect(answer.status).toBe(200);
    expect(exchanges('stuck')).toBe(1);
    // The other holder's lock is not ours to release.
    expect(await client.get('hub-embed:lock:stuck')).toBe('slow-holder');
  });

  it("a holder whose lock expired mid-exchange and was taken by another process releases nothing: the other's lock stays (compare-and-delete, not DEL)", async () => {
    const client = await connect();
    // A lock long enough that the exchange's first look finds it even on a busy machine (a much shorter one
    // expired before the exchange began in a CI run with lanes side by side), short enough to wait out.
    const cache = createRedisTokenCache({ client, commandTimeoutMs: 1_000, lockMs: 500 });
    const lock = 'hub-embed:lock:overrun';
    const token = { accessToken: 'slow-one', issuedAt: 0, expiresAt: Number.MAX_SAFE_INTEGER };
    const got = await cache.exchangeOnce!('overrun', {
      // The exchange outlives lockMs: the lock expires, and another process takes it before we finish.
      async exchange() {
        expect(await client.get(lock)).not.toBeNull();
        while ((await client.get(lock)) !== null) await sleep(10);
        expect(await client.set(lock, 'next-holder', { PX: 60_000, NX: true })).toBe('OK');
        return token;
      },
      isUsable: () => true,
      onCacheError: (error) => {
        throw error;
      },
    });
    expect(got).toBe(token);
    expect(await client.get(lock)).toBe('next-holder');
  });

  it('unauthorized across instances: only the exact refused token is dropped, at most one forced exchange per token', async () => {
    const [a, b] = [await instance(), await instance()];
    const old = (await ask(a, 'revoked')).body.access_token;
    const renewed = (await ask(b, 'revoked', { reason: 'unauthorized', previous: old })).body.access_token;
    expect(renewed).not.toBe(old);
    // The same refusal replayed on the other instance drops nothing: the newer token stays.
    const replay = (await ask(a, 'revoked', { reason: 'unauthorized', previous: old })).body.access_token;
    expect(replay).toBe(renewed);
    expect(exchanges('revoked')).toBe(2);
  });

  it('a stream cannot happen across instances: 200 refusals of the token just received, alternating instances, make at most 2 exchanges', async () => {
    // The hold on a replacement travels with it through Redis, so no instance is a way around it.
    const [a, b] = [await instance(), await instance()];
    let token = (await ask(a, 'walker')).body.access_token;
    for (let call = 0; call < 200; call++)
      token = (await ask(call % 2 === 0 ? b : a, 'walker', { reason: 'unauthorized', previous: token })).body
        .access_token;
    expect(exchanges('walker')).toBe(2);
  });

  it('a damaged value in Redis is a miss, not an error', async () => {
    const client = await connect();
    await client.set('hub-embed:token:damaged', '{"accessToken":', { PX: 60_000 });
    const errors: unknown[] = [];
    const answer = await ask(await instance({ client }, errors), 'damaged');
    expect(answer.status).toBe(200);
    expect(errors).toEqual([]);
  });

  // Issue 30, item 8: a value someone planted in Redis is checked like a fresh exchange before it is used.
  const now = Date.now();
  const planted: Array<[string, Record<string, unknown>]> = [
    [
      'a lifetime of 1e15 ms (expires_in 999999999999)',
      { accessToken: 'planted', issuedAt: now, expiresAt: now + 1e15 },
    ],
    [
      'a lifetime just over 30 days',
      { accessToken: 'planted', issuedAt: now, expiresAt: now + 30 * 86_400_000 + 2_000 },
    ],
    ['issued in the future', { accessToken: 'planted', issuedAt: now + 86_400_000, expiresAt: now + 2 * 86_400_000 }],
    ['an empty token', { accessToken: '', issuedAt: now, expiresAt: now + 3_600_000 }],
    ['a token that is not a string', { accessToken: { toString: 'x' }, issuedAt: now, expiresAt: now + 3_600_000 }],
  ];
  for (const [what, value] of planted) {
    it(`a cached entry with ${what} is a miss: the user gets a fresh token from the service`, async () => {
      const client = await connect();
      const user = `planted-${planted.findIndex(([w]) => w === what)}`;
      await client.set(`hub-embed:token:${user}`, JSON.stringify(value), { PX: 60_000 });
      const before = exchanges(user);
      const answer = await ask(await instance({ client }), user);
      expect(answer.status).toBe(200);
      expect(answer.body.access_token).not.toBe('planted');
      expect(answer.body.expires_in).toBeLessThanOrEqual(30 * 86_400);
      expect(exchanges(user)).toBe(before + 1);
    });
  }

  it('ids that are not well-formed UTF-16 never share a key: "alice\\uD800" is refused, "alice\\uFFFD" gets its own token (issue 30, item 2)', async () => {
    const errors: unknown[] = [];
    // Headers carry Latin-1 only: the session lookup maps a name to the id, as a real one reads a store.
    const ids: Record<string, string> = { replaced: 'alice\uFFFD', lone: 'alice\uD800' };
    const handler = createTokenHandler({
      client: createServerClient({ apiKey: sim.apiKey, baseUrl: sim.baseUrl }),
      cache: createRedisTokenCache({ client: await connect() }),
      resolveClientUserId: (request) => ids[request.headers.get('x-test-user')!],
      onError: (error) => errors.push(error),
    });
    const replaced = await ask(handler, 'replaced');
    expect(replaced.status).toBe(200);
    const lone = await ask(handler, 'lone');
    expect(lone.status).toBe(500);
    expect(lone.body).not.toHaveProperty('access_token');
    expect(String(errors[0])).toMatch(/well-formed UTF-16/);
    const cache = createRedisTokenCache({ client: await connect() });
    await expect(cache.get('alice\uDC00')).rejects.toMatchObject({ kind: 'config' });
  });

  it('Redis down: requests still get tokens (a local exchange), the failure goes to onError, never a 5xx', async () => {
    const errors: unknown[] = [];
    const handler = await instance({}, errors);
    await redis.kill();
    const answers = await Promise.all([ask(handler, 'down-1'), ask(handler, 'down-2'), ask(handler, 'down-1')]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((error) => error instanceof Error)).toBe(true);
  });

  it('Redis hung (SIGSTOP): commands time out and requests still get tokens', async () => {
    const errors: unknown[] = [];
    const handler = await instance({ commandTimeoutMs: 100 }, errors);
    const pid = await (await connect()).info('server').then((info) => Number(/process_id:(\d+)/.exec(info)![1]));
    process.kill(pid, 'SIGSTOP');
    try {
      const answer = await ask(handler, 'hung');
      expect(answer.status).toBe(200);
      expect(errors.some((error) => /did not answer within 100 ms/.test(String(error)))).toBe(true);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
  });

  it('when Redis comes back, sharing resumes', async () => {
    const [a, b] = [await instance(), await instance()];
    await redis.kill();
    expect((await ask(a, 'outage')).status).toBe(200);
    await redis.restart();
    await until(async () => clients.every((client) => client.isReady));
    const first = await ask(a, 'after-outage');
    const second = await ask(b, 'after-outage');
    expect(second.body.access_token).toBe(first.body.access_token);
    expect(exchanges('after-outage')).toBe(1);
  });

  it('refuses a missing client or bad timings at construction', () => {
    expect(() => createRedisTokenCache({} as never)).toThrow(/node-redis client/);
    const client = { get: async () => null, set: async () => 'OK', del: async () => 1, eval: async () => 0 };
    expect(() => createRedisTokenCache({ client, lockMs: 0 })).toThrow(/lockMs/);
    expect(() => createRedisTokenCache({ client, waitMs: 1e308 })).toThrow(/waitMs/);
    expect(() => createRedisTokenCache({ client, commandTimeoutMs: Number.NaN })).toThrow(/commandTimeoutMs/);
  });

  describe('four processes behind one Redis', () => {
    const children: ChildProcess[] = [];
    afterEach(() => {
      for (const child of children.splice(0)) child.kill('SIGTERM');
    });

    function startInstances(count: number, redisUrl: string): Promise<number[]> {
      const env = { REDIS_URL: redisUrl, HUB_BASE_URL: sim.baseUrl, HUB_API_KEY: sim.apiKey };
      return Promise.all(Array.from({ length: count }, () => startTokenInstance(env, children)));
    }

    async function post(port: number, user: string): Promise<number> {
      const response = await fetch(`http://127.0.0.1:${port}/api/hub-token`, {
        method: 'POST',
        headers: { 'x-test-user': user },
      });
      await response.arrayBuffer();
      return response.status;
    }

    /** 1,000 requests for 100 users, spread over the instances, 50 at a time. */
    async function load(ports: number[], prefix: string, onHalf?: () => Promise<void>): Promise<number[]> {
      const jobs = Array.from({ length: 1000 }, (_, i) => ({
        // Round r of user u goes to process (u + r) % n: every user is asked on every process.
        port: ports[(i + Math.floor(i / 100)) % ports.length]!,
        user: `${prefix}-${i % 100}`,
      }));
      const statuses: number[] = [];
      let next = 0;
      let halfDone: Promise<void> | undefined;
      await Promise.all(
        Array.from({ length: 50 }, async () => {
          while (next < jobs.length) {
            const job = jobs[next++]!;
            if (next === 500 && onHalf) halfDone = onHalf();
            statuses.push(await post(job.port, job.user));
          }
        }),
      );
      await halfDone;
      return statuses;
    }

    it('1,000 requests for 100 users on 4 processes make exactly 100 upstream exchanges', async () => {
      const ports = await startInstances(4, redis.url);
      const before = exchanges();
      const statuses = await load(ports, 'multi');
      expect(statuses.filter((status) => status !== 200)).toEqual([]);
      expect(exchanges() - before).toBe(100);
    }, 120_000);

    it('Redis killed mid-run: no failed request; restarted: sharing resumes across processes', async () => {
      const ports = await startInstances(4, redis.url);
      const statuses = await load(ports, 'killed', () => redis.kill());
      expect(statuses).toHaveLength(1000);
      expect(statuses.filter((status) => status !== 200)).toEqual([]);

      await redis.restart();
      await until(async () => {
        const states = await Promise.all(
          ports.map((port) => fetch(`http://127.0.0.1:${port}/status`).then((r) => r.json())),
        );
        return states.every((state: { redisReady: boolean }) => state.redisReady);
      });
      const before = exchanges();
      const again = await load(ports, 'resumed');
      expect(again.filter((status) => status !== 200)).toEqual([]);
      expect(exchanges() - before).toBe(100);
    }, 120_000);
  });
});

async function until(condition: () => Promise<boolean>, what = 'the condition'): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`Timed out waiting for ${what}`);
}
