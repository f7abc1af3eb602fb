import { describe, expect, it } from 'vitest';
import { createServerClient } from '../../src/server/server-client.js';
import { WebClient } from '../../src/core/web-client.js';
import { TokenSource } from '../../src/core/token-source.js';
import { DEPLOYMENT_API_PREFIX, JWT_SHAPE, SPEC_API_PREFIX } from '../fixtures/service-examples.js';
import { KEYS, call, expectErrorEnvelope, newHub, stateOf, useStartedSimulators } from './helpers.js';

const ENDPOINTS = [
  ['POST', '/apikeys/token'],
  ['GET', '/projects/published-tags'],
  ['GET', '/projects/published-list'],
  ['GET', '/points/users/balance'],
  ['POST', '/points/users/recharge'],
  ['GET', '/points/users/logs'],
] as const;

describe('apiPrefix: the simulator serves its open API under the prefix chosen', () => {
  it("default: the spec's /api/v1/hub; apiUrl is baseUrl + apiPrefix", () => {
    const hub = newHub();
    expect(hub.apiPrefix).toBe(SPEC_API_PREFIX);
    expect(hub.apiUrl).toBe(`${hub.baseUrl}/api/v1/hub`);
  });

  it('/api/v1/apihub: all six endpoints answer there and nowhere else (the spec path is 404, saying where)', async () => {
    const hub = newHub({ apiPrefix: DEPLOYMENT_API_PREFIX });
    expect(hub.apiUrl).toBe(`${hub.baseUrl}/api/v1/apihub`);
    for (const [method, path] of ENDPOINTS) {
      // No credentials: a served endpoint refuses with 401, an unserved path is 404.
      expect((await call(hub, method, `${DEPLOYMENT_API_PREFIX}${path}`)).status, path).toBe(401);
      const spec = await call(hub, method, `${SPEC_API_PREFIX}${path}`);
      expectErrorEnvelope(spec, 404);
      expect(spec.body.message).toContain('The open API is under /api/v1/apihub/.');
      expectErrorEnvelope(await call(hub, method, `${DEPLOYMENT_API_PREFIX}${DEPLOYMENT_API_PREFIX}${path}`), 404);
    }
    const token = await call(hub, 'POST', `${DEPLOYMENT_API_PREFIX}/apikeys/token`, {
      key: KEYS.active,
      json: { client_user_id: 'user-alice' },
    });
    expect(token.body.data.access_token).toMatch(JWT_SHAPE);
    const list = await call(hub, 'GET', `${DEPLOYMENT_API_PREFIX}/projects/published-list`, {
      bearer: token.body.data.access_token,
      query: { tags: '' },
    });
    expect(list.status).toBe(200);
    expect(hub.requestLog.at(-1)).toMatchObject({ path: '/api/v1/apihub/projects/published-list', status: 200 });
  });

  it('the default fault path follows the prefix', async () => {
    const hub = newHub({ apiPrefix: DEPLOYMENT_API_PREFIX, faultRate: 1 });
    const token = await call(hub, 'POST', `${DEPLOYMENT_API_PREFIX}/apikeys/token`, {
      key: KEYS.active,
      json: { client_user_id: 'user-alice' },
    });
    const bearer = token.body.data.access_token as string;
    expectErrorEnvelope(await call(hub, 'GET', `${DEPLOYMENT_API_PREFIX}/projects/published-list`, { bearer }), 500);
    expect((await call(hub, 'GET', `${DEPLOYMENT_API_PREFIX}/projects/published-tags`, { bearer })).status).toBe(200);
  });

  it('CORS preflights under the prefix are granted to loopback origins as before', async () => {
    const hub = newHub({ apiPrefix: DEPLOYMENT_API_PREFIX });
    const res = await hub.handleApi(
      new Request(`${hub.apiUrl}/projects/published-list`, {
        method: 'OPTIONS',
        headers: { origin: 'http://localhost:5173', 'access-control-request-headers': 'authorization' },
      }),
    );
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
  });

  it('a prefix that is not /api/v<n>/<segment> is a TypeError naming the option, before anything starts', () => {
    for (const bad of [
      '/api/v1',
      '/api/v1/',
      'api/v1/apihub',
      '/api/v1/apihub/',
      '/api/vx/hub',
      '/API/v1/hub',
      '/api/v1/..',
      '/api/v1/.hidden',
      '/api/v1/a%2Fb',
      '/api/v1/a/b',
      '/prefix/api/v1/hub',
      'https://host/api/v1/hub',
      '',
      42,
    ]) {
      expect(() => newHub({ apiPrefix: bad as string }), String(bad)).toThrow(
        /apiPrefix must be \/api\/v<n>\/<segment>, such as \/api\/v1\/hub or \/api\/v1\/apihub/,
      );
    }
  });
});

describe('every client, given the API root /api/v1/apihub, reaches the simulator served there', () => {
  const start = useStartedSimulators();

  it('the server client (points balance, recharge, logs, token) and the widget client (tags, list)', async () => {
    const hub = newHub({ apiPrefix: DEPLOYMENT_API_PREFIX });
    for (const baseUrl of [hub.apiUrl, `${hub.apiUrl}/`]) {
      const before = hub.requestLog.length;
      const server = createServerClient({ apiKey: hub.apiKey, baseUrl, fetch: hub.fetch });
      expect(server.apiRoot).toBe(hub.apiUrl);
      expect(server.baseUrl).toBe(hub.baseUrl);
      const { accessToken } = await server.exchangeToken('user-alice');
      expect(accessToken).toMatch(JWT_SHAPE);
      expect((await server.balance('user-alice')).balanceCents).toBeGreaterThanOrEqual(5000);
      await server.recharge({ clientUserId: 'user-alice', amountCents: 100 });
      expect((await server.logs('user-alice')).list[0]).toMatchObject({ recordType: 'recharge' });
      const tokens = new TokenSource(async () => ({ access_token: accessToken, expires_in: 600 }));
      const widget = new WebClient({ baseUrl, tokens, fetch: hub.fetch });
      expect((await widget.publishedTags()).length).toBeGreaterThan(0);
      expect((await widget.publishedList({ tags: [] })).length).toBeGreaterThan(0);
      const paths = hub.requestLog.slice(before).map((entry) => `${entry.status} ${entry.path}`);
      expect(
        paths.every((line) => line.startsWith('200 /api/v1/apihub/')),
        paths.join('\n'),
      ).toBe(true);
      expect(paths.filter((line) => line.split('/api/').length > 2)).toEqual([]);
    }
  });

  it('a doubled root is refused before any request, so nothing reaches the simulator', async () => {
    const hub = newHub({ apiPrefix: DEPLOYMENT_API_PREFIX });
    const before = stateOf(hub);
    const client = createServerClient({ apiKey: hub.apiKey, baseUrl: `${hub.apiUrl}/api/v1/hub`, fetch: hub.fetch });
    await expect(client.exchangeToken('user-alice')).rejects.toThrow(/baseUrl/);
    expect(hub.requestLog).toHaveLength(0);
    expect(stateOf(hub)).toBe(before);
  });

  it('over node:http too (startSimulator resolves to apiUrl)', async () => {
    const mock = await start({ apiPrefix: DEPLOYMENT_API_PREFIX });
    expect(mock.apiUrl).toBe(`${mock.baseUrl}/api/v1/apihub`);
    const server = createServerClient({ apiKey: mock.apiKey, baseUrl: mock.apiUrl });
    expect((await server.balance('user-alice')).balanceCents).toBe(5000);
  });
});
