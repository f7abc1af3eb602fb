import { describe, expect, it } from 'vitest';
import { MAX_REQUEST_BODY_BYTES } from '../../packages/hub-embed-mock/src/http.js';
import { P, call, expectErrorEnvelope, newHub, stateOf, tokenFor } from './helpers.js';

const POSTS = [`${P}/apikeys/token`, `${P}/points/users/recharge`];

describe('bad input', () => {
  it('non-JSON bodies are 400 with an envelope, and change nothing', async () => {
    const hub = newHub();
    const before = stateOf(hub);
    for (const path of POSTS) {
      for (const body of ['{', 'not json', '', '\u2028', '<html>']) {
        expectErrorEnvelope(await call(hub, 'POST', path, { key: hub.apiKey, body }), 400);
      }
    }
    expect(stateOf(hub)).toBe(before);
  });

  it('JSON that is not an object (array, string, null, number) is 400', async () => {
    const hub = newHub();
    for (const path of POSTS) {
      for (const body of ['[]', '"x"', 'null', '42', '[{"client_user_id":"u","amount_cents":1}]']) {
        expectErrorEnvelope(await call(hub, 'POST', path, { key: hub.apiKey, body }), 400);
      }
    }
  });

  it('a wrong Content-Type is 415', async () => {
    const hub = newHub();
    for (const path of POSTS) {
      expectErrorEnvelope(
        await call(hub, 'POST', path, {
          key: hub.apiKey,
          body: '{"client_user_id":"u","amount_cents":1}',
          contentType: 'text/plain',
        }),
        415,
      );
    }
  });

  it('bodies over 64 KB are 413 and change nothing', async () => {
    const hub = newHub();
    const before = stateOf(hub);
    const pad = 'x'.repeat(MAX_REQUEST_BODY_BYTES);
    expectErrorEnvelope(
      await call(hub, 'POST', `${P}/points/users/recharge`, {
        key: hub.apiKey,
        json: { client_user_id: 'user-bob', amount_cents: 1, reason: pad },
      }),
      413,
    );
    expectErrorEnvelope(
      await call(hub, 'POST', `${P}/apikeys/token`, { key: hub.apiKey, json: { client_user_id: 'u', pad } }),
      413,
    );
    expect(stateOf(hub)).toBe(before);
  });

  it('a body of exactly 64 KB is read (the limit is inclusive)', async () => {
    const hub = newHub();
    const base = JSON.stringify({ client_user_id: 'u', pad: '' });
    const body = JSON.stringify({ client_user_id: 'u', pad: 'x'.repeat(MAX_REQUEST_BODY_BYTES - base.length) });
    expect(body.length).toBe(MAX_REQUEST_BODY_BYTES);
    expect((await call(hub, 'POST', `${P}/apikeys/token`, { key: hub.apiKey, body })).status).toBe(200);
  });

  it('unknown routes are 404 with an envelope', async () => {
    const hub = newHub();
    for (const path of [
      '/',
      '/api/v1/hub',
      `${P}/projects`,
      `${P}/apikeys/token/x`,
      '/api/v2/hub/apikeys/token',
      `${P}/PROJECTS/published-tags`,
    ]) {
      expectErrorEnvelope(await call(hub, 'GET', path, { key: hub.apiKey }), 404);
    }
  });

  it('wrong methods are 405 with an Allow header', async () => {
    const hub = newHub();
    const token = await tokenFor(hub, 'u');
    const cases: [string, string, string][] = [
      ['GET', `${P}/apikeys/token`, 'POST'],
      ['POST', `${P}/projects/published-tags`, 'GET'],
      ['DELETE', `${P}/projects/published-list`, 'GET'],
      ['PUT', `${P}/points/users/recharge`, 'POST'],
      ['POST', `${P}/points/users/logs`, 'GET'],
    ];
    for (const [method, path, allow] of cases) {
      const res = await call(hub, method, path, { key: hub.apiKey, bearer: token });
      expectErrorEnvelope(res, 405);
      expect(res.headers.get('allow')).toBe(allow);
    }
  });

  it('hostile strings in reasons are stored and returned as plain data, never interpreted', async () => {
    const hub = newHub();
    const reason = '<script>alert(1)</script> javascript:alert(1) \u2028 🙂';
    await call(hub, 'POST', `${P}/points/users/recharge`, {
      key: hub.apiKey,
      json: { client_user_id: 'user-bob', amount_cents: 1, reason },
    });
    const res = await call(hub, 'GET', `${P}/points/users/logs`, {
      key: hub.apiKey,
      query: { client_user_id: 'user-bob' },
    });
    expect(res.body.data.list[0].reason).toBe(reason);
    expect(res.headers.get('content-type')).toContain('application/json');
  });

  it('a repeated query parameter for client_user_id is 400, not silently the first', async () => {
    const hub = newHub();
    const res = await hub.handleApi(
      new Request(`${hub.baseUrl}${P}/points/users/balance?client_user_id=user-alice&client_user_id=user-bob`, {
        headers: { 'X-API-Key': hub.apiKey },
      }),
    );
    expect(res.status).toBe(400);
  });

  it('every error answer is the envelope {code, message, data: null} with code equal to the HTTP status', async () => {
    const hub = newHub();
    const responses = [
      await call(hub, 'GET', '/nope'),
      await call(hub, 'POST', `${P}/apikeys/token`, { key: 'bad', json: {} }),
      await call(hub, 'POST', `${P}/points/users/recharge`, {
        key: hub.apiKey,
        json: { client_user_id: 'u', amount_cents: -1 },
      }),
    ];
    for (const r of responses) expect(r.body).toEqual({ code: r.status, message: expect.any(String), data: null });
  });
});
