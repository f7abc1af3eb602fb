import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebClient } from '../../src/core/web-client.js';
import { HubError } from '../../src/core/errors.js';
import { TokenSource, type TokenContext } from '../../src/core/token-source.js';
import { createSimulator, type Simulator } from '../../packages/hub-embed-mock/src/hub.js';
import { defaultSeed } from '../../packages/hub-embed-mock/src/seed.js';
import type { MockSeed } from '../../packages/hub-embed-mock/src/types.js';

// Every test talks to the simulator in-process through hub.fetch. A recording wrapper lets the tests see
// the exact URLs and headers the client sent; a few tests reshape the simulator's real answer to play
// the alternatives the spec leaves open ("not shown").
interface Sent {
  url: string;
  authorization: string | null;
}

function setup(options: Parameters<typeof createSimulator>[0] = {}) {
  const hub = createSimulator(options);
  const sent: Sent[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    sent.push({ url: request.url, authorization: request.headers.get('authorization') });
    return hub.fetch(request);
  }) as typeof globalThis.fetch;
  const reasons: TokenContext[] = [];
  const tokens = new TokenSource(async (ctx) => {
    reasons.push(ctx);
    return exchange(hub, 'user-alice');
  });
  const client = new WebClient({ baseUrl: hub.baseUrl, tokens, fetch });
  return { hub, sent, tokens, client, reasons, fetch };
}

async function exchange(hub: Simulator, user: string) {
  const response = await hub.fetch(`${hub.apiUrl}/apikeys/token`, {
    method: 'POST',
    headers: { 'X-API-Key': hub.apiKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({ client_user_id: user }),
  });
  return ((await response.json()) as { data: { access_token: string; expires_in: number } }).data;
}

async function failure(promise: Promise<unknown>): Promise<HubError> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(HubError);
  return error as HubError;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('WebClient', () => {
  it('base-url: {base_url} with or without /api/v1/hub (and a trailing slash) asks the same URL, never doubled', async () => {
    for (const suffix of ['', '/', '/api/v1/hub', '/api/v1/hub/']) {
      const { hub, sent, tokens, fetch } = setup();
      const client = new WebClient({ baseUrl: hub.baseUrl + suffix, tokens, fetch });
      await client.publishedTags();
      expect(sent.at(-1)!.url).toBe(`${hub.baseUrl}/api/v1/hub/projects/published-tags`);
    }
  });

  it('base-url with a query, a fragment or credentials, or not http(s), is a config error naming base-url', () => {
    const tokens = new TokenSource(async () => ({ access_token: 't', expires_in: 60 }));
    for (const baseUrl of [
      'https://hub.example.com/?region=cn',
      'https://hub.example.com/#x',
      'https://user:pw@hub.example.com',
      'ftp://hub.example.com',
      'hub.example.com',
      '',
    ]) {
      let thrown: unknown;
      try {
        new WebClient({ baseUrl, tokens });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(HubError);
      expect((thrown as HubError).kind).toBe('config');
      expect((thrown as HubError).message).toContain('base-url');
    }
  });

  it('sends Bearer requests under {baseUrl}/api/v1/hub', async () => {
    const { client, sent, hub } = setup();
    await client.publishedTags();
    expect(sent[0]!.url).toBe(`${hub.baseUrl}/api/v1/hub/projects/published-tags`);
    expect(sent[0]!.authorization).toMatch(/^Bearer \S+$/);
    expect(hub.requestLog.at(-1)).toMatchObject({
      path: '/api/v1/hub/projects/published-tags',
      auth: 'bearer',
      status: 200,
    });
  });

  it('does not double the slash of a base URL with a trailing slash', async () => {
    const hub = createSimulator();
    const tokens = new TokenSource(() => exchange(hub, 'u'));
    const sent: string[] = [];
    const client = new WebClient({
      baseUrl: `${hub.baseUrl}/`,
      tokens,
      fetch: (async (i: RequestInfo | URL, init?: RequestInit) => (
        sent.push(String(i)),
        hub.fetch(i, init)
      )) as typeof fetch,
    });
    await client.publishedTags();
    expect(sent[0]).toBe(`${hub.baseUrl}/api/v1/hub/projects/published-tags`);
  });

  it('publishedTags unwraps the envelope into the de-duplicated, sorted tag list', async () => {
    const { client } = setup();
    const tags = await client.publishedTags();
    const expected = [...new Set(defaultSeed.tables.filter((t) => t.published).flatMap((t) => t.tags))].sort();
    expect(tags).toEqual(expected);
  });

  it('publishedList returns every published table with the spec fields', async () => {
    const { client, hub } = setup();
    const tables = await client.publishedList({ limit: 100 });
    expect(tables.length).toBe(defaultSeed.tables.filter((t) => t.published).length);
    for (const table of tables) {
      expect(typeof table.short_code).toBe('string');
      expect(typeof table.name).toBe('string');
      expect(typeof table.industry).toBe('string');
      expect(Array.isArray(table.tags)).toBe(true);
      expect(table.icon?.startsWith(hub.baseUrl)).toBe(true);
    }
  });

  it('a service that answers more tables than limit asked for is cut to limit (issue 30, item 9)', async () => {
    const hub = createSimulator();
    let answered = 0;
    // This service ignores limit: the query goes on without it, and every published table comes back.
    const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(new Request(input, init).url);
      url.searchParams.delete('limit');
      const response = await hub.fetch(new Request(url, init));
      if (url.pathname.endsWith('/published-list'))
        answered = ((await response.clone().json()) as { data: { list: unknown[] } }).data.list.length;
      return response;
    }) as typeof globalThis.fetch;
    const client = new WebClient({
      baseUrl: hub.baseUrl,
      tokens: new TokenSource(() => exchange(hub, 'user-alice')),
      fetch,
    });
    const tables = await client.publishedList({ limit: 3 });
    expect(answered).toBeGreaterThan(3);
    expect(tables).toHaveLength(3);
  });

  it('comma-joins and URL-encodes tags and leaves empty tags out', async () => {
    const { client, sent } = setup();
    await client.publishedList({ tags: ['delivery', '', '  ', '冷链 & co'], limit: 5 });
    const url = new URL(sent[0]!.url);
    expect(url.search).toBe(`?tags=${encodeURIComponent('delivery,冷链 & co')}&limit=5`);
    expect(url.searchParams.get('tags')).toBe('delivery,冷链 & co');
  });

  it('sends no tags parameter when no tag is selected', async () => {
    const { client, sent } = setup();
    await client.publishedList({ tags: [] });
    expect(new URL(sent[0]!.url).searchParams.has('tags')).toBe(false);
  });

  it('the simulator puts tables matching any tag first', async () => {
    const { client } = setup();
    const tables = await client.publishedList({ tags: ['delivery'], limit: 100 });
    const firstMiss = tables.findIndex((t) => !t.tags.some((tag) => tag.toLowerCase().includes('delivery')));
    expect(firstMiss).toBeGreaterThan(0);
    expect(tables.slice(firstMiss).every((t) => !t.tags.some((tag) => tag.includes('delivery')))).toBe(true);
  });

  it('a tag containing a comma is a config error and nothing is sent', async () => {
    const { client, sent } = setup();
    const error = await failure(client.publishedList({ tags: ['a,b'] }));
    expect(error.kind).toBe('config');
    expect(sent).toHaveLength(0);
  });

  it.each([0, -1, 1.5, Number.NaN])('limit %s is a config error', async (limit) => {
    const { client, sent } = setup();
    expect((await failure(client.publishedList({ limit }))).kind).toBe('config');
    expect(sent).toHaveLength(0);
  });

  it('refuses a base URL that is not absolute http(s)', () => {
    const tokens = new TokenSource(async () => ({ access_token: 'x', expires_in: 60 }));
    for (const baseUrl of ['', '/api', 'javascript:alert(1)', 'ftp://x.example']) {
      expect(() => new WebClient({ baseUrl, tokens })).toThrow(HubError);
    }
  });

  it('HTTP 401 invalidates the token and retries once with a fresh one (reason unauthorized)', async () => {
    const { client, hub, reasons, sent } = setup({ tokenTtlSeconds: 60 });
    await client.publishedTags();
    // The service forgets the token early (its clock runs ahead of ours): the next call gets a 401.
    hub.clock.advance(61_000);
    expect((await client.publishedTags()).length).toBeGreaterThan(0);
    expect(reasons.map((r) => r.reason)).toEqual(['initial', 'unauthorized']);
    expect(reasons[1]!.previous).toBe(sent[0]!.authorization!.slice('Bearer '.length));
    expect(sent.map((s) => s.authorization)).toEqual([
      sent[0]!.authorization,
      sent[0]!.authorization,
      sent[2]!.authorization,
    ]);
    expect(sent[2]!.authorization).not.toBe(sent[0]!.authorization);
  });

  it('a second 401 after the retry is a token error: the service refuses the tokens this page gets', async () => {
    const hub = createSimulator();
    let calls = 0;
    const tokens = new TokenSource(async () => ({ access_token: `not-a-real-token-${++calls}`, expires_in: 3600 }));
    const client = new WebClient({ baseUrl: hub.baseUrl, tokens, fetch: hub.fetch });
    const error = await failure(client.publishedTags());
    expect(error.kind).toBe('token');
    expect(error.status).toBe(401);
    expect(error.message).toContain('published-tags answered 401');
    expect(calls).toBe(2);
  });

  it('an HTTP error with an envelope is an api error carrying its status, code and message', async () => {
    const { client } = setup({ faultRate: 1, faultPaths: ['/api/v1/hub/projects/published-list'] });
    const error = await failure(client.publishedList());
    expect(error.kind).toBe('api');
    expect(error.status).toBe(500);
    expect(error.code).toBe(500);
  });

  it('an envelope with code other than 200 is an api error even under HTTP 200', async () => {
    const { hub, tokens } = setup();
    const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const real = await hub.fetch(input, init);
      const body = (await real.json()) as object;
      return Response.json({ ...body, code: 40301, message: 'tag filter not allowed' });
    }) as typeof globalThis.fetch;
    const error = await failure(new WebClient({ baseUrl: hub.baseUrl, tokens, fetch }).publishedTags());
    expect(error).toMatchObject({ kind: 'api', code: 40301, status: 200 });
    expect(error.message).toContain('tag filter not allowed');
  });

  it('an error body that is not an envelope is still an api error with the HTTP status', async () => {
    const { hub, tokens } = setup();
    const fetch = (async () => new Response('<html>Bad gateway</html>', { status: 502 })) as typeof globalThis.fetch;
    const error = await failure(new WebClient({ baseUrl: hub.baseUrl, tokens, fetch }).publishedTags());
    expect(error).toMatchObject({ kind: 'api', status: 502 });
  });

  it.each([
    ['a non-JSON body', () => new Response('not json', { status: 200 })],
    ['a body without the envelope', () => Response.json({ list: ['a'] })],
    ['data.list that is not an array', () => Response.json({ code: 200, message: 'success', data: { list: 'a,b' } })],
  ])('%s is invalid-response', async (_, answer) => {
    const { hub, tokens } = setup();
    const error = await failure(
      new WebClient({ baseUrl: hub.baseUrl, tokens, fetch: (async () => answer()) as typeof fetch }).publishedTags(),
    );
    expect(error.kind).toBe('invalid-response');
  });

  it('drops and counts items without short_code or name; keeps the rest; tolerates total per item or in data', async () => {
    const seed: MockSeed = structuredClone(defaultSeed);
    const { hub, tokens } = setup({ seed });
    const dropped: number[] = [];
    const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const real = (await (await hub.fetch(input, init)).json()) as {
        code: number;
        message: string;
        data: { list: Record<string, unknown>[] };
      };
      const list = real.data.list.slice(0, 4);
      delete list[0]!.short_code;
      list[1]!.name = '';
      list[2]!.tags = ['ok', 42, null];
      list[2]!.total = 4;
      list.push('not an object' as never, null as never);
      return Response.json({ ...real, data: { list, total: list.length } });
    }) as typeof globalThis.fetch;
    const client = new WebClient({ baseUrl: hub.baseUrl, tokens, fetch, onDropped: (n) => dropped.push(n) });
    const tables = await client.publishedList();
    expect(tables).toHaveLength(2);
    expect(tables[0]!.tags).toEqual(['ok']);
    expect(tables[0]!.total).toBe(4);
    expect(dropped).toEqual([4]);
  });

  it('keeps icon only when it is an http(s) URL and defaults tags to []', async () => {
    const { hub, tokens } = setup();
    const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const real = (await (await hub.fetch(input, init)).json()) as { data: { list: Record<string, unknown>[] } };
      const list = real.data.list;
      list[0]!.icon = 'javascript:alert(1)';
      list[1]!.icon = 'data:image/svg+xml,<svg onload=alert(1)>';
      delete list[2]!.tags;
      return Response.json(real);
    }) as typeof globalThis.fetch;
    const tables = await new WebClient({ baseUrl: hub.baseUrl, tokens, fetch }).publishedList({ limit: 3 });
    expect(tables.map((t) => t.icon === undefined)).toEqual([true, true, false]);
    expect(tables[2]!.tags).toEqual([]);
  });

  it('an aborted signal gives aborted', async () => {
    const { client } = setup({ latencyMs: 50 });
    const controller = new AbortController();
    const pending = client.publishedList({ signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    expect((await failure(pending)).kind).toBe('aborted');
    expect((await failure(client.publishedList({ signal: AbortSignal.abort() }))).kind).toBe('aborted');
  });

  it('a response slower than timeoutMs gives timeout', async () => {
    const hub = createSimulator({ latencyMs: 200 });
    const tokens = new TokenSource(async () => ({ access_token: 'whatever', expires_in: 3600 }));
    const client = new WebClient({ baseUrl: hub.baseUrl, tokens, fetch: hub.fetch, timeoutMs: 20 });
    const error = await failure(client.publishedTags());
    expect(error.kind).toBe('timeout');
  });

  it('a refused connection gives network', async () => {
    const tokens = new TokenSource(async () => ({ access_token: 't', expires_in: 3600 }));
    const fetch = (async () => {
      throw new TypeError('Failed to fetch');
    }) as typeof globalThis.fetch;
    expect((await failure(new WebClient({ baseUrl: 'http://127.0.0.1:9', tokens, fetch }).publishedTags())).kind).toBe(
      'network',
    );
  });
});
