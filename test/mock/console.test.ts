import { describe, expect, it } from 'vitest';
import { P, call, expectErrorEnvelope, newHub, stateOf, tokenFor } from './helpers.js';

describe('console (/console JSON endpoints)', () => {
  it('creates an API key that works for token exchange; the full key is shown once, the list masks it', async () => {
    const hub = newHub();
    const res = await call(hub, 'POST', '/console/keys', { json: {} });
    expect(res.status).toBe(200);
    const key = res.body.data.key as string;
    expect(key).toMatch(/^sk-/);
    expect((await call(hub, 'POST', `${P}/apikeys/token`, { key, json: { client_user_id: 'u' } })).status).toBe(200);
    const state = (await call(hub, 'GET', '/console/state')).body.data;
    expect(JSON.stringify(state)).not.toContain(key);
  });

  it('disables a key: it is then refused with 401', async () => {
    const hub = newHub();
    expect((await call(hub, 'POST', '/console/keys/disable', { json: { key: hub.apiKey } })).status).toBe(200);
    expectErrorEnvelope(
      await call(hub, 'POST', `${P}/apikeys/token`, { key: hub.apiKey, json: { client_user_id: 'u' } }),
      401,
    );
  });

  it('expires a key: it is then refused with 401', async () => {
    const hub = newHub();
    await call(hub, 'POST', '/console/keys/expire', { json: { key: hub.apiKey } });
    expectErrorEnvelope(
      await call(hub, 'GET', `${P}/points/users/balance`, { key: hub.apiKey, query: { client_user_id: 'user-alice' } }),
      401,
    );
  });

  it('tops up the pool at 1 yuan = 100 points', async () => {
    const hub = newHub();
    const before = hub.ledger().poolCents;
    const res = await call(hub, 'POST', '/console/pool/top-up', { json: { yuan: 12.34 } });
    expect(res.body.data).toEqual({ developer_id: 1, amount_cents: 1234, pool_cents: before + 1234 });
    expect(hub.ledger().balanced).toBe(true);
  });

  it('refuses bad top-ups (zero, negative, three decimals, strings, huge) and changes nothing', async () => {
    const hub = newHub();
    const before = stateOf(hub);
    for (const yuan of [0, -1, 1.234, '10', null, 1e300, Number.NaN]) {
      expectErrorEnvelope(await call(hub, 'POST', '/console/pool/top-up', { json: { yuan } }), 400);
    }
    expect(stateOf(hub)).toBe(before);
  });

  it('publishes and unpublishes tables; unknown short codes are 404', async () => {
    const hub = newHub();
    const token = await tokenFor(hub, 'u');
    await call(hub, 'POST', '/console/tables/unpublish', { json: { short_code: 'k3Xp9a' } });
    await call(hub, 'POST', '/console/tables/publish', { json: { short_code: 'Ti9p3s' } });
    const list = (await call(hub, 'GET', `${P}/projects/published-list`, { bearer: token })).body.data.list.map(
      (i: { short_code: string }) => i.short_code,
    );
    expect(list).not.toContain('k3Xp9a');
    expect(list).toContain('Ti9p3s');
    expectErrorEnvelope(await call(hub, 'POST', '/console/tables/publish', { json: { short_code: 'nope' } }), 404);
  });

  it('sets webhook configurations, validating URLs', async () => {
    const hub = newHub();
    const ok = await call(hub, 'PUT', '/console/webhooks', {
      json: { configs: [{ notification_url: 'https://a.example/n', billing_url: 'https://a.example/b' }] },
    });
    expect(ok.body.data.configs).toHaveLength(1);
    const before = stateOf(hub);
    for (const configs of [[{ notification_url: 'javascript:alert(1)' }], [{}], 'x', [{ billing_url: 42 }]]) {
      expectErrorEnvelope(await call(hub, 'PUT', '/console/webhooks', { json: { configs } }), 400);
    }
    expect(stateOf(hub)).toBe(before);
  });

  it('triggers a notification and a refund, and serves the request and delivery logs', async () => {
    const hub = newHub({ fetch: async () => new Response(null, { status: 204 }) });
    await call(hub, 'PUT', '/console/webhooks', {
      json: { configs: [{ notification_url: 'http://r.test/n', billing_url: 'http://r.test/b' }] },
    });
    const n = await call(hub, 'POST', '/console/notifications', {
      json: { event: 'order_dispatched', client_user_id: 'user-alice', short_code: 'k3Xp9a', title: 't', content: 'c' },
    });
    expect(n.body.data.deliveries[0]).toMatchObject({ event: 'order_dispatched', outcome: 'delivered', status: 204 });
    expectErrorEnvelope(
      await call(hub, 'POST', '/console/notifications', {
        json: { event: 'billing_deduct', short_code: 'k3Xp9a', title: 't', content: 'c' },
      }),
      400,
    );
    expectErrorEnvelope(
      await call(hub, 'POST', '/console/refunds', { json: { client_user_id: 'user-alice', log_id: 999 } }),
      404,
    );
    const deliveries = (await call(hub, 'GET', '/console/deliveries')).body.data.list;
    expect(deliveries).toHaveLength(1);
    const requests = (await call(hub, 'GET', '/console/requests')).body.data.list;
    expect(requests.map((r: { path: string }) => r.path)).toContain('/console/notifications');
  });

  it('a user log in the console marks each charge refunded or not, so the Refund button knows; the open API log does not', async () => {
    const hub = newHub({ fetch: async () => Response.json({ ok: true }) });
    hub.setWebhooks([{ billing_url: 'http://r.test/b' }]);
    const charge = await hub.trigger({ event: 'billing_deduct', clientUserId: 'user-alice', shortCode: 'k3Xp9a' });
    const id = charge.decision!.record.id;
    const logs = () =>
      call(hub, 'GET', '/console/users/logs', { query: { client_user_id: 'user-alice' } }).then(
        (r) => r.body.data.list as { id: number; record_type: string; refunded?: boolean }[],
      );
    expect((await logs()).find((r) => r.id === id)).toMatchObject({ record_type: 'deduct', refunded: false });
    await call(hub, 'POST', '/console/refunds', { json: { client_user_id: 'user-alice', log_id: id } });
    const after = await logs();
    expect(after.find((r) => r.id === id)!.refunded).toBe(true);
    expect(after.filter((r) => r.record_type !== 'deduct').every((r) => !('refunded' in r))).toBe(true);
    const open = await call(hub, 'GET', `${P}/points/users/logs`, {
      key: hub.apiKey,
      query: { client_user_id: 'user-alice' },
    });
    expect(open.body.data.list.every((r: object) => !('refunded' in r))).toBe(true);
  });

  it('transfers points to a user from the pool (the points management page)', async () => {
    const hub = newHub();
    const res = await call(hub, 'POST', '/console/transfers', {
      json: { client_user_id: 'user-bob', amount_cents: 300 },
    });
    expect(res.body.data).toMatchObject({ client_user_id: 'user-bob', amount_cents: 300, user_balance_cents: 300 });
    expect(hub.ledger().balanced).toBe(true);
  });

  it('--no-console (console: false) turns the endpoints off', async () => {
    const hub = newHub({ console: false });
    expectErrorEnvelope(await call(hub, 'GET', '/console/state'), 404);
    expectErrorEnvelope(await call(hub, 'POST', '/console/keys', { json: {} }), 404);
  });

  it('console bodies get the same malformed-input checks', async () => {
    const hub = newHub();
    expectErrorEnvelope(await call(hub, 'POST', '/console/keys/disable', { body: '{' }), 400);
    expectErrorEnvelope(await call(hub, 'POST', '/console/keys/disable', { json: { key: 'sk-unknown' } }), 404);
    expectErrorEnvelope(await call(hub, 'GET', '/console/pool/top-up'), 405);
  });
});
