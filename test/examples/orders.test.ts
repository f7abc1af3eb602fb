/**
 * examples/express/orders.js, its two crash rules in the fast gate (the faults lane checks them under
 * generated faults too): an order is marked "sent" before its recharge goes out, and an order that went
 * out before is looked up in the service's logs (findRecharge) before anything is sent again. Real PGlite,
 * the real simulator, and the toolkit from src/ where the example imports the package.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSimulator, type Simulator } from '../../packages/hub-embed-mock/src/hub.js';
import { createServerClient } from '../../src/server/index.js';
import { openDatabase, type Database } from '../../examples/express/database.js';
import { createOrders } from '../../examples/express/orders.js';
import { processView } from '../faults/process-view.js';

// The example imports the package by name; the gate tests the sources, which dist/ is built from.
vi.mock('hub-embed/server', () => import('../../src/server/index.js'));
vi.mock('hub-embed/core', () => import('../../src/core/index.js'));

const RECHARGE = '/points/users/recharge';

let database: Database;
// PGlite compiles its WebAssembly on open: seconds of CPU, far longer in wall time on a busy machine.
beforeAll(async () => {
  database = await openDatabase({ databaseUrl: '' });
}, 180_000);
afterAll(async () => {
  await database?.close();
});

/** A client of `hub` that counts recharge sends; `onRecharge` may act after the service applied one. */
function clientOf(hub: Simulator, onRecharge?: (applied: Response) => Promise<Response>) {
  let sends = 0;
  const client = createServerClient({
    apiKey: hub.apiKey,
    baseUrl: hub.baseUrl,
    recharge: { settleMs: 0 },
    fetch: async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (!url.endsWith(RECHARGE)) return hub.fetch(input, init);
      sends++;
      const applied = await hub.fetch(input, init);
      return onRecharge ? onRecharge(applied) : applied;
    },
  });
  return { client, sends: () => sends };
}

async function stateOf(orderId: string): Promise<unknown> {
  const { rows } = await database.query('SELECT state FROM orders WHERE order_id = $1', [orderId]);
  return rows[0]?.state;
}

describe('examples/express orders: a crash between "paid" and "credited" credits once', () => {
  it('an order is marked sent before its recharge goes out: a process that dies with it in flight leaves it "sent"', async () => {
    await database.exec('DROP TABLE IF EXISTS orders');
    const hub = createSimulator();
    const view = processView(database);
    // The service applies the recharge; the process dies before the answer is read.
    const dying = clientOf(hub, () => {
      view.crash();
      return Promise.reject(new TypeError('fetch failed'));
    });
    const orders = await createOrders(view.db, dying.client);
    await orders.paid({ orderId: 'crash-1', clientUserId: 'u1', amountCents: 500 });
    await expect(orders.credit('crash-1')).rejects.toThrow();
    expect(await stateOf('crash-1')).toBe('sent');
    // The next process looks it up, finds it, and sends nothing.
    const next = clientOf(hub);
    const restarted = await createOrders(database, next.client);
    expect(await restarted.resume({ afterCrash: true })).toMatchObject({ credited: 1, unknown: 0, 'not-applied': 0 });
    expect([dying.sends(), next.sends()]).toEqual([1, 0]);
    expect(hub.transfers(1, 10).list.filter((t) => t.external_order_id === 'crash-1')).toHaveLength(1);
  });

  it('an order that went out before is looked up (findRecharge) before it is sent again: found, credited, no send', async () => {
    await database.exec('DROP TABLE IF EXISTS orders');
    const hub = createSimulator();
    // Applied, its answer lost, and the logs unreadable then: unknown, left "sent".
    let logsDown = true;
    const lost = createServerClient({
      apiKey: hub.apiKey,
      baseUrl: hub.baseUrl,
      recharge: { settleMs: 0 },
      fetch: async (input, init) => {
        const url = String(input instanceof Request ? input.url : input);
        if (url.includes('/points/users/logs') && logsDown) throw new TypeError('fetch failed');
        const response = await hub.fetch(input, init);
        if (url.endsWith(RECHARGE)) throw new TypeError('fetch failed');
        return response;
      },
    });
    const first = await createOrders(database, lost);
    await first.paid({ orderId: 'sent-1', clientUserId: 'u1', amountCents: 300 });
    expect(await first.credit('sent-1')).toBe('unknown');
    expect(await stateOf('sent-1')).toBe('sent');
    logsDown = false;
    const later = clientOf(hub);
    const orders = await createOrders(database, later.client);
    expect(await orders.credit('sent-1')).toBe('credited');
    expect(later.sends()).toBe(0);
    expect(hub.transfers(1, 10).list.filter((t) => t.external_order_id === 'sent-1')).toHaveLength(1);
    expect(await orders.credited('u1')).toEqual([{ orderId: 'sent-1', amountCents: 300 }]);
  });
});
