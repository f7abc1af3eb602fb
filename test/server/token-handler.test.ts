import { describe, expect, it } from 'vitest';
import { createSimulator, type Simulator } from '../../packages/hub-embed-mock/src/hub.js';
import { createServerClient } from '../../src/server/server-client.js';
import { createMemoryTokenCache, type CachedToken, type TokenCache } from '../../src/server/token-cache.js';
import { createTokenHandler, type TokenHandlerOptions } from '../../src/server/token-handler.js';

const APP = 'https://app.example.com';

/** The developer's "session": a header standing in for a cookie lookup. */
const sessionUser = (request: Request) => request.headers.get('x-test-session');

function setup(overrides: Partial<TokenHandlerOptions> = {}, hubOptions: Parameters<typeof createSimulator>[0] = {}) {
  const hub = createSimulator({ tokenTtlSeconds: 600, ...hubOptions });
  let time = Date.UTC(2025, 0, 1);
  const clock = { now: () => time, advance: (ms: number) => (time += ms) };
  const errors: unknown[] = [];
  const client = createServerClient({ apiKey: hub.apiKey, baseUrl: hub.baseUrl, fetch: hub.fetch, timeoutMs: 50 });
  const handler = createTokenHandler({
    client,
    resolveClientUserId: sessionUser,
    now: clock.now,
    onError: (e) => errors.push(e),
    ...overrides,
  });
  return { hub, handler, clock, errors };
}

function post(user: string | null, init: { origin?: string; method?: string; body?: string } = {}): Request {
  const headers: Record<string, string> = {};
  if (user !== null) headers['x-test-session'] = user;
  if (init.origin !== undefined) headers.origin = init.origin;
  const method = init.method ?? 'POST';
  return new Request(`${APP}/api/hub-token`, {
    method,
    headers,
    ...(init.body === undefined ? {} : { body: init.body }),
  });
}

function exchanges(hub: Simulator) {
  return hub.requestLog.filter((entry) => entry.path === '/api/v1/hub/apikeys/token');
}

describe('createTokenHandler (against the simulator)', () => {
  it('answers {access_token, expires_in} with Cache-Control: no-store for the session user', async () => {
    const { hub, handler } = setup();
    const response = await handler(post('user-alice'));
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as { access_token: string; expires_in: number };
    expect(body.expires_in).toBe(600);
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in']);
    expect(exchanges(hub)[0]).toMatchObject({ clientUserId: 'user-alice', status: 200 });
  });

  it('no session -> 401, and nothing is exchanged', async () => {
    const { hub, handler } = setup();
    for (const user of [null, '', '  ']) expect((await handler(post(user))).status).toBe(401);
    expect(exchanges(hub)).toEqual([]);
  });

  it('never takes client_user_id from the browser: a body naming another user is ignored', async () => {
    const { hub, handler } = setup();
    await handler(post('user-bob', { body: JSON.stringify({ client_user_id: 'user-alice' }) }));
    expect(exchanges(hub).map((e) => e.clientUserId)).toEqual(['user-bob']);
  });

  it('GET -> 405 with Allow: POST', async () => {
    const { handler } = setup();
    const response = await handler(post('user-alice', { method: 'GET' }));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });

  it('a foreign Origin -> 403 when allowedOrigins is set; a missing Origin too', async () => {
    const { hub, handler } = setup({ allowedOrigins: [APP] });
    expect((await handler(post('user-alice', { origin: 'https://evil.example' }))).status).toBe(403);
    expect((await handler(post('user-alice', { origin: 'null' }))).status).toBe(403);
    expect((await handler(post('user-alice'))).status).toBe(403);
    expect(exchanges(hub)).toEqual([]);
  });

  it('an allowed Origin gets the token with CORS headers for credentials', async () => {
    const { handler } = setup({ allowedOrigins: [`${APP}/`] });
    const response = await handler(post('user-alice', { origin: APP }));
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(APP);
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
    expect(response.headers.get('vary')).toBe('Origin');
  });

  it('answers a preflight only for an allowed Origin', async () => {
    const { handler } = setup({ allowedOrigins: [APP] });
    expect((await handler(post(null, { method: 'OPTIONS', origin: APP }))).status).toBe(204);
    expect((await handler(post(null, { method: 'OPTIONS', origin: 'https://evil.example' }))).status).toBe(405);
  });

  it.each([['app.example.com'], ['https://app.example.com/path'], ['javascript:alert(1)']])(
    'allowedOrigins entry %j is a config error',
    (origin) => {
      expect(() => setup({ allowedOrigins: [origin] })).toThrow(/allowedOrigins/);
    },
  );

  it('100 concurrent requests from 10 users -> 10 upstream exchanges, each user getting their own token', async () => {
    const { hub, handler } = setup();
    const users = Array.from({ length: 10 }, (_, i) => `user-${i}`);
    const responses = await Promise.all(Array.from({ length: 100 }, (_, i) => handler(post(users[i % 10]!))));
    const bodies = (await Promise.all(responses.map((r) => r.json()))) as { access_token: string }[];
    expect(responses.every((r) => r.status === 200)).toBe(true);
    expect(exchanges(hub).length).toBe(10);
    expect(new Set(exchanges(hub).map((e) => e.clientUserId))).toEqual(new Set(users));
    for (let i = 0; i < 100; i++) expect(bodies[i]!.access_token).toBe(bodies[i % 10]!.access_token);
    expect(new Set(bodies.map((b) => b.access_token)).size).toBe(10);
  });

  it('reuses a cached token while more than half its lifetime is left, then exchanges again', async () => {
    const { hub, handler, clock } = setup();
    const first = (await (await handler(post('user-alice'))).json()) as { access_token: string };
    clock.advance(299_000);
    const reused = (await (await handler(post('user-alice'))).json()) as { access_token: string; expires_in: number };
    expect(reused.access_token).toBe(first.access_token);
    expect(reused.expires_in).toBe(301);
    expect(exchanges(hub).length).toBe(1);
    clock.advance(1_000);
    const renewed = (await (await handler(post('user-alice'))).json()) as { access_token: string; expires_in: number };
    expect(exchanges(hub).length).toBe(2);
    expect(renewed.expires_in).toBe(600);
  });

  it('the key disabled through the simulator console -> 502 with no key material in the body', async () => {
    const { hub, handler, errors } = setup();
    hub.disableKey(hub.apiKey);
    const response = await handler(post('user-alice'));
    expect(response.status).toBe(502);
    const text = await response.text();
    expect(text).not.toContain(hub.apiKey);
    expect(text).not.toMatch(/sk-|disabled|api.?key|401/i);
    expect(errors.length).toBe(1);
  });

  it('an upstream timeout -> 504', async () => {
    const { handler } = setup({}, { latencyMs: 2000 });
    const response = await handler(post('user-alice'));
    expect(response.status).toBe(504);
  });

  it('a failed exchange is not cached: the next request tries again', async () => {
    const { hub, handler } = setup();
    hub.disableKey(hub.apiKey);
    expect((await handler(post('user-alice'))).status).toBe(502);
    expect((await handler(post('user-alice'))).status).toBe(502);
    expect(exchanges(hub).length).toBe(2);
  });

  it('a throwing session lookup -> 500 without details', async () => {
    const { handler } = setup({
      resolveClientUserId: () => {
        throw new Error('session store <down>');
      },
    });
    const response = await handler(post('user-alice'));
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain('session store');
  });

  it("a shared TokenCache serves several server instances: the second instance reuses the first one's token", async () => {
    const store = new Map<string, string>();
    const sets: number[] = [];
    // Stands in for Redis: values cross as JSON text, and every call is asynchronous.
    const shared: TokenCache = {
      get: async (key) => (store.has(key) ? (JSON.parse(store.get(key)!) as CachedToken) : undefined),
      set: async (key, value, ttlMs) => {
        sets.push(ttlMs);
        store.set(key, JSON.stringify(value));
      },
      delete: async (key) => void store.delete(key),
    };
    const a = setup({ cache: shared });
    const hub = a.hub;
    const client = createServerClient({ apiKey: hub.apiKey, baseUrl: hub.baseUrl, fetch: hub.fetch });
    const b = createTokenHandler({ client, resolveClientUserId: sessionUser, cache: shared, now: a.clock.now });
    const fromA = (await (await a.handler(post('user-alice'))).json()) as { access_token: string };
    const fromB = (await (await b(post('user-alice'))).json()) as { access_token: string };
    expect(fromB.access_token).toBe(fromA.access_token);
    expect(exchanges(hub).length).toBe(1);
    expect(sets).toEqual([300_000]);
  });

  it('a failing cache costs an exchange, not the answer', async () => {
    const broken: TokenCache = {
      get: () => Promise.reject(new Error('redis down')),
      set: () => Promise.reject(new Error('redis down')),
      delete: () => undefined,
    };
    const { handler, errors } = setup({ cache: broken });
    expect((await handler(post('user-alice'))).status).toBe(200);
    // The get and the set failed the same way: one report (test/server/token-handler-reports.test.ts).
    expect(errors.map(String)).toEqual(['Error: redis down']);
  });

  it('an expired or malformed cached entry is never handed out', async () => {
    const cache = createMemoryTokenCache();
    const { hub, handler, clock } = setup({ cache });
    cache.set(
      'user-alice',
      { accessToken: 'stale', issuedAt: clock.now() - 600_000, expiresAt: clock.now() - 1 },
      60_000,
    );
    cache.set('user-bob', { accessToken: '', issuedAt: clock.now(), expiresAt: clock.now() + 600_000 }, 60_000);
    const alice = (await (await handler(post('user-alice'))).json()) as { access_token: string };
    const bob = (await (await handler(post('user-bob'))).json()) as { access_token: string };
    expect(alice.access_token).not.toBe('stale');
    expect(bob.access_token).not.toBe('');
    expect(exchanges(hub).length).toBe(2);
  });

  it('needs a client and a resolveClientUserId', () => {
    expect(() => createTokenHandler({} as TokenHandlerOptions)).toThrow(/client/);
    const hub = createSimulator();
    const client = createServerClient({ apiKey: hub.apiKey, baseUrl: hub.baseUrl, fetch: hub.fetch });
    expect(() => createTokenHandler({ client } as unknown as TokenHandlerOptions)).toThrow(/resolveClientUserId/);
  });
});

describe('createMemoryTokenCache', () => {
  it('is bounded: the least recently used user goes first', () => {
    const cache = createMemoryTokenCache({ max: 2 });
    const token = (t: string): CachedToken => ({ accessToken: t, issuedAt: 0, expiresAt: 1 });
    cache.set('a', token('a'), 60_000);
    cache.set('b', token('b'), 60_000);
    cache.get('a');
    cache.set('c', token('c'), 60_000);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toEqual(token('a'));
    expect(cache.get('c')).toEqual(token('c'));
  });

  it('delete removes an entry', () => {
    const cache = createMemoryTokenCache();
    cache.set('a', { accessToken: 'x', issuedAt: 0, expiresAt: 1 }, 60_000);
    cache.delete('a');
    expect(cache.get('a')).toBeUndefined();
  });

  it('drops an entry after its TTL', () => {
    let time = 5_000;
    const cache = createMemoryTokenCache({ now: () => time });
    cache.set('a', { accessToken: 'x', issuedAt: 0, expiresAt: 1 }, 1_000);
    time += 999;
    expect(cache.get('a')).toBeDefined();
    time += 2;
    expect(cache.get('a')).toBeUndefined();
  });

  it.each([[0], [-1], [1.5]])('max %d is refused', (max) => {
    expect(() => createMemoryTokenCache({ max })).toThrow(RangeError);
  });
});
