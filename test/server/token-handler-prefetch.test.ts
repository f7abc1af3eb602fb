import { describe, expect, it } from 'vitest';
import { publishedListPath } from '../../src/core/paths.js';
import { createSimulator } from '../../packages/hub-embed-mock/src/hub.js';
import { createServerClient, type ServerClient } from '../../src/server/server-client.js';
import { createTokenHandler, type TokenHandlerOptions } from '../../src/server/token-handler.js';
import { TokenSource } from '../../src/core/token-source.js';
import { WebClient } from '../../src/core/web-client.js';

const APP = 'https://app.example.com';

function setup(overrides: Partial<TokenHandlerOptions> = {}, hubOptions: Parameters<typeof createSimulator>[0] = {}) {
  const hub = createSimulator({ tokenTtlSeconds: 600, ...hubOptions });
  const errors: unknown[] = [];
  /** Every URL the token handler's client asked for. */
  const urls: URL[] = [];
  const fetch: typeof hub.fetch = (input, init) => {
    urls.push(new URL(String(input)));
    return hub.fetch(input, init);
  };
  const client = createServerClient({ apiKey: hub.apiKey, baseUrl: hub.apiUrl, fetch, timeoutMs: 1000 });
  const handler = createTokenHandler({
    client,
    resolveClientUserId: (request) => request.headers.get('x-test-session'),
    onError: (e) => errors.push(e),
    prefetch: true,
    ...overrides,
  });
  /** What the service itself answers a user's Bearer request for `path`. */
  const direct = async (user: string, path: string) => {
    const token = (await client.exchangeToken(user)).accessToken;
    const response = await hub.fetch(`${hub.apiUrl}/projects/${path}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    return ((await response.json()) as { data: { list: unknown[] } }).data.list;
  };
  const upstream = (name: string) => hub.requestLog.filter((entry) => entry.path.endsWith(`/projects/${name}`));
  return { hub, client, handler, errors, direct, upstream, urls };
}

function post(user: string, body: unknown): Request {
  return new Request(`${APP}/api/hub-token`, {
    method: 'POST',
    headers: { 'x-test-session': user, 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

interface Answer {
  access_token: string;
  expires_in: number;
  prefetched?: Record<string, unknown[]>;
}

async function ask(handler: (request: Request) => Promise<Response>, user: string, body: unknown) {
  const response = await handler(post(user, body));
  return { status: response.status, body: (await response.json()) as Answer };
}

describe('createTokenHandler({prefetch})', () => {
  it('answers published-tags and the list for the load beside the token, under the paths the widget asks for', async () => {
    const { handler, direct } = setup();
    const { status, body } = await ask(handler, 'alice', { reason: 'initial', load: { tags: ['装修'], limit: 5 } });
    expect(status).toBe(200);
    expect(body.access_token).toEqual(expect.any(String));
    const listPath = publishedListPath({ tags: ['装修'], limit: 5 });
    expect(Object.keys(body.prefetched!).sort()).toEqual([listPath, 'published-tags'].sort());
    expect(body.prefetched!['published-tags']).toEqual(await direct('alice', 'published-tags'));
    expect(body.prefetched![listPath]).toEqual(await direct('alice', listPath));
    expect(body.prefetched![listPath]).toHaveLength(5);
  });

  it("under the deployment's root /api/v1/apihub: fetched there, and keyed by the paths the widget asks for there", async () => {
    const { handler, hub, urls } = setup({}, { apiPrefix: '/api/v1/apihub' });
    const load = { tags: ['装修'], limit: 5 };
    // The widget's client at the same root, whose token comes from the handler as its endpoint would.
    const asked: string[] = [];
    const tokens = new TokenSource(async (context) => {
      const response = await handler(post('ivan', { reason: context.reason, load: context.load }));
      return (await response.json()) as Answer;
    });
    const widget = new WebClient({
      baseUrl: `${hub.apiUrl}/`,
      tokens,
      fetch: (input, init) => {
        asked.push(String(input));
        return hub.fetch(input, init);
      },
    });
    await widget.tokenFor(load);
    const [tags, list] = await Promise.all([widget.publishedTags(), widget.publishedList(load)]);
    expect(asked).toEqual([]);
    expect(tags.length).toBeGreaterThan(0);
    expect(list).toHaveLength(5);
    expect(urls.map((url) => url.pathname).sort()).toEqual([
      '/api/v1/apihub/apikeys/token',
      '/api/v1/apihub/projects/published-list',
      '/api/v1/apihub/projects/published-tags',
    ]);
  });

  it('fetches with the user’s own new token, both answers in parallel after the exchange', async () => {
    const { handler, hub, upstream } = setup();
    const { body } = await ask(handler, 'bob', { reason: 'initial', load: { tags: [] } });
    expect(body.prefetched).toBeDefined();
    const exchange = hub.requestLog.findIndex((entry) => entry.path.endsWith('/apikeys/token'));
    const tags = hub.requestLog.indexOf(upstream('published-tags')[0]!);
    const list = hub.requestLog.indexOf(upstream('published-list')[0]!);
    expect(exchange).toBeGreaterThanOrEqual(0);
    expect(Math.min(tags, list)).toBeGreaterThan(exchange);
    expect(upstream('published-tags')[0]).toMatchObject({ status: 200 });
  });

  it('the same selection in another order or with duplicates goes to the same upstream URL', async () => {
    const { handler, urls } = setup();
    const a = await ask(handler, 'carol', { load: { tags: ['b', 'a', 'b'], limit: 3 } });
    const b = await ask(handler, 'dave', { load: { tags: ['a', 'b'], limit: 3 } });
    expect(Object.keys(a.body.prefetched!)).toEqual(Object.keys(b.body.prefetched!));
    const lists = urls.filter((url) => url.pathname.endsWith('/published-list')).map(String);
    expect(lists).toHaveLength(2);
    expect(lists[0]).toBe(lists[1]);
    expect(new URL(lists[0]!).searchParams.get('tags')).toBe('a,b');
  });

  it('without the prefetch option a load changes nothing: the token alone, nothing fetched', async () => {
    const { handler, upstream } = setup({ prefetch: undefined });
    const { status, body } = await ask(handler, 'erin', { reason: 'initial', load: { tags: ['装修'] } });
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in']);
    expect(upstream('published-tags')).toEqual([]);
  });

  it('without a load in the body there is no prefetch', async () => {
    const { handler, upstream } = setup();
    for (const body of [{ reason: 'initial' }, '', 'not json', 'null']) {
      const answer = await ask(handler, 'frank', body);
      expect(answer.status).toBe(200);
      expect(answer.body.prefetched).toBeUndefined();
    }
    expect(upstream('published-tags')).toEqual([]);
  });

  it('an upstream failure of the prefetch never fails the token answer; the error is reported', async () => {
    const { handler, errors } = setup({}, { faultRate: 1 });
    const { status, body } = await ask(handler, 'grace', { load: { tags: [] } });
    expect(status).toBe(200);
    expect(body.access_token).toEqual(expect.any(String));
    expect(body.prefetched).toBeUndefined();
    expect(errors).toHaveLength(1);
  });

  it('a prefetch later than timeoutMs is left out; the token goes without it', async () => {
    const hub = createSimulator({});
    const real = createServerClient({ apiKey: hub.apiKey, baseUrl: hub.baseUrl, fetch: hub.fetch });
    const never = new Promise<unknown[]>(() => undefined);
    const client: ServerClient = { ...real, publishedTags: () => never };
    const handler = createTokenHandler({
      client,
      resolveClientUserId: () => 'heidi',
      prefetch: { timeoutMs: 20 },
      onError: () => undefined,
    });
    const { status, body } = await ask(handler, 'heidi', { load: { tags: [] } });
    expect(status).toBe(200);
    expect(body.prefetched).toBeUndefined();
  });

  it('odd selections are not prefetched, and the token is still answered', async () => {
    const { handler, upstream } = setup();
    const odd: unknown[] = [
      null,
      [],
      'a',
      { tags: 'a' },
      { tags: [1] },
      { tags: [null] },
      { tags: Array.from({ length: 101 }, (_, i) => `t${i}`) },
      { tags: ['x'.repeat(201)] },
      { tags: ['a,b'] },
      { tags: ['line\nbreak'] },
      { tags: ['\u0000'] },
      { tags: ['\ud800'] },
      { tags: ['\udc00x'] },
      { tags: [], limit: 0 },
      { tags: [], limit: -1 },
      { tags: [], limit: 1.5 },
      { tags: [], limit: '20' },
      { tags: [], limit: 1001 },
      { tags: [], limit: Number.MAX_SAFE_INTEGER + 1 },
    ];
    for (const load of odd) {
      const { status, body } = await ask(handler, 'ivan', { reason: 'initial', load });
      expect(status, JSON.stringify(load)).toBe(200);
      expect(body.prefetched, JSON.stringify(load)).toBeUndefined();
    }
    expect(upstream('published-list')).toEqual([]);
  });

  it('hostile but valid tag text (HTML, U+2028, emoji) is sent upstream as data and keyed exactly', async () => {
    const { handler, urls } = setup();
    const tags = ['<img src=x onerror=alert(1)>', 'a\u2028b', '🧪 test', '"quoted"'];
    const { status, body } = await ask(handler, 'judy', { load: { tags } });
    expect(status).toBe(200);
    expect(Object.keys(body.prefetched!)).toContain(publishedListPath({ tags }));
    const sent = urls.find((url) => url.pathname.endsWith('/published-list'))!;
    expect(sent.searchParams.get('tags')).toBe([...tags].sort().join(','));
  });

  it('a body over 8 KB is still 413, load or not, and nothing is fetched', async () => {
    const { handler, upstream } = setup();
    const huge = { load: { tags: Array.from({ length: 100 }, () => 'x'.repeat(200)) } };
    expect(JSON.stringify(huge).length).toBeGreaterThan(8192);
    const response = await handler(post('ken', huge));
    expect(response.status).toBe(413);
    expect(upstream('published-tags')).toEqual([]);
  });

  it('cacheMs shares the answers between users of the same selection; off by default', async () => {
    const off = setup();
    await ask(off.handler, 'u1', { load: { tags: [] } });
    await ask(off.handler, 'u2', { load: { tags: [] } });
    expect(off.upstream('published-list')).toHaveLength(2);

    const on = setup({ prefetch: { cacheMs: 60_000 } });
    const first = await ask(on.handler, 'u1', { load: { tags: [] } });
    const second = await ask(on.handler, 'u2', { load: { tags: [] } });
    expect(on.upstream('published-list')).toHaveLength(1);
    expect(second.body.prefetched).toEqual(first.body.prefetched);
    await ask(on.handler, 'u3', { load: { tags: ['装修'] } });
    expect(on.upstream('published-list')).toHaveLength(2);
  });

  it('prefetch with a client lacking publishedTags/publishedList is a config error at creation', () => {
    expect(() =>
      createTokenHandler({
        client: { exchangeToken: async () => ({ accessToken: 't', expiresIn: 60 }) },
        resolveClientUserId: () => 'x',
        prefetch: true,
      }),
    ).toThrow(/publishedTags/);
    expect(() =>
      createTokenHandler({
        client: createServerClient({ apiKey: 'sk-x', baseUrl: 'https://hub.example.com' }),
        resolveClientUserId: () => 'x',
        prefetch: { cacheMs: -1 },
      }),
    ).toThrow(/cacheMs/);
  });
});
