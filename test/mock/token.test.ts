import { describe, expect, it } from 'vitest';
import { KEYS, P, T0, call, expectErrorEnvelope, newHub, stateOf, tokenFor, HOSTILE_IDS } from './helpers.js';

const TOKEN = `${P}/apikeys/token`;

describe('POST /apikeys/token', () => {
  it('exchanges an active developer key for {access_token, expires_in} in the envelope', async () => {
    const hub = newHub();
    const res = await call(hub, 'POST', TOKEN, { key: KEYS.active, json: { client_user_id: 'user-alice' } });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(200);
    expect(res.body.message).toBe('success');
    expect(typeof res.body.data.access_token).toBe('string');
    expect(res.body.data.access_token.length).toBeGreaterThan(20);
    expect(res.body.data.expires_in).toBe(7200);
  });

  it('rule 1: an invalid key is HTTP 401', async () => {
    const hub = newHub();
    expectErrorEnvelope(await call(hub, 'POST', TOKEN, { key: 'sk-nope', json: { client_user_id: 'u' } }), 401);
  });

  it('rule 1: a missing key is HTTP 401', async () => {
    expectErrorEnvelope(await call(newHub(), 'POST', TOKEN, { json: { client_user_id: 'u' } }), 401);
  });

  it('rule 1: a disabled key is HTTP 401', async () => {
    expectErrorEnvelope(
      await call(newHub(), 'POST', TOKEN, { key: KEYS.disabled, json: { client_user_id: 'u' } }),
      401,
    );
  });

  it('rule 1: an expired key is HTTP 401', async () => {
    expectErrorEnvelope(await call(newHub(), 'POST', TOKEN, { key: KEYS.expired, json: { client_user_id: 'u' } }), 401);
  });

  it('rule 1: a key that expires while in use stops working at its expiry instant', async () => {
    const hub = newHub();
    const created = hub.createApiKey({ expiresAt: new Date(T0 + 60_000).toISOString() });
    expect((await call(hub, 'POST', TOKEN, { key: created.key, json: { client_user_id: 'u' } })).status).toBe(200);
    hub.clock.advance(60_000);
    expectErrorEnvelope(await call(hub, 'POST', TOKEN, { key: created.key, json: { client_user_id: 'u' } }), 401);
  });

  it('rule 2: a key of a non-developer account is HTTP 401', async () => {
    expectErrorEnvelope(await call(newHub(), 'POST', TOKEN, { key: KEYS.member, json: { client_user_id: 'u' } }), 401);
  });

  it('client_user_id is required and must be a non-empty string (400)', async () => {
    const hub = newHub();
    const before = stateOf(hub);
    for (const json of [
      {},
      { client_user_id: '' },
      { client_user_id: '   ' },
      { client_user_id: 42 },
      { client_user_id: null },
      { client_user_id: ['a'] },
      { client_user_id: 'x'.repeat(257) },
    ]) {
      expectErrorEnvelope(await call(hub, 'POST', TOKEN, { key: KEYS.active, json }), 400);
    }
    expect(stateOf(hub)).toBe(before);
  });

  it('a key failure is reported before body problems (401 wins over 400)', async () => {
    expectErrorEnvelope(await call(newHub(), 'POST', TOKEN, { key: 'bad', body: '{not json' }), 401);
  });

  it('token lifetime follows tokenTtlSeconds (--token-ttl)', async () => {
    const hub = newHub({ tokenTtlSeconds: 60 });
    const res = await call(hub, 'POST', TOKEN, { key: hub.apiKey, json: { client_user_id: 'u' } });
    expect(res.body.data.expires_in).toBe(60);
  });

  it('an expired token gets 401 on the Bearer endpoints', async () => {
    const hub = newHub({ tokenTtlSeconds: 60 });
    const token = await tokenFor(hub, 'user-alice');
    hub.clock.advance(59_999);
    expect((await call(hub, 'GET', `${P}/projects/published-tags`, { bearer: token })).status).toBe(200);
    hub.clock.advance(1);
    expectErrorEnvelope(await call(hub, 'GET', `${P}/projects/published-tags`, { bearer: token }), 401);
    expectErrorEnvelope(await call(hub, 'GET', `${P}/projects/published-list`, { bearer: token }), 401);
  });

  it('an unknown token gets 401 on the Bearer endpoints', async () => {
    const hub = newHub();
    expectErrorEnvelope(await call(hub, 'GET', `${P}/projects/published-tags`, { bearer: 'at-unknown' }), 401);
    expectErrorEnvelope(await call(hub, 'GET', `${P}/projects/published-list`), 401);
    expectErrorEnvelope(
      await call(hub, 'GET', `${P}/projects/published-list`, { headers: { Authorization: 'Basic abc' } }),
      401,
    );
  });

  it('a token is bound to (developer, client_user_id): the form page shows that user', async () => {
    const hub = newHub();
    const token = await tokenFor(hub, 'user-bob');
    const res = await hub.handleForm(new Request(`${hub.formUrl}/k3Xp9a?token=${encodeURIComponent(token)}`));
    expect(await res.text()).toContain('<strong id="user">user-bob</strong>');
    expect(hub.requestLog.at(-1)).toMatchObject({ site: 'form', auth: 'bearer', clientUserId: 'user-bob' });
  });

  it('each exchange gives a different token; all stay valid', async () => {
    const hub = newHub();
    const a = await tokenFor(hub, 'u1');
    const b = await tokenFor(hub, 'u1');
    expect(a).not.toBe(b);
    for (const t of [a, b])
      expect((await call(hub, 'GET', `${P}/projects/published-tags`, { bearer: t })).status).toBe(200);
  });

  it('the API key does not work as a Bearer token, nor a token as an API key', async () => {
    const hub = newHub();
    const token = await tokenFor(hub, 'u');
    expectErrorEnvelope(await call(hub, 'GET', `${P}/projects/published-tags`, { bearer: hub.apiKey }), 401);
    expectErrorEnvelope(
      await call(hub, 'GET', `${P}/points/users/balance`, { bearer: token, query: { client_user_id: 'u' } }),
      401,
    );
  });

  it('hostile client_user_id strings are accepted as opaque ids and echoed intact', async () => {
    const hub = newHub();
    for (const id of HOSTILE_IDS) {
      await tokenFor(hub, id);
      const res = await call(hub, 'GET', `${P}/points/users/balance`, {
        key: hub.apiKey,
        query: { client_user_id: id },
      });
      expect(res.body.data.client_user_id).toBe(id);
    }
  });

  it('the request log records method, path, status, auth kind and user', async () => {
    const hub = newHub();
    await tokenFor(hub, 'user-alice');
    await call(hub, 'POST', TOKEN, { key: 'bad', json: { client_user_id: 'x' } });
    expect(hub.requestLog).toEqual([
      { time: T0, site: 'api', method: 'POST', path: TOKEN, status: 200, auth: 'api-key', clientUserId: 'user-alice' },
      { time: T0, site: 'api', method: 'POST', path: TOKEN, status: 401, auth: 'api-key' },
    ]);
  });
});
