/**
 * Every order store of createRechargeOrders keeps the same contract, each against the real thing: the
 * memory store, the Redis store on a real redis-server, and examples/express's Postgres store on PGlite.
 * One owner per order: one claim at a time, a larger fence at each claim, no write or renewal with an old
 * fence or a lapsed claim; and one send of an order however many callers credit it at once.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient } from 'redis';
import { createSimulator } from '../../packages/hub-embed-mock/src/hub.js';
import {
  createMemoryOrderStore,
  createRechargeOrders,
  createServerClient,
  type OrderStore,
} from '../../src/server/index.js';
import { createRedisOrderStore } from '../../src/server/redis-token-cache.js';
import { openDatabase, type Database } from '../../examples/express/database.js';
import { findRedisServer, REDIS_MISSING, redisRequired, startRedisServer, type RedisServer } from './redis-server.js';

vi.mock('hub-embed/server', () => import('../../src/server/index.js'));

const binary = findRedisServer();
if (!binary && redisRequired) throw new Error(`CI requires Redis: ${REDIS_MISSING}`);

let redis: RedisServer | undefined;
let redisClient: ReturnType<typeof createClient> | undefined;
let database: Database;
let postgresStore: (db: Database) => OrderStore;
beforeAll(async () => {
  database = await openDatabase({ databaseUrl: '' });
  const orders = await import('../../examples/express/orders.js');
  postgresStore = orders.postgresOrderStore;
  if (binary) {
    redis = await startRedisServer(binary);
    redisClient = createClient({ url: redis.url });
    redisClient.on('error', () => undefined);
    await redisClient.connect();
  }
}, 180_000);
afterAll(async () => {
  await redisClient?.quit();
  await redis?.stop();
  await database?.close();
});

let run = 0;
const stores: [string, () => Promise<OrderStore>][] = [
  ['memory', async () => createMemoryOrderStore()],
  ['Redis', async () => createRedisOrderStore({ client: redisClient!, prefix: `test-${++run}:` })],
  [
    'Postgres (examples/express)',
    async () => {
      await database.exec('DROP TABLE IF EXISTS orders');
      const { createOrders } = await import('../../examples/express/orders.js');
      await createOrders(database, createServerClient({ apiKey: 'sk-unused', baseUrl: 'https://hub.example.com' }));
      return postgresStore(database);
    },
  ],
];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ORDER = { orderId: 'o-1', clientUserId: 'u1', amountCents: 500 };

describe.each(stores)('order store: %s', (name, make) => {
  const skip = name === 'Redis' && !binary;

  it.skipIf(skip)(
    'a paid order recorded twice is one order; the same id with another user or amount is refused',
    async () => {
      const store = await make();
      await store.add(ORDER);
      await store.add(ORDER);
      await expect(store.add({ ...ORDER, amountCents: 501 })).rejects.toThrow(/another user or amount/);
      await expect(store.add({ ...ORDER, clientUserId: 'u2' })).rejects.toThrow(/another user or amount/);
      expect(await store.open()).toEqual(['o-1']);
      const claim = await store.claim('o-1', 10_000);
      expect(claim).toMatchObject({ order: { ...ORDER, state: 'paid', sentAt: undefined }, fence: 1 });
    },
  );

  it.skipIf(skip)('one claim at a time: of ten at once exactly one wins, the others hear claimed', async () => {
    const store = await make();
    await store.add(ORDER);
    const answers = await Promise.all(Array.from({ length: 10 }, () => store.claim('o-1', 10_000)));
    expect(answers.filter((answer) => typeof answer === 'object')).toHaveLength(1);
    expect(answers.filter((answer) => answer === 'claimed')).toHaveLength(9);
    expect(await store.claim('nope', 10_000)).toBe('missing');
  });

  it.skipIf(skip)(
    'a lapsed claim: the next claim gets a larger fence, and the old fence can renew or write nothing',
    async () => {
      const store = await make();
      await store.add(ORDER);
      const first = await store.claim('o-1', 60);
      if (typeof first !== 'object') throw new Error(`claimed: ${first}`);
      expect(await store.renew('o-1', first.fence, 60)).toBe(true);
      await sleep(150);
      expect(await store.renew('o-1', first.fence, 60)).toBe(false);
      const second = await store.claim('o-1', 10_000);
      if (typeof second !== 'object') throw new Error(`claimed: ${second}`);
      expect(second.fence).toBeGreaterThan(first.fence);
      expect(await store.write('o-1', first.fence, { state: 'pending', sent: true })).toBe(false);
      expect(await store.write('o-1', second.fence, { state: 'pending', sent: true, release: true })).toBe(true);
      const third = await store.claim('o-1', 10_000);
      if (typeof third !== 'object') throw new Error(`claimed: ${third}`);
      expect(third.order.state).toBe('pending');
      expect(third.order.sentAt).toBeGreaterThan(0);
      expect(third.now - third.order.sentAt!).toBeGreaterThanOrEqual(0);
    },
  );

  it.skipIf(skip)('a credited order is claimed by no one and is not open', async () => {
    const store = await make();
    await store.add(ORDER);
    await store.add({ ...ORDER, orderId: 'o-2' });
    const claim = await store.claim('o-1', 10_000);
    if (typeof claim !== 'object') throw new Error(`claimed: ${claim}`);
    expect(await store.write('o-1', claim.fence, { state: 'credited', release: true })).toBe(true);
    expect(await store.claim('o-1', 10_000)).toBe('credited');
    expect(await store.open()).toEqual(['o-2']);
  });

  it.skipIf(skip)('createRechargeOrders over it: five callers of one order at once, one send, one credit', async () => {
    const hub = createSimulator();
    let sends = 0;
    const client = createServerClient({
      apiKey: hub.apiKey,
      baseUrl: hub.baseUrl,
      recharge: { settleMs: 0 },
      fetch: async (input, init) => {
        if (String(input instanceof Request ? input.url : input).endsWith('/points/users/recharge')) {
          sends++;
          await sleep(100);
        }
        return hub.fetch(input, init);
      },
    });
    const orders = createRechargeOrders({ client, store: await make(), holdMs: 5000 });
    await orders.paid(ORDER);
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => orders.credit('o-1')));
    expect(outcomes.sort()).toEqual(['credited', 'in-progress', 'in-progress', 'in-progress', 'in-progress']);
    expect(await orders.credit('o-1')).toBe('already-credited');
    expect(sends).toBe(1);
    expect(hub.userLogs('u1', 1, 10).list.map((record) => record.change_cents)).toEqual([500]);
  });
});
