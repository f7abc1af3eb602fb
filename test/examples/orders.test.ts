/**
 * examples/express/orders.js, the Postgres order store of the toolkit's createRechargeOrders, in the fast
 * gate (the faults lane checks it under generated faults too): an order is marked pending before its
 * recharge goes out; a pending order is settled from the service's logs and sent again only once the
 * settle window has passed with no record; one owner per order (a claim renewed while a credit runs, and a
 * fence checked before every send). Real PGlite, the real simulator, the toolkit from src/.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSimulator, type Simulator } from '../../packages/hub-embed-mock/src/hub.js';
import { createServerClient, type ServerClientOptions } from '../../src/server/index.js';
import { openDatabase, type Database } from '../../examples/express/database.js';
import { createOrders } from '../../examples/express/orders.js';
import { processView } from '../faults/process-view.js';

// The example imports the package by name; the gate tests the sources, which dist/ is built from.
vi.mock('hub-embed/server', () => import('../../src/server/index.js'));
vi.mock('hub-embed/core', () => import('../../src/core/index.js'));

const RECHARGE = '/points/users/recharge';
const LOGS = '/points/users/logs';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/**
 * The claims' length in the one-owner tests: renewed every third of it, so only an event loop stalled for two
 * thirds of it (a very busy machine) could let a claim lapse; the slow steps last three of it.
 */
const HOLD_MS = 600;

let database: Database;
// PGlite compiles its WebAssembly on open: seconds of CPU, far longer in wall time on a busy machine.
beforeAll(async () => {
  database = await openDatabase({ databaseUrl: '' });
}, 180_000);
afterAll(async () => {
  await database?.close();
});

interface Hooks {
  /** Runs around each recharge; the default sends it. */
  onRecharge?: (send: () => Promise<Response>) => Promise<Response>;
  /** Runs before each logs read. */
  beforeLogs?: () => Promise<void>;
}

/** A client of `hub` that counts recharge sends. */
function clientOf(hub: Simulator, hooks: Hooks = {}, options: Partial<ServerClientOptions> = {}) {
  let sends = 0;
  const client = createServerClient({
    apiKey: hub.apiKey,
    baseUrl: hub.baseUrl,
    recharge: { settleMs: 0 },
    ...options,
    fetch: async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.includes(LOGS)) await hooks.beforeLogs?.();
      if (!url.endsWith(RECHARGE)) return hub.fetch(input, init);
      sends++;
      const send = () => hub.fetch(input, init);
      return hooks.onRecharge ? hooks.onRecharge(send) : send();
    },
  });
  return { client, sends: () => sends };
}

async function stateOf(orderId: string): Promise<unknown> {
  const { rows } = await database.query('SELECT state FROM orders WHERE order_id = $1', [orderId]);
  return rows[0]?.state;
}

function creditsOf(hub: Simulator, orderId: string): number {
  return hub.transfers(1, 100).list.filter((transfer) => transfer.external_order_id === orderId).length;
}

describe('examples/express orders: a crash or a lost answer credits once', () => {
  it('an order is marked pending before its recharge goes out: a process that dies with it in flight leaves it pending', async () => {
    await database.exec('DROP TABLE IF EXISTS orders');
    const hub = createSimulator();
    const view = processView(database);
    // The service applies the recharge; the process dies before the answer is read.
    const dying = clientOf(hub, {
      onRecharge: async (send) => {
        await send();
        view.crash();
        throw new TypeError('fetch failed');
      },
    });
    const orders = await createOrders(view.db, dying.client);
    await orders.paid({ orderId: 'crash-1', clientUserId: 'u1', amountCents: 500 });
    await expect(orders.credit('crash-1')).rejects.toThrow();
    expect(await stateOf('crash-1')).toBe('pending');
    // The next process finds it in the logs, and sends nothing.
    const next = clientOf(hub);
    const restarted = await createOrders(database, next.client);
    await restarted.releaseClaims();
    expect(await restarted.reconcile()).toMatchObject({ credited: 1, pending: 0, failed: 0 });
    expect([dying.sends(), next.sends()]).toEqual([1, 0]);
    expect(creditsOf(hub, 'crash-1')).toBe(1);
  });

  it('a pending order found in the logs later is credited with no second send', async () => {
    await database.exec('DROP TABLE IF EXISTS orders');
    const hub = createSimulator();
    // Applied, its answer lost, and the logs unreadable then: pending.
    let logsDown = true;
    const lost = clientOf(hub, {
      onRecharge: async (send) => {
        await send();
        throw new TypeError('fetch failed');
      },
      beforeLogs: async () => {
        if (logsDown) throw new TypeError('fetch failed');
      },
    });
    const first = await createOrders(database, lost.client);
    await first.paid({ orderId: 'sent-1', clientUserId: 'u1', amountCents: 300 });
    expect(await first.credit('sent-1')).toBe('pending');
    expect(await stateOf('sent-1')).toBe('pending');
    logsDown = false;
    const later = clientOf(hub);
    const orders = await createOrders(database, later.client);
    expect(await orders.credit('sent-1')).toBe('credited');
    expect(later.sends()).toBe(0);
    expect(creditsOf(hub, 'sent-1')).toBe(1);
    expect(await orders.credited('u1')).toEqual([{ orderId: 'sent-1', amountCents: 300 }]);
  });

  it('a pending order missing from the logs is sent again only after the settle window, and credited once', async () => {
    await database.exec('DROP TABLE IF EXISTS orders');
    const hub = createSimulator();
    // Lost before the service saw it: nothing applied, nothing proves that.
    const lost = clientOf(hub, { onRecharge: () => Promise.reject(new TypeError('fetch failed')) });
    const first = await createOrders(database, lost.client);
    await first.paid({ orderId: 'lost-1', clientUserId: 'u1', amountCents: 120 });
    expect(await first.credit('lost-1')).toBe('pending');
    // Inside the window (the default, 15 minutes): still pending, nothing sent.
    const early = clientOf(hub);
    const inWindow = await createOrders(database, early.client);
    expect(await inWindow.reconcile()).toMatchObject({ pending: 1, credited: 0 });
    expect(early.sends()).toBe(0);
    // Past the window: the absence is proof, and it goes out once.
    const late = clientOf(hub, {}, { recharge: { settleMs: 0, settleWindowMs: 0 } });
    const pastWindow = await createOrders(database, late.client);
    expect(await pastWindow.reconcile()).toMatchObject({ credited: 1, pending: 0 });
    expect(late.sends()).toBe(1);
    expect(creditsOf(hub, 'lost-1')).toBe(1);
  });
});

describe('examples/express orders: one owner per order', () => {
  it('a second credit while the first outlasts its claim (slow recharge) gets in-progress: one send', async () => {
    await database.exec('DROP TABLE IF EXISTS orders');
    const hub = createSimulator();
    // The recharge answers only when the test lets it: after three claims' lengths and the second caller.
    let answer: () => void = () => undefined;
    const slow = clientOf(hub, {
      onRecharge: async (send) => {
        await new Promise<void>((resolve) => (answer = resolve));
        return send();
      },
    });
    // Only the renewals keep the second caller out.
    const orders = await createOrders(database, slow.client, { holdMs: HOLD_MS });
    await orders.paid({ orderId: 'own-1', clientUserId: 'u1', amountCents: 40 });
    const first = orders.credit('own-1');
    await sleep(3 * HOLD_MS);
    expect(await orders.credit('own-1')).toBe('in-progress');
    answer();
    expect(await first).toBe('credited');
    expect(slow.sends()).toBe(1);
    expect(creditsOf(hub, 'own-1')).toBe(1);
  });

  it('a second credit while the first reads log pages slower than the claim gets in-progress: one send', async () => {
    await database.exec('DROP TABLE IF EXISTS orders');
    const hub = createSimulator();
    // A pending order (lost before the service saw it), settled past the window through a slow logs read.
    const lost = clientOf(hub, { onRecharge: () => Promise.reject(new TypeError('fetch failed')) });
    const first = await createOrders(database, lost.client);
    await first.paid({ orderId: 'own-2', clientUserId: 'u1', amountCents: 41 });
    expect(await first.credit('own-2')).toBe('pending');
    // Its logs read answers only when the test lets it: after three claims' lengths and the second caller.
    let answer: () => void = () => undefined;
    const slowLogs = clientOf(
      hub,
      { beforeLogs: () => new Promise<void>((resolve) => (answer = resolve)) },
      { recharge: { settleMs: 0, settleWindowMs: 0 } },
    );
    const orders = await createOrders(database, slowLogs.client, { holdMs: HOLD_MS });
    const settling = orders.credit('own-2');
    await sleep(3 * HOLD_MS);
    const second = clientOf(hub, {}, { recharge: { settleMs: 0, settleWindowMs: 0 } });
    const other = await createOrders(database, second.client, { holdMs: HOLD_MS });
    expect(await other.credit('own-2')).toBe('in-progress');
    answer();
    expect(await settling).toBe('credited');
    expect([slowLogs.sends(), second.sends()]).toEqual([1, 0]);
    expect(creditsOf(hub, 'own-2')).toBe(1);
  });

  it('a holder whose claim was taken over (a stalled process) sends nothing: the fence is checked before the send', async () => {
    await database.exec('DROP TABLE IF EXISTS orders');
    const hub = createSimulator();
    const lost = clientOf(hub, { onRecharge: () => Promise.reject(new TypeError('fetch failed')) });
    const first = await createOrders(database, lost.client);
    await first.paid({ orderId: 'fence-1', clientUserId: 'u1', amountCents: 42 });
    expect(await first.credit('fence-1')).toBe('pending');
    // The stalled holder: its logs read hangs until another process has taken the order over.
    let resume: () => void = () => undefined;
    const stalled = clientOf(
      hub,
      { beforeLogs: () => new Promise<void>((resolve) => (resume = resolve)) },
      { recharge: { settleMs: 0, settleWindowMs: 0 } },
    );
    const stalledOrders = await createOrders(database, stalled.client, { holdMs: 60_000 });
    const stalledCredit = stalledOrders.credit('fence-1');
    await sleep(100);
    // Its claim ends (as after holdMs without renewals); another process claims the order and sends it,
    // and that answer is lost too: the order is pending again, and the logs still show no credit.
    await stalledOrders.releaseClaims();
    const taker = clientOf(
      hub,
      { onRecharge: () => Promise.reject(new TypeError('fetch failed')) },
      { recharge: { settleMs: 0, settleWindowMs: 0 } },
    );
    const takerOrders = await createOrders(database, taker.client);
    expect(await takerOrders.credit('fence-1')).toBe('pending');
    // The stalled holder wakes, finds no credit past the window, and would send: its fence is old.
    resume();
    expect(await stalledCredit).toBe('in-progress');
    expect([stalled.sends(), taker.sends()]).toEqual([0, 1]);
    expect(creditsOf(hub, 'fence-1')).toBe(0);
  });
});
