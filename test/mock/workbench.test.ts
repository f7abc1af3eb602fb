import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TableCatalog } from '../../packages/hub-embed-mock/src/catalog.js';
import { defaultSeed } from '../../packages/hub-embed-mock/src/seed.js';
import { NOTIFICATION_EVENTS } from '../../src/server/webhook-events.js';
import type { SimulatorOptions, SeedTable } from '../../packages/hub-embed-mock/src/types.js';
import { HOSTILE_IDS, P, call, expectErrorEnvelope, newHub, stateOf, tokenFor } from './helpers.js';

const NOTIFY = 'http://r.test/notify';
const BILL = 'http://r.test/bill';

/** A receiver in process: records each request and answers with `answer(event)`. */
function receiver(answer: (event: string) => Response = () => Response.json({ ok: true })) {
  const seen: { url: string; headers: Headers; body: any }[] = [];
  const fetch: SimulatorOptions['fetch'] = async (input, init) => {
    const req = new Request(input, init);
    const body = JSON.parse(await req.text());
    seen.push({ url: req.url, headers: req.headers, body });
    return answer(body.event);
  };
  return { seen, fetch };
}

function hubWithReceiver(answer?: (event: string) => Response) {
  const r = receiver(answer);
  const hub = newHub({ fetch: r.fetch });
  hub.setWebhooks([{ notification_url: NOTIFY, billing_url: BILL }]);
  return { hub, seen: r.seen };
}

describe('console: API keys', () => {
  it('key masks tell keys apart: two keys that differ only in the middle get different ids, with created time and state', async () => {
    const seed = structuredClone(defaultSeed);
    seed.accounts[0]!.keys = [
      { key: 'sk-mock-aaaa-0000000000000000-cdef', status: 'active', expires_at: null },
      { key: 'sk-mock-aaaa-1111111111111111-cdef', status: 'active', expires_at: null },
    ];
    const hub = newHub({ seed });
    const list = (await call(hub, 'GET', '/console/keys')).body.data.list;
    expect(list.map((k: { mask: string }) => k.mask)).toEqual(['sk-mock-…cdef', 'sk-mock-…cdef']);
    const labels = list.map((k: { id: string; mask: string }) => `${k.mask} ${k.id}`);
    expect(new Set(labels).size).toBe(2);
    for (const k of list) {
      expect(k.state).toBe('active');
      expect(k.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    }
    expect(JSON.stringify(list)).not.toContain('0000000000000000');
  });

  it('a created key is shown in plaintext once, listed masked, and disabled or expired by its id', async () => {
    const hub = newHub();
    const created = (await call(hub, 'POST', '/console/keys', { json: {} })).body.data;
    expect(created.key).toMatch(/^sk-mock-[0-9a-f]{32}$/);
    expect(created).toMatchObject({ state: 'active', mask: `sk-mock-…${created.key.slice(-4)}` });
    const list = JSON.stringify((await call(hub, 'GET', '/console/keys')).body);
    expect(list).not.toContain(created.key);
    expect(
      (await call(hub, 'POST', `${P}/apikeys/token`, { key: created.key, json: { client_user_id: 'u' } })).status,
    ).toBe(200);
    const disabled = await call(hub, 'POST', '/console/keys/disable', { json: { id: created.id } });
    expect(disabled.body.data).toMatchObject({ id: created.id, state: 'disabled' });
    expectErrorEnvelope(
      await call(hub, 'POST', `${P}/apikeys/token`, { key: created.key, json: { client_user_id: 'u' } }),
      401,
    );
    const second = (await call(hub, 'POST', '/console/keys', { json: {} })).body.data;
    expect((await call(hub, 'POST', '/console/keys/expire', { json: { id: second.id } })).body.data.state).toBe(
      'expired',
    );
    expectErrorEnvelope(
      await call(hub, 'POST', `${P}/apikeys/token`, { key: second.key, json: { client_user_id: 'u' } }),
      401,
    );
  });
});

describe('console: refuses cross-site requests (any web page could POST to 127.0.0.1)', () => {
  const attacks: [string, Record<string, string>][] = [
    ['Origin of another site', { Origin: 'https://evil.example' }],
    ['Origin of another loopback port', { Origin: 'http://127.0.0.1:3000' }],
    ['Sec-Fetch-Site: cross-site', { 'Sec-Fetch-Site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site', { 'Sec-Fetch-Site': 'same-site' }],
  ];
  for (const [name, headers] of attacks) {
    it(`a console POST with ${name} is 403 and changes nothing`, async () => {
      const hub = newHub();
      await call(hub, 'POST', '/console/transfers', { json: { client_user_id: 'user-bob', amount_cents: 5 } });
      const before = stateOf(hub);
      for (const [path, json] of [
        ['/console/reset', {}],
        ['/console/transfers', { client_user_id: 'user-bob', amount_cents: 100 }],
        ['/console/pool/top-up', { yuan: 1 }],
        ['/console/keys', {}],
      ] as const)
        expectErrorEnvelope(await call(hub, 'POST', path, { json, headers }), 403);
      expectErrorEnvelope(await call(hub, 'GET', '/console/seed', { headers }), 403);
      expect(stateOf(hub)).toBe(before);
    });
  }

  it('a form-style POST (text/plain, no preflight) is 415; a preflight for the console is 403; console answers carry no CORS grant', async () => {
    const hub = newHub();
    const before = stateOf(hub);
    expectErrorEnvelope(
      await call(hub, 'POST', '/console/pool/top-up', { body: '{"yuan":1}', contentType: 'text/plain' }),
      415,
    );
    const pre = await hub.handleApi(
      new Request(`${hub.baseUrl}/console/reset`, {
        method: 'OPTIONS',
        headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'POST' },
      }),
    );
    expect(pre.status).toBe(403);
    const read = await call(hub, 'GET', '/console/state', { headers: { Origin: hub.baseUrl } });
    expect(read.status).toBe(200);
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
    expect(stateOf(hub)).toBe(before);
  });

  it("the console's own pages (same-origin) and clients without Origin (CLI) are answered", async () => {
    const hub = newHub();
    const own = { Origin: hub.baseUrl, 'Sec-Fetch-Site': 'same-origin' };
    expect((await call(hub, 'POST', '/console/pool/top-up', { json: { yuan: 1 }, headers: own })).status).toBe(200);
    expect((await call(hub, 'POST', '/console/pool/top-up', { json: { yuan: 1 } })).status).toBe(200);
  });
});

describe('console: points', () => {
  it('a top-up then a transfer moves exactly the points: pool +yuan*100 -transfer, user +transfer', async () => {
    const hub = newHub();
    const pool0 = (await call(hub, 'GET', '/console/points')).body.data.pool_cents;
    await call(hub, 'POST', '/console/pool/top-up', { json: { yuan: 1.5 } });
    await call(hub, 'POST', '/console/transfers', { json: { client_user_id: 'user-bob', amount_cents: 120 } });
    const points = (await call(hub, 'GET', '/console/points')).body.data;
    expect(points.pool_cents).toBe(pool0 + 150 - 120);
    expect(points.users.find((u: { client_user_id: string }) => u.client_user_id === 'user-bob').balance_cents).toBe(
      120,
    );
    const bal = await call(hub, 'GET', `${P}/points/users/balance`, {
      key: hub.apiKey,
      query: { client_user_id: 'user-bob' },
    });
    expect(bal.body.data.balance_cents).toBe(120);
    expect(hub.ledger().balanced).toBe(true);
  });

  it('transfer records and a user log are paged newest first', async () => {
    const hub = newHub();
    for (const amount of [1, 2, 3])
      await call(hub, 'POST', '/console/transfers', { json: { client_user_id: 'user-bob', amount_cents: amount } });
    await call(hub, 'POST', `${P}/points/users/recharge`, {
      key: hub.apiKey,
      json: { client_user_id: 'user-alice', amount_cents: 4, external_order_id: 'o-1' },
    });
    const page1 = (await call(hub, 'GET', '/console/transfers', { query: { page: '1', page_size: '2' } })).body.data;
    expect(page1).toMatchObject({ total: 4, page: 1, page_size: 2 });
    expect(page1.list.map((t: { amount_cents: number }) => t.amount_cents)).toEqual([4, 3]);
    expect(page1.list[0]).toMatchObject({ client_user_id: 'user-alice', external_order_id: 'o-1' });
    const page2 = (await call(hub, 'GET', '/console/transfers', { query: { page: '2', page_size: '2' } })).body.data;
    expect(page2.list.map((t: { amount_cents: number }) => t.amount_cents)).toEqual([2, 1]);
    const logs = (
      await call(hub, 'GET', '/console/users/logs', { query: { client_user_id: 'user-bob', page_size: '1' } })
    ).body.data;
    expect(logs).toMatchObject({ total: 3, page_size: 1 });
    expect(logs.list[0].change_cents).toBe(3);
    expectErrorEnvelope(await call(hub, 'GET', '/console/users/logs', { query: { client_user_id: 'nobody' } }), 404);
    expectErrorEnvelope(await call(hub, 'GET', '/console/transfers', { query: { page_size: '101' } }), 400);
  });
});

describe('interface test simulator and trigger (POST /console/trigger)', () => {
  it('sends each of the nine events, fields pre-filled, through the real dispatch (logged, with headers, answer and time)', async () => {
    const { hub, seen } = hubWithReceiver((event) =>
      event === 'billing_deduct' ? Response.json({ ok: true }) : new Response('fine', { status: 202 }),
    );
    const events = [...NOTIFICATION_EVENTS, 'billing_deduct', 'billing_refund'];
    expect(events).toHaveLength(9);
    for (const event of events) {
      const res = await call(hub, 'POST', '/console/trigger', { json: { event } });
      expect(res.status, event).toBe(200);
      const [d] = res.body.data.deliveries;
      expect(d).toMatchObject({ event, outcome: 'delivered', url: event.startsWith('billing') ? BILL : NOTIFY });
      expect(d.headers).toMatchObject({ 'Content-Type': 'application/json', 'X-Webhook-Event': event });
      expect(typeof d.durationMs).toBe('number');
      expect(d.responseBody).toBe(event === 'billing_deduct' ? '{"ok":true}' : 'fine');
    }
    expect(seen.map((s) => s.body.event)).toEqual(events);
    expect(seen[0]!.body).toMatchObject({
      short_code: 'k3Xp9a',
      target: { client_user_id: 'user-alice' },
      notification: { link_url: '/k3Xp9a' },
    });
    expect(seen[5]!.body.short_code).toBe('');
    expect(seen[7]!.body.billing).toEqual({ amount: '5.00', reason: 'Paid action on 钢结构安装' });
    expect(hub.deliveries).toHaveLength(9);
  });

  it('chosen fields and --set paths override the pre-filled ones', async () => {
    const { hub, seen } = hubWithReceiver();
    const res = await call(hub, 'POST', '/console/trigger', {
      json: {
        event: 'order_grabbed',
        client_user_id: 'user-bob',
        short_code: 'Pf2k9d',
        title: 'T',
        set: { 'notification.content': 'C', 'extra.n': 5, short_code: null },
      },
    });
    expect(res.status).toBe(200);
    expect(seen[0]!.body).toMatchObject({
      target: { client_user_id: 'user-bob' },
      short_code: null,
      extra: { n: 5 },
      notification: { title: 'T', content: 'C', link_url: '/Pf2k9d' },
    });
  });

  it('a test deduct the receiver confirms is charged: a deduct record in the user log', async () => {
    const { hub } = hubWithReceiver(() => Response.json({ ok: true }));
    const res = await call(hub, 'POST', '/console/trigger', {
      json: { event: 'billing_deduct', client_user_id: 'user-alice', short_code: 'Pf2k9d', amount: '1.50' },
    });
    expect(res.body.data.decision).toMatchObject({
      charged: true,
      record: { record_type: 'deduct', change_cents: 0, short_code: 'Pf2k9d' },
    });
    expect(res.body.data.decision.record.reason).toContain('150 cents');
    const logs = await call(hub, 'GET', `${P}/points/users/logs`, {
      key: hub.apiKey,
      query: { client_user_id: 'user-alice' },
    });
    expect(logs.body.data.list[0].id).toBe(res.body.data.decision.record.id);
  });

  it('a test deduct logs the amount it sent, also when --set changed billing.amount; a malformed one logs --amount', async () => {
    for (const [set, cents] of [
      [{ 'billing.amount': '2.05' }, 205],
      [{ 'billing.amount': 'twelve' }, 150],
    ] as const) {
      const { hub } = hubWithReceiver(() => Response.json({ ok: true }));
      const res = await call(hub, 'POST', '/console/trigger', {
        json: { event: 'billing_deduct', client_user_id: 'user-alice', short_code: 'Pf2k9d', amount: '1.50', set },
      });
      expect(res.body.data.deliveries[0].body.billing.amount).toBe(set['billing.amount']);
      expect(res.body.data.decision.record.reason).toContain(`${cents} cents`);
    }
  });

  it('a test deduct logs the reason it sent, also when --set changed billing.reason (charged and failed alike)', async () => {
    for (const [answer, charged] of [
      [() => Response.json({ ok: true }), true],
      [() => Response.json({ ok: false }), false],
    ] as const) {
      const { hub } = hubWithReceiver(answer);
      const res = await call(hub, 'POST', '/console/trigger', {
        json: { event: 'billing_deduct', short_code: 'Pf2k9d', set: { 'billing.reason': 'Unlock contact' } },
      });
      expect(res.body.data.deliveries[0].body.billing.reason).toBe('Unlock contact');
      expect(res.body.data.decision.charged).toBe(charged);
      expect(res.body.data.decision.record.reason).toContain('Unlock contact');
      expect(res.body.data.decision.record.reason).not.toContain('Paid action on');
    }
    // --reason too; and a reason that --set made into no text at all leaves the record at --reason.
    const { hub } = hubWithReceiver(() => Response.json({ ok: true }));
    const res = await call(hub, 'POST', '/console/trigger', {
      json: { event: 'billing_deduct', reason: 'By flag', set: { 'billing.reason': 42 } },
    });
    expect(res.body.data.decision.record.reason).toMatch(/^By flag: \d+ cents charged/);
  });

  it('a test deduct answered ok:false (or non-200) fails: a failed record, balance unchanged', async () => {
    for (const answer of [() => Response.json({ ok: false }), () => new Response('{"ok":true}', { status: 500 })]) {
      const { hub } = hubWithReceiver(answer);
      const before = hub.ledger();
      const res = await call(hub, 'POST', '/console/trigger', { json: { event: 'billing_deduct' } });
      expect(res.body.data.decision).toMatchObject({
        charged: false,
        record: { record_type: 'failed', status: 'failed' },
      });
      expect(hub.ledger()).toEqual(before);
    }
  });

  it('with no URL configured for the kind the trigger is 409 and nothing is sent or logged', async () => {
    const hub = newHub();
    hub.setWebhooks([{ notification_url: NOTIFY }]);
    const before = stateOf(hub);
    expectErrorEnvelope(await call(hub, 'POST', '/console/trigger', { json: { event: 'billing_deduct' } }), 409);
    expect(stateOf(hub)).toBe(before);
  });

  it('bad trigger input is a clear 400 and changes nothing', async () => {
    const { hub } = hubWithReceiver();
    const before = stateOf(hub);
    const bad: Record<string, unknown>[] = [
      { event: 'nope' },
      { event: 42 },
      { event: 'billing_deduct', amount: '1.5' },
      { event: 'billing_deduct', amount: 1.5 },
      { event: 'billing_deduct', amount: '0.00' },
      { event: 'billing_deduct', client_user_id: null },
      { event: 'order_matched', link_url: 'javascript:alert(1)' },
      { event: 'order_matched', set: { 'notification.link_url': 'https://evil.example/' } },
      { event: 'order_matched', set: { '__proto__.x': 1 } },
      { event: 'order_matched', set: { event: 'billing_deduct' } },
      { event: 'order_matched', set: { 'a..b': 1 } },
      { event: 'order_matched', set: 'x' },
      { event: 'order_matched', title: '' },
    ];
    for (const json of bad) expectErrorEnvelope(await call(hub, 'POST', '/console/trigger', { json }), 400);
    expectErrorEnvelope(await call(hub, 'POST', '/console/trigger', { body: '{"event":' }), 400);
    expectErrorEnvelope(
      await call(hub, 'POST', '/console/trigger', { json: { event: 'order_matched', short_code: 'nope' } }),
      404,
    );
    expect(stateOf(hub)).toBe(before);
  });

  it('malformed, mistyped and huge console bodies are refused with a clear 4xx and change nothing', async () => {
    const { hub } = hubWithReceiver();
    const before = stateOf(hub);
    const huge = JSON.stringify({ event: 'order_matched', title: 'x'.repeat(70_000) });
    expectErrorEnvelope(await call(hub, 'POST', '/console/trigger', { body: huge }), 413);
    expectErrorEnvelope(await call(hub, 'POST', '/console/trigger', { body: '[1,2]' }), 400);
    expectErrorEnvelope(
      await call(hub, 'POST', '/console/trigger', { json: { event: 'order_matched', set: { 'a\u2028b': 1 } } }),
      400,
    );
    expectErrorEnvelope(
      await call(hub, 'POST', '/console/trigger', { json: { event: 'order_matched', client_user_id: 5 } }),
      400,
    );
    expectErrorEnvelope(await call(hub, 'POST', '/console/clock', { body: '{"advance_ms":' }), 400);
    expectErrorEnvelope(await call(hub, 'POST', '/console/reset', { body: '{}', contentType: 'text/plain' }), 415);
    expectErrorEnvelope(await call(hub, 'POST', '/console/keys/disable', { json: { id: ['k1'] } }), 400);
    expectErrorEnvelope(
      await call(hub, 'POST', '/console/tables', { json: { short_code: '<img src=x onerror=alert(1)>' } }),
      400,
    );
    expect(stateOf(hub)).toBe(before);
  });

  it('hostile strings (HTML, javascript:, U+2028) travel as data in the JSON body', async () => {
    const { hub, seen } = hubWithReceiver();
    for (const title of HOSTILE_IDS)
      await call(hub, 'POST', '/console/trigger', { json: { event: 'order_matched', title } });
    expect(seen.map((s) => s.body.notification.title)).toEqual(HOSTILE_IDS);
  });

  it('the preview shows what would be sent and where, and sends nothing', async () => {
    const { hub, seen } = hubWithReceiver();
    const res = await call(hub, 'GET', '/console/trigger/preview', { query: { event: 'billing_refund' } });
    expect(res.body.data.urls).toEqual([BILL]);
    expect(res.body.data.body).toMatchObject({ event: 'billing_refund', billing: { amount: '5.00' } });
    expect(seen).toHaveLength(0);
  });
});

describe('console: deliveries, requests, tables, clock, reset, seed', () => {
  it('resending a delivery sends the same body to the same URL as a new delivery, and moves no points', async () => {
    const { hub, seen } = hubWithReceiver();
    const first = (await call(hub, 'POST', '/console/trigger', { json: { event: 'billing_deduct' } })).body.data
      .deliveries[0];
    const ledger = hub.ledger();
    const logs = (await call(hub, 'GET', '/console/users/logs', { query: { client_user_id: 'user-alice' } })).body.data
      .total;
    const again = (await call(hub, 'POST', '/console/deliveries/resend', { json: { id: first.id } })).body.data;
    expect(again).toMatchObject({ resendOf: first.id, url: BILL, outcome: 'delivered', body: first.body });
    expect(again.id).not.toBe(first.id);
    expect(seen[1]!.body).toEqual(seen[0]!.body);
    expect(hub.ledger()).toEqual(ledger);
    expect(
      (await call(hub, 'GET', '/console/users/logs', { query: { client_user_id: 'user-alice' } })).body.data.total,
    ).toBe(logs);
    expectErrorEnvelope(await call(hub, 'POST', '/console/deliveries/resend', { json: { id: 999 } }), 404);
    expectErrorEnvelope(await call(hub, 'POST', '/console/deliveries/resend', { json: { id: '1' } }), 400);
  });

  it('the request log filters by path, status and user', async () => {
    const hub = newHub();
    await tokenFor(hub, 'user-bob');
    await call(hub, 'GET', `${P}/points/users/balance`, { key: 'bad', query: { client_user_id: 'user-bob' } });
    const q = async (query: Record<string, string>) =>
      (await call(hub, 'GET', '/console/requests', { query })).body.data.list.map(
        (e: { path: string; status: number }) => `${e.path} ${e.status}`,
      );
    expect(await q({ path: 'apikeys' })).toEqual([`${P}/apikeys/token 200`]);
    expect(await q({ status: '401' })).toEqual([`${P}/points/users/balance 401`]);
    expect(await q({ user: 'user-bob' })).toEqual([`${P}/apikeys/token 200`]);
    expectErrorEnvelope(await call(hub, 'GET', '/console/requests', { query: { status: 'x' } }), 400);
  });

  it('an added table is listed and found by its tags; duplicates are 409, bad tables 400', async () => {
    const hub = newHub();
    const table = {
      project_id: 5000,
      short_code: 'new-1',
      name: 'New',
      industry: 'X',
      icon: 'x',
      tags: ['Brand-New-Zeta'],
      type: 'A',
      published: true,
      price_cents: 10,
    };
    expect((await call(hub, 'POST', '/console/tables', { json: table })).status).toBe(200);
    const token = await tokenFor(hub, 'u');
    const list = (
      await call(hub, 'GET', `${P}/projects/published-list`, { bearer: token, query: { tags: 'zeta', limit: '2' } })
    ).body.data.list;
    expect(list[0].short_code).toBe('new-1');
    expect((await call(hub, 'GET', `${P}/projects/published-tags`, { bearer: token })).body.data.list).toContain(
      'Brand-New-Zeta',
    );
    const before = stateOf(hub);
    expectErrorEnvelope(await call(hub, 'POST', '/console/tables', { json: table }), 409);
    expectErrorEnvelope(await call(hub, 'POST', '/console/tables', { json: { ...table, short_code: 'x2' } }), 409);
    expectErrorEnvelope(
      await call(hub, 'POST', '/console/tables', {
        json: { ...table, short_code: 'x3', project_id: 5001, icon: 'javascript:alert(1)' },
      }),
      400,
    );
    expectErrorEnvelope(
      await call(hub, 'POST', '/console/tables', { json: { ...table, short_code: 'x4', project_id: 5002, tags: 'a' } }),
      400,
    );
    expect(stateOf(hub)).toBe(before);
    const { project_id: _omitted, ...withoutId } = { ...table, short_code: 'auto-id' };
    const auto = await call(hub, 'POST', '/console/tables', { json: withoutId });
    expect(auto.body.data.project_id).toBe(5001);
    const page = (await call(hub, 'GET', '/console/tables', { query: { page: '3', page_size: '10' } })).body.data;
    expect(page.total).toBe(defaultSeed.tables.length + 2);
    expect(page.list.map((t: { short_code: string }) => t.short_code).slice(-2)).toEqual(['new-1', 'auto-id']);
  });

  it('advancing the clock expires tokens; bad advances are 400', async () => {
    const hub = newHub({ tokenTtlSeconds: 60 });
    const token = await tokenFor(hub, 'u');
    const res = await call(hub, 'POST', '/console/clock', { json: { advance_ms: 61_000 } });
    expect(res.body.data.now).toBe(new Date(Date.parse('2026-11-21T02:01:01Z')).toISOString().replace('.000', ''));
    expectErrorEnvelope(await call(hub, 'GET', `${P}/projects/published-tags`, { bearer: token }), 401);
    for (const advance_ms of [0, -1, 1.5, '10m', 1e20])
      expectErrorEnvelope(await call(hub, 'POST', '/console/clock', { json: { advance_ms } }), 400);
  });

  it('reset returns to the seed: points, keys, tables, tokens, deliveries', async () => {
    const { hub } = hubWithReceiver();
    const fresh = newHub();
    const token = await tokenFor(hub, 'user-alice');
    await call(hub, 'POST', '/console/pool/top-up', { json: { yuan: 3 } });
    await call(hub, 'POST', '/console/transfers', { json: { client_user_id: 'user-carol', amount_cents: 7 } });
    await call(hub, 'POST', '/console/keys/disable', { json: { key: hub.apiKey } });
    await call(hub, 'POST', '/console/tables/unpublish', { json: { short_code: 'k3Xp9a' } });
    await call(hub, 'POST', '/console/trigger', { json: { event: 'order_matched' } });
    expect((await call(hub, 'POST', '/console/reset', { json: {} })).status).toBe(200);
    expect(hub.ledger()).toEqual(fresh.ledger());
    expect(hub.points()).toEqual(fresh.points());
    expect(hub.keys().map((k) => k.state)).toEqual(fresh.keys().map((k) => k.state));
    expect(hub.tables(1, 100)).toEqual(fresh.tables(1, 100));
    expect(hub.webhooks().configs).toEqual([]);
    expect(hub.deliveries).toHaveLength(0);
    expectErrorEnvelope(await call(hub, 'GET', `${P}/projects/published-tags`, { bearer: token }), 401);
    expect(
      (await call(hub, 'POST', `${P}/apikeys/token`, { key: hub.apiKey, json: { client_user_id: 'u' } })).status,
    ).toBe(200);
  });

  it('the seed endpoint returns the seed the simulator started from', async () => {
    const hub = newHub();
    await call(hub, 'POST', '/console/tables/unpublish', { json: { short_code: 'k3Xp9a' } });
    expect((await call(hub, 'GET', '/console/seed')).body.data).toEqual(JSON.parse(JSON.stringify(defaultSeed)));
  });
});

describe('amounts on the simulator pages', () => {
  it('are shown one way everywhere: yuan with two decimals and thousands separators, points in brackets', async () => {
    const { yuanAndPoints } = await import('../../packages/hub-embed-mock/src/http.js');
    expect(yuanAndPoints(5000)).toBe('¥50.00 (5,000 points)');
    expect(yuanAndPoints(150)).toBe('¥1.50 (150 points)');
    expect(yuanAndPoints(1)).toBe('¥0.01 (1 point)');
    expect(yuanAndPoints(1_234_567)).toBe('¥12,345.67 (1,234,567 points)');
    expect(yuanAndPoints(1_000_000)).toBe('¥10,000.00 (1,000,000 points)');
    expect(yuanAndPoints(-123_456_789)).toBe('¥-1,234,567.89 (-123,456,789 points)');
    expect(yuanAndPoints(1_000_000, 'zh-CN')).toBe('¥10,000.00（1,000,000 积分）');
    const { STRINGS } = await import('../../packages/hub-embed-mock/src/console-ui/strings.js');
    expect(STRINGS.en.amountText(1_000_000)).toBe('¥10,000.00 (1,000,000 points)');
    expect(STRINGS['zh-CN'].amountText(1_000_000)).toBe('¥10,000.00（1,000,000 积分）');
    const hub = newHub();
    const token = await tokenFor(hub, 'user-alice');
    const html = await (await hub.handleForm(new Request(`${hub.formUrl}/Pf2k9d?token=${token}`))).text();
    expect(html).toContain('Your points on this service: <strong id="balance">¥50.00 (5,000 points)</strong>');
    expect(html).toContain('Pay ¥1.50 (150 points)');
    expect(html).not.toMatch(/Points: /);
  });
});

/** The published-list order as it was before the index: a scan per request. */
function naiveQuery(tables: SeedTable[], wanted: string[], limit: number): string[] {
  const published = tables.filter((t) => t.published);
  const matches = (t: SeedTable) => t.tags.some((tag) => wanted.some((w) => tag.toLowerCase().includes(w)));
  const ordered =
    wanted.length === 0 ? published : [...published.filter(matches), ...published.filter((t) => !matches(t))];
  return ordered.slice(0, limit).map((t) => t.short_code);
}

describe('the tag index keeps the service order rules', () => {
  it('matches first then fill, each in catalogue order, after any publish, unpublish and add', () => {
    const tagArb = fc.constantFrom('a', 'A', 'ab', 'b', 'Bc', 'c', '建筑', 'x y');
    const opArb = fc.oneof(
      fc.record({ op: fc.constant('add' as const), tags: fc.array(tagArb, { maxLength: 3 }), published: fc.boolean() }),
      fc.record({ op: fc.constantFrom('publish' as const, 'unpublish' as const), at: fc.nat() }),
    );
    fc.assert(
      fc.property(
        fc.array(opArb, { maxLength: 40 }),
        fc.array(fc.constantFrom('a', 'b', 'c', '建', 'x', 'zz'), { maxLength: 3 }),
        fc.integer({ min: 1, max: 12 }),
        (ops, wanted, limit) => {
          const catalog = new TableCatalog();
          for (const step of ops) {
            if (step.op === 'add') {
              const n = catalog.size;
              catalog.add({
                project_id: n + 1,
                short_code: `t${n}`,
                name: 'n',
                industry: 'i',
                icon: 'x',
                tags: step.tags,
                type: 'A',
                published: step.published,
                price_cents: 0,
              });
            } else if (catalog.size > 0) {
              catalog.setPublished(catalog.all[step.at % catalog.size]!, step.op === 'publish');
            }
          }
          const got = catalog.query(wanted, limit).map((t) => t.short_code);
          expect(got).toEqual(naiveQuery(catalog.all, wanted, limit));
          const tags = [...new Set(catalog.all.filter((t) => t.published).flatMap((t) => t.tags))].sort();
          expect(catalog.tags()).toEqual(tags);
        },
      ),
      { numRuns: 300 },
    );
  });
});
