/**
 * Paid orders credited once, by one owner at a time (issue 79, items 1 and 2): createRechargeOrders with
 * the memory order store, against the real simulator. A claim with a fencing token, renewed while a credit
 * runs, however long the service takes; the fence checked right before the send; a pending order resolved
 * from the logs by reconcile() with the store's clock, and sent again only when the settle window passed
 * with no record.
 */
import { describe, expect, it } from 'vitest';
import { createSimulator, type Simulator } from '../../packages/hub-embed-mock/src/hub.js';
import type { RechargeFault, ServiceProfile } from '../../packages/hub-embed-mock/src/types.js';
import { createServerClient } from '../../src/server/server-client.js';
import { createMemoryOrderStore, type OrderStore } from '../../src/server/order-store.js';
import { createRechargeOrders } from '../../src/server/recharge-orders.js';
import { DEFAULT_SETTLE_WINDOW_MS } from '../../src/server/recharge-decision.js';
import { HubError, isHubError } from '../../src/core/errors.js';
import { rejectionOf } from '../rejection.js';

const RECHARGE = '/api/v1/hub/points/users/recharge';
const LOGS = '/api/v1/hub/points/users/logs';
const WINDOW = DEFAULT_SETTLE_WINDOW_MS;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pathOf = (input: RequestInfo | URL) => new URL(String(input instanceof Request ? input.url : input)).pathname;

interface Setup {
  profile?: ServiceProfile;
  faults?: RechargeFault[];
  /** Wait before the service sees each recharge / each logs read (a slow service). */
  rechargeDelayMs?: number;
  logsDelayMs?: number;
  holdMs?: number;
  /** Wraps the memory store (a store that misbehaves). */
  store?: (store: OrderStore) => OrderStore;
  /**
   * The store's clock runs with real time (for the tests of renewal: a claim lapses unless renewed);
   * otherwise it stands still but for advance(), so no claim lapses by the machine's load.
   */
  realClock?: boolean;
}

/** A simulator, a client in front of it that counts the recharges sent, a store with a movable clock, and the orders. */
function setup(options: Setup = {}) {
  const faults = [...(options.faults ?? [])];
  const hub = createSimulator({ profile: options.profile ?? {}, rechargeFaults: { pick: () => faults.shift() } });
  let sends = 0;
  const fetchImpl: typeof fetch = async (input, init) => {
    const path = pathOf(input);
    if (path === RECHARGE) {
      sends++;
      if (options.rechargeDelayMs) await sleep(options.rechargeDelayMs);
    }
    if (path === LOGS && options.logsDelayMs) await sleep(options.logsDelayMs);
    return hub.fetch(input, init);
  };
  const client = createServerClient({
    apiKey: hub.apiKey,
    baseUrl: hub.baseUrl,
    fetch: fetchImpl,
    recharge: { settleMs: 0 },
  });
  let offset = 0;
  const start = Date.now();
  const memory = createMemoryOrderStore({ now: () => (options.realClock ? Date.now() : start) + offset });
  const store = options.store ? options.store(memory) : memory;
  const orders = createRechargeOrders({
    client,
    store,
    ...(options.holdMs === undefined ? {} : { holdMs: options.holdMs }),
  });
  return {
    hub,
    client,
    store,
    orders,
    sends: () => sends,
    /** Moves the store's clock (the one every claim and sentAt is read by). */
    advance: (ms: number) => void (offset += ms),
  };
}

/** How many times the service credited this order. */
function creditsOf(hub: Simulator, orderId: string): number {
  return hub.transfers(1, 100).list.filter((transfer) => transfer.external_order_id === orderId).length;
}

const order = (orderId: string, amountCents = 500) => ({ orderId, clientUserId: 'u1', amountCents });

const NONE = { credited: 0, 'already-credited': 0, 'in-progress': 0, pending: 0, failed: 0 };

describe('createRechargeOrders: a paid order credited once', () => {
  it('credits a paid order once: credited, then already-credited; nothing open for reconcile', async () => {
    const run = setup();
    await run.orders.paid(order('o-1'));
    expect(await run.orders.credit('o-1')).toBe('credited');
    expect(await run.orders.credit('o-1')).toBe('already-credited');
    expect(await run.orders.reconcile()).toEqual(NONE);
    expect([run.sends(), creditsOf(run.hub, 'o-1')]).toEqual([1, 1]);
    expect(run.hub.userLogs('u1', 1, 1).list[0]?.reason).toMatch(/^hub[0-9a-f]{32} Top-up$/);
  });

  it('the same order paid again changes nothing; with another amount or user it is a config error', async () => {
    const run = setup();
    await run.orders.paid(order('o-1'));
    await run.orders.paid(order('o-1'));
    for (const other of [order('o-1', 501), { ...order('o-1'), clientUserId: 'u2' }])
      expect(isHubError(await rejectionOf(run.orders.paid(other)), 'config')).toBe(true);
    expect(await run.orders.credit('o-1')).toBe('credited');
    expect(await run.store.open()).toEqual([]);
    expect(isHubError(await rejectionOf(run.orders.credit('o-unpaid')), 'config')).toBe(true);
    expect(run.sends()).toBe(1);
  });

  it('holdMs under 30 is a config error', () => {
    const run = setup();
    for (const holdMs of [0, 29, 1.5, Number.NaN])
      expect(() => createRechargeOrders({ client: run.client, store: run.store, holdMs })).toThrow(/holdMs/);
  });

  it('the same payment callback twice at once: one credit, one send', async () => {
    const run = setup({ rechargeDelayMs: 50 });
    const callback = async () => {
      await run.orders.paid(order('o-twice'));
      return run.orders.credit('o-twice');
    };
    const outcomes = await Promise.all([callback(), callback()]);
    expect(outcomes.sort()).toEqual(['credited', 'in-progress']);
    expect([run.sends(), creditsOf(run.hub, 'o-twice')]).toEqual([1, 1]);
  });

  it('a second credit() while a slow recharge runs far past the claim gets in-progress: the claim is renewed, one send', async () => {
    const run = setup({ rechargeDelayMs: 1500, holdMs: 450, realClock: true });
    await run.orders.paid(order('o-slow'));
    const first = run.orders.credit('o-slow');
    await sleep(700);
    expect(await run.orders.credit('o-slow')).toBe('in-progress');
    await sleep(400);
    expect(await run.orders.reconcile()).toEqual({ ...NONE, 'in-progress': 1 });
    expect(await first).toBe('credited');
    expect([run.sends(), creditsOf(run.hub, 'o-slow')]).toEqual([1, 1]);
  });

  it('a second credit() while the first reads log pages slower than the claim gets in-progress: one send', async () => {
    // Lost before the service: the first credit reads every page (two, each 1.5 s) to find it absent.
    const run = setup({ faults: [{ kind: 'drop-before' }], logsDelayMs: 1500, holdMs: 450, realClock: true });
    for (let n = 0; n < 3; n++) run.hub.transfer({ clientUserId: 'u1', amountCents: 7, reason: `Earlier ${n}` });
    await run.orders.paid(order('o-pages'));
    const first = run.orders.credit('o-pages');
    for (const wait of [700, 1300]) {
      await sleep(wait);
      expect(await run.orders.credit('o-pages')).toBe('in-progress');
    }
    expect(await first).toBe('pending');
    expect([run.sends(), creditsOf(run.hub, 'o-pages')]).toEqual([1, 0]);
  });
});

describe('createRechargeOrders: the fence is checked right before the send', () => {
  const HOLD = 150;

  /** An order left pending by a send lost before the service, with the store's clock past the window. */
  async function pendingPastWindow(options: Setup) {
    const run = setup({ faults: [{ kind: 'drop-before' }], logsDelayMs: 300, holdMs: HOLD, ...options });
    await run.orders.paid(order('o-fence'));
    expect(await run.orders.credit('o-fence')).toBe('pending');
    run.advance(WINDOW);
    return run;
  }

  it('control: past the window with no record, the pending order is sent again and credited', async () => {
    const run = await pendingPastWindow({});
    expect(await run.orders.credit('o-fence')).toBe('credited');
    expect([run.sends(), creditsOf(run.hub, 'o-fence')]).toEqual([2, 1]);
  });

  it('a holder whose renewals are refused sends nothing; the order stays pending for the next owner', async () => {
    let renewals = true;
    const run = await pendingPastWindow({
      store: (store) => ({ ...store, renew: (...args) => (renewals ? store.renew(...args) : Promise.resolve(false)) }),
    });
    renewals = false;
    expect(await run.orders.credit('o-fence')).toBe('in-progress');
    expect([run.sends(), creditsOf(run.hub, 'o-fence')]).toEqual([1, 0]);
    // Nothing was written by that holder: once its claim lapsed, the next owner finds the order pending.
    renewals = true;
    run.advance(HOLD);
    expect(await run.orders.credit('o-fence')).toBe('credited');
    expect([run.sends(), creditsOf(run.hub, 'o-fence')]).toEqual([2, 1]);
  });

  it('a holder that cannot confirm a renewal sends nothing, even while the store still holds its claim', async () => {
    let confirm = true;
    const run = await pendingPastWindow({
      // The renewal reaches the store and extends the claim; its answer is lost on the way back.
      store: (store) => ({
        ...store,
        renew: async (...args) => {
          const held = await store.renew(...args);
          if (!confirm) throw new Error('store connection reset');
          return held;
        },
      }),
    });
    confirm = false;
    expect(await run.orders.credit('o-fence')).toBe('in-progress');
    expect([run.sends(), creditsOf(run.hub, 'o-fence')]).toEqual([1, 0]);
  });

  it('a holder whose claim lapsed though its renewals said yes is stopped by the store\u2019s fenced write: nothing sent', async () => {
    let renewals = true;
    const run = await pendingPastWindow({
      // A renewal that answers yes and extends nothing: only the write's own fence check is left.
      store: (store) => ({ ...store, renew: (...args) => (renewals ? store.renew(...args) : Promise.resolve(true)) }),
    });
    renewals = false;
    const running = run.orders.credit('o-fence');
    await sleep(50);
    // The claim lapses during the slow log read.
    run.advance(HOLD + 1);
    expect(await running).toBe('in-progress');
    expect([run.sends(), creditsOf(run.hub, 'o-fence')]).toEqual([1, 0]);
  });

  it('two owners of one lapsed order: the new owner sends, the old one sends nothing: one credit', async () => {
    const stalled = new Set<number>();
    let stallNext = false;
    const run = await pendingPastWindow({
      store: (store) => ({
        ...store,
        async claim(orderId, holdMs) {
          const claim = await store.claim(orderId, holdMs);
          if (stallNext && typeof claim === 'object') stalled.add(claim.fence);
          stallNext = false;
          return claim;
        },
        renew: (orderId, fence, holdMs) =>
          stalled.has(fence) ? Promise.resolve(false) : store.renew(orderId, fence, holdMs),
      }),
    });
    stallNext = true;
    const old = run.orders.credit('o-fence');
    await sleep(50);
    // The old owner (a paused process) lost its claim; the new owner claims it while the old one reads the logs.
    run.advance(HOLD + 1);
    const next = run.orders.credit('o-fence');
    expect(await old).toBe('in-progress');
    expect(await next).toBe('credited');
    expect([run.sends(), creditsOf(run.hub, 'o-fence')]).toEqual([2, 1]);
  });
});

describe('createRechargeOrders: a pending order is resolved from the logs by the store\u2019s clock', () => {
  it('lost before the service: pending until the settle window passed, then sent again once', async () => {
    const run = setup({ faults: [{ kind: 'drop-before' }] });
    await run.orders.paid(order('o-lost'));
    expect(await run.orders.credit('o-lost')).toBe('pending');
    expect(await run.orders.reconcile()).toEqual({ ...NONE, pending: 1 });
    run.advance(WINDOW - 1000);
    expect(await run.orders.reconcile()).toEqual({ ...NONE, pending: 1 });
    expect(await run.orders.credit('o-lost')).toBe('pending');
    expect(run.sends()).toBe(1);
    run.advance(1000);
    expect(await run.orders.reconcile()).toEqual({ ...NONE, credited: 1 });
    expect(await run.orders.reconcile()).toEqual(NONE);
    expect([run.sends(), creditsOf(run.hub, 'o-lost')]).toEqual([2, 1]);
  });

  it('applied with its answer lost and its log lagging: pending, then credited by reconcile from the log, never sent again', async () => {
    const run = setup({ profile: { logLagMs: 1000 }, faults: [{ kind: 'drop' }] });
    await run.orders.paid(order('o-lag'));
    expect(await run.orders.credit('o-lag')).toBe('pending');
    await sleep(1200);
    expect(await run.orders.reconcile()).toEqual({ ...NONE, credited: 1 });
    expect(await run.orders.credit('o-lag')).toBe('already-credited');
    expect([run.sends(), creditsOf(run.hub, 'o-lag')]).toEqual([1, 1]);
  });

  it('applied late, after the window by the caller\u2019s clock would have passed: found, never sent again', async () => {
    // The store's clock jumps past the window while the late apply is still on its way; the log read finds it.
    const run = setup({ faults: [{ kind: 'late-apply', ms: 500 }] });
    await run.orders.paid(order('o-late'));
    expect(await run.orders.credit('o-late')).toBe('pending');
    await sleep(700);
    run.advance(WINDOW);
    expect(await run.orders.reconcile()).toEqual({ ...NONE, credited: 1 });
    expect([run.sends(), creditsOf(run.hub, 'o-late')]).toEqual([1, 1]);
  });

  it('an unmarked credit of the amount in the logs keeps it pending for good: never sent again', async () => {
    const run = setup({ faults: [{ kind: 'drop-before' }] });
    run.hub.transfer({ clientUserId: 'u1', amountCents: 500, reason: 'Console credit' });
    await run.orders.paid(order('o-unclear'));
    expect(await run.orders.credit('o-unclear')).toBe('pending');
    run.advance(10 * WINDOW);
    expect(await run.orders.reconcile()).toEqual({ ...NONE, pending: 1 });
    expect([run.sends(), creditsOf(run.hub, 'o-unclear')]).toEqual([1, 0]);
  });

  it('a refusal (402) puts the order back to paid and is thrown; reconcile counts it failed, then credits it once the pool is topped up', async () => {
    const writes: string[] = [];
    const run = setup({
      store: (store) => ({
        ...store,
        write: (orderId, fence, change) => (writes.push(change.state), store.write(orderId, fence, change)),
      }),
    });
    const pool = run.hub.points().pool_cents;
    await run.orders.paid(order('o-402', pool + 1));
    const error = await rejectionOf(run.orders.credit('o-402'));
    expect((error as { status?: number }).status).toBe(402);
    expect(writes).toEqual(['pending', 'paid']);
    expect(await run.orders.reconcile()).toEqual({ ...NONE, failed: 1 });
    expect(writes.slice(2)).toEqual(['pending', 'paid']);
    run.hub.topUp({ yuan: 1 });
    expect(await run.orders.reconcile()).toEqual({ ...NONE, credited: 1 });
    expect([run.sends(), creditsOf(run.hub, 'o-402')]).toEqual([3, 1]);
  });

  it('an error from recharge() that is not a refusal (it may have been applied) is thrown and leaves the order pending, never paid', async () => {
    const run = setup();
    const writes: string[] = [];
    const store: OrderStore = {
      ...run.store,
      write: (orderId, fence, change) => (writes.push(change.state), run.store.write(orderId, fence, change)),
    };
    // A recharge that failed in a way nothing proves: a timeout that is not (yet) a pending error.
    const client = { ...run.client, recharge: () => Promise.reject(new HubError('timeout', 'slow')) };
    const orders = createRechargeOrders({ client, store });
    await orders.paid(order('o-timeout'));
    expect(isHubError(await rejectionOf(orders.credit('o-timeout')), 'timeout')).toBe(true);
    expect(writes).toEqual(['pending', 'pending']);
    // Pending: before the window nothing is sent, whoever asks.
    expect(await run.orders.credit('o-timeout')).toBe('pending');
    expect(run.sends()).toBe(0);
  });

  it('logs that cannot be read keep an order pending for good, never paid and never sent again', async () => {
    const writes: string[] = [];
    const run = setup({
      profile: { logsError: { status: 502 } },
      faults: [{ kind: 'drop' }],
      store: (store) => ({
        ...store,
        write: (orderId, fence, change) => (writes.push(change.state), store.write(orderId, fence, change)),
      }),
    });
    await run.orders.paid(order('o-502'));
    expect(await run.orders.credit('o-502')).toBe('pending');
    run.advance(10 * WINDOW);
    expect(await run.orders.reconcile()).toEqual({ ...NONE, pending: 1 });
    expect(writes).not.toContain('paid');
    expect([run.sends(), creditsOf(run.hub, 'o-502')]).toEqual([1, 1]);
  });
});
