import { describe, expect, it } from 'vitest';
import { defaultSeed } from '../../packages/hub-embed-mock/src/seed.js';
import { KEYS, P, T0, call, expectErrorEnvelope, newHub, stateOf, tokenFor } from './helpers.js';

const BALANCE = `${P}/points/users/balance`;
const RECHARGE = `${P}/points/users/recharge`;
const LOGS = `${P}/points/users/logs`;

function seedWithPool(poolCents: number) {
  return {
    ...defaultSeed,
    accounts: defaultSeed.accounts.map((a) => (a.role === 'developer' ? { ...a, pool_cents: poolCents } : a)),
  };
}

describe('GET /points/users/balance', () => {
  it('returns client_user_id, user_id and balance_cents', async () => {
    const hub = newHub();
    const res = await call(hub, 'GET', BALANCE, { key: hub.apiKey, query: { client_user_id: 'user-alice' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ client_user_id: 'user-alice', user_id: expect.any(Number), balance_cents: 5000 });
  });

  it('uses X-API-Key, not Bearer: invalid, disabled, expired and member keys are 401', async () => {
    const hub = newHub();
    for (const key of ['nope', KEYS.disabled, KEYS.expired, KEYS.member]) {
      expectErrorEnvelope(await call(hub, 'GET', BALANCE, { key, query: { client_user_id: 'user-alice' } }), 401);
    }
    const token = await tokenFor(hub, 'user-alice');
    expectErrorEnvelope(
      await call(hub, 'GET', BALANCE, { bearer: token, query: { client_user_id: 'user-alice' } }),
      401,
    );
  });

  it('users are scoped per developer: another developer does not see them', async () => {
    const seed = structuredClone(defaultSeed);
    seed.accounts.push({
      id: 3,
      name: 'Other',
      role: 'developer',
      pool_cents: 0,
      keys: [{ key: 'sk-other', status: 'active' }],
      users: [],
    });
    const hub = newHub({ seed });
    expectErrorEnvelope(
      await call(hub, 'GET', BALANCE, { key: 'sk-other', query: { client_user_id: 'user-alice' } }),
      404,
    );
  });

  it('an unknown user is 404; a user becomes known by a token exchange', async () => {
    const hub = newHub();
    expectErrorEnvelope(await call(hub, 'GET', BALANCE, { key: hub.apiKey, query: { client_user_id: 'carol' } }), 404);
    await tokenFor(hub, 'carol');
    expect(
      (await call(hub, 'GET', BALANCE, { key: hub.apiKey, query: { client_user_id: 'carol' } })).body.data
        .balance_cents,
    ).toBe(0);
  });

  it('client_user_id is required (400)', async () => {
    const hub = newHub();
    expectErrorEnvelope(await call(hub, 'GET', BALANCE, { key: hub.apiKey }), 400);
    expectErrorEnvelope(await call(hub, 'GET', BALANCE, { key: hub.apiKey, query: { client_user_id: '' } }), 400);
  });
});

describe('POST /points/users/recharge', () => {
  it('moves points from the developer pool to the user and returns the spec fields', async () => {
    const hub = newHub();
    const pool = hub.ledger().poolCents;
    const res = await call(hub, 'POST', RECHARGE, {
      key: hub.apiKey,
      json: { client_user_id: 'user-bob', amount_cents: 1234, external_order_id: 'order-1', reason: 'Paid in app' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      client_user_id: 'user-bob',
      to_user_id: expect.any(Number),
      amount_cents: 1234,
      external_order_id: 'order-1',
      user_balance_cents: 1234,
      developer_balance_cents: pool - 1234,
    });
    expect(hub.ledger().balanced).toBe(true);
  });

  it('external_order_id is echoed only when sent', async () => {
    const hub = newHub();
    const res = await call(hub, 'POST', RECHARGE, {
      key: hub.apiKey,
      json: { client_user_id: 'user-bob', amount_cents: 1 },
    });
    expect(res.body.data).not.toHaveProperty('external_order_id');
  });

  it('to_user_id equals the user_id the balance endpoint reports', async () => {
    const hub = newHub();
    const r = await call(hub, 'POST', RECHARGE, {
      key: hub.apiKey,
      json: { client_user_id: 'new-user', amount_cents: 5 },
    });
    const b = await call(hub, 'GET', BALANCE, { key: hub.apiKey, query: { client_user_id: 'new-user' } });
    expect(r.body.data.to_user_id).toBe(b.body.data.user_id);
  });

  it('amount_cents must be a positive integer (400) and nothing changes', async () => {
    const hub = newHub();
    const before = stateOf(hub);
    for (const amount_cents of [0, -1, 1.5, '100', null, true, 1e300, Number.MAX_SAFE_INTEGER, 10_000_000_001]) {
      expectErrorEnvelope(
        await call(hub, 'POST', RECHARGE, { key: hub.apiKey, json: { client_user_id: 'user-bob', amount_cents } }),
        400,
      );
    }
    expectErrorEnvelope(
      await call(hub, 'POST', RECHARGE, { key: hub.apiKey, json: { client_user_id: 'user-bob' } }),
      400,
    );
    expect(stateOf(hub)).toBe(before);
  });

  it('rule: an insufficient developer pool is HTTP 402 and nothing changes', async () => {
    const hub = newHub({ seed: seedWithPool(100) });
    const before = stateOf(hub);
    expectErrorEnvelope(
      await call(hub, 'POST', RECHARGE, { key: hub.apiKey, json: { client_user_id: 'user-bob', amount_cents: 101 } }),
      402,
    );
    expect(stateOf(hub)).toBe(before);
    expect(
      (await call(hub, 'POST', RECHARGE, { key: hub.apiKey, json: { client_user_id: 'user-bob', amount_cents: 100 } }))
        .status,
    ).toBe(200);
  });

  it('an empty pool is HTTP 402', async () => {
    const hub = newHub({ seed: seedWithPool(0) });
    expectErrorEnvelope(
      await call(hub, 'POST', RECHARGE, { key: hub.apiKey, json: { client_user_id: 'user-bob', amount_cents: 1 } }),
      402,
    );
  });

  it('a duplicate external_order_id is 409 and nothing changes', async () => {
    const hub = newHub();
    await call(hub, 'POST', RECHARGE, {
      key: hub.apiKey,
      json: { client_user_id: 'user-bob', amount_cents: 10, external_order_id: 'dup' },
    });
    const before = stateOf(hub);
    expectErrorEnvelope(
      await call(hub, 'POST', RECHARGE, {
        key: hub.apiKey,
        json: { client_user_id: 'user-bob', amount_cents: 10, external_order_id: 'dup' },
      }),
      409,
    );
    expect(stateOf(hub)).toBe(before);
  });

  it('rejects wrong-typed optional fields (400) without changing state', async () => {
    const hub = newHub();
    const before = stateOf(hub);
    expectErrorEnvelope(
      await call(hub, 'POST', RECHARGE, {
        key: hub.apiKey,
        json: { client_user_id: 'u', amount_cents: 1, external_order_id: 7 },
      }),
      400,
    );
    expectErrorEnvelope(
      await call(hub, 'POST', RECHARGE, {
        key: hub.apiKey,
        json: { client_user_id: 'u', amount_cents: 1, reason: {} },
      }),
      400,
    );
    expect(stateOf(hub)).toBe(before);
  });

  it('bad keys are 401 and nothing changes', async () => {
    const hub = newHub();
    const before = stateOf(hub);
    for (const key of ['nope', KEYS.disabled, KEYS.expired, KEYS.member]) {
      expectErrorEnvelope(
        await call(hub, 'POST', RECHARGE, { key, json: { client_user_id: 'user-bob', amount_cents: 1 } }),
        401,
      );
    }
    expect(stateOf(hub)).toBe(before);
  });

  it('200 concurrent recharges against a pool covering 150: 150 succeed, 50 get 402, logs and balances agree', async () => {
    const hub = newHub({ seed: seedWithPool(150 * 100) });
    const users = ['c1', 'c2', 'c3', 'c4'];
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        call(hub, 'POST', RECHARGE, {
          key: hub.apiKey,
          json: { client_user_id: users[i % 4], amount_cents: 100, external_order_id: `o-${i}` },
        }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(150);
    expect(results.filter((r) => r.status === 402)).toHaveLength(50);
    for (const r of results)
      if (r.status === 200) expect(r.body.data.developer_balance_cents).toBeGreaterThanOrEqual(0);
    const ledger = hub.ledger();
    expect(ledger.poolCents).toBe(0);
    expect(ledger.balanced).toBe(true);
    let credited = 0;
    for (const u of users) {
      const bal = (await call(hub, 'GET', BALANCE, { key: hub.apiKey, query: { client_user_id: u } })).body.data
        .balance_cents;
      const logs = (await call(hub, 'GET', LOGS, { key: hub.apiKey, query: { client_user_id: u, page_size: '100' } }))
        .body.data;
      const sum = logs.list.reduce((s: number, r: { change_cents: number }) => s + r.change_cents, 0);
      expect(sum).toBe(bal);
      expect(logs.list[0].balance_after).toBe(bal);
      credited += bal;
    }
    expect(credited).toBe(150 * 100);
  });
});

describe('GET /points/users/logs', () => {
  async function hubWithLogs(n: number) {
    const hub = newHub();
    for (let i = 1; i <= n; i++) {
      hub.clock.advance(1000);
      await call(hub, 'POST', RECHARGE, {
        key: hub.apiKey,
        json: { client_user_id: 'user-bob', amount_cents: i, reason: `r${i}` },
      });
    }
    return hub;
  }

  it('records carry every spec field with the spec types', async () => {
    const hub = await hubWithLogs(1);
    const res = await call(hub, 'GET', LOGS, { key: hub.apiKey, query: { client_user_id: 'user-bob' } });
    expect(res.body.data).toMatchObject({
      client_user_id: 'user-bob',
      user_id: expect.any(Number),
      total: 1,
      page: 1,
      page_size: 20,
    });
    expect(res.body.data.list[0]).toEqual({
      id: expect.any(Number),
      source: 'transfer',
      record_type: 'recharge',
      change_cents: 1,
      amount_cents: 1,
      balance_after: 1,
      reason: 'r1',
      status: 'success',
      short_code: null,
      project_id: null,
      created_at: new Date(T0 + 1000).toISOString().replace('.000Z', 'Z'),
    });
    expect(res.body.data.list[0].created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('newest first; page defaults to 1 and page_size to 20', async () => {
    const hub = await hubWithLogs(25);
    const res = await call(hub, 'GET', LOGS, { key: hub.apiKey, query: { client_user_id: 'user-bob' } });
    expect(res.body.data.list).toHaveLength(20);
    expect(res.body.data.list[0].reason).toBe('r25');
    expect(res.body.data.total).toBe(25);
    const page2 = await call(hub, 'GET', LOGS, { key: hub.apiKey, query: { client_user_id: 'user-bob', page: '2' } });
    expect(page2.body.data.list.map((r: { reason: string }) => r.reason)).toEqual(['r5', 'r4', 'r3', 'r2', 'r1']);
  });

  it('page_size is at most 100; 0, 101 and 1000 are 400', async () => {
    const hub = await hubWithLogs(1);
    for (const page_size of ['0', '101', '1000', '-5', 'x', '2.5']) {
      expectErrorEnvelope(
        await call(hub, 'GET', LOGS, { key: hub.apiKey, query: { client_user_id: 'user-bob', page_size } }),
        400,
      );
    }
    expect(
      (await call(hub, 'GET', LOGS, { key: hub.apiKey, query: { client_user_id: 'user-bob', page_size: '100' } }))
        .status,
    ).toBe(200);
  });

  it('page must be an integer >= 1; a page past the end is an empty list with the total', async () => {
    const hub = await hubWithLogs(3);
    expectErrorEnvelope(
      await call(hub, 'GET', LOGS, { key: hub.apiKey, query: { client_user_id: 'user-bob', page: '0' } }),
      400,
    );
    const res = await call(hub, 'GET', LOGS, { key: hub.apiKey, query: { client_user_id: 'user-bob', page: '9' } });
    expect(res.body.data).toMatchObject({ list: [], total: 3, page: 9 });
  });

  it('uses X-API-Key (401 otherwise) and 404 for unknown users', async () => {
    const hub = newHub();
    expectErrorEnvelope(
      await call(hub, 'GET', LOGS, { key: KEYS.expired, query: { client_user_id: 'user-bob' } }),
      401,
    );
    expectErrorEnvelope(await call(hub, 'GET', LOGS, { key: hub.apiKey, query: { client_user_id: 'ghost' } }), 404);
  });
});
