import { describe, expect, it } from 'vitest';
import { WebClient } from '../../src/core/web-client.js';
import { canonicalTags, publishedListPath } from '../../src/core/paths.js';
import { tokenFromEndpoint } from '../../src/core/endpoint.js';
import { TokenSource, type TokenAnswer, type TokenContext } from '../../src/core/token-source.js';
import { createSimulator } from '../../packages/hub-embed-mock/src/hub.js';

/** A client on the simulator whose token provider answers `answer` beside each token; URLs recorded. */
function setup(answer: (ctx: TokenContext) => Record<string, unknown> | undefined) {
  const hub = createSimulator({});
  const urls: string[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    urls.push(request.url);
    return hub.fetch(request);
  }) as typeof globalThis.fetch;
  let tokens = 0;
  const source = new TokenSource(async (ctx): Promise<TokenAnswer> => {
    const response = await hub.fetch(`${hub.apiUrl}/apikeys/token`, {
      method: 'POST',
      headers: { 'X-API-Key': hub.apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_user_id: 'u' }),
    });
    tokens++;
    const { data } = (await response.json()) as { data: { access_token: string; expires_in: number } };
    return { ...data, prefetched: answer(ctx) };
  });
  const newClient = () => new WebClient({ baseUrl: hub.baseUrl, tokens: source, fetch });
  return { client: newClient(), newClient, source, urls, tokens: () => tokens };
}

describe('canonical tag order', () => {
  it('two orders of the same selection (and duplicates) give the same list URL', async () => {
    expect(publishedListPath({ tags: ['b', '装修', 'a'], limit: 5 })).toBe(
      publishedListPath({ tags: ['a', 'b', '装修', 'b'], limit: 5 }),
    );
    const { client, urls } = setup(() => undefined);
    await client.publishedList({ tags: ['delivery', 'urgent'] });
    await client.publishedList({ tags: ['urgent', 'delivery', 'urgent'] });
    const lists = urls.filter((url) => url.includes('published-list'));
    expect(lists[0]).toBe(lists[1]);
    expect(new URL(lists[0]!).searchParams.get('tags')).toBe('delivery,urgent');
  });

  it('blank tags are left out and the order is by UTF-16 code unit', () => {
    expect(canonicalTags([' ', 'b', '', 'B', 'a', '装修', '🧪'])).toEqual(['B', 'a', 'b', '装修', '🧪']);
  });

  it('a comma in a tag and a bad limit are still refused', () => {
    expect(() => publishedListPath({ tags: ['a,b'] })).toThrow(/comma/);
    expect(() => publishedListPath({ limit: 0 })).toThrow(/limit/);
  });
});

describe('prefetched answers: TokenSource hands them over, WebClient keeps and uses them', () => {
  it('an answer under the exact path stands in for that request, once', async () => {
    const path = publishedListPath({ tags: ['x'] });
    const { client, urls } = setup(() => ({ [path]: [{ short_code: 'p1', name: 'Prefetched' }] }));
    await client.tokenFor({ tags: ['x'] });
    expect(await client.publishedList({ tags: ['x'] })).toEqual([
      { short_code: 'p1', name: 'Prefetched', industry: '', tags: [] },
    ]);
    expect(urls).toEqual([]);
    await client.publishedList({ tags: ['x'] });
    expect(urls).toHaveLength(1);
  });

  it('the load given to get() reaches the provider; a cached token does not ask again', async () => {
    const loads: unknown[] = [];
    const { source, tokens } = setup((ctx) => {
      loads.push(ctx.load);
      return undefined;
    });
    await source.get({ load: { tags: ['a'], limit: 3 } });
    await source.get({ load: { tags: ['b'] } });
    expect(loads).toEqual([{ tags: ['a'], limit: 3 }]);
    expect(tokens()).toBe(1);
  });

  it('answers are replaced with the token: a new token without prefetched leaves none', async () => {
    let round = 0;
    const { client, source, urls } = setup(() => (round++ === 0 ? { 'published-tags': ['old'] } : undefined));
    await client.tokenFor({ tags: [] });
    source.invalidate(await source.get());
    await client.tokenFor({ tags: [] });
    expect(await client.publishedTags()).not.toEqual(['old']);
    expect(urls.filter((url) => url.includes('published-tags'))).toHaveLength(1);
  });

  it('answers are used only with the token they came with: one another client renewed meanwhile leaves them unused', async () => {
    let round = 0;
    const { client, newClient, source, urls } = setup(() =>
      round++ === 0 ? { 'published-tags': ['old'] } : undefined,
    );
    await client.tokenFor({ tags: [] });
    source.invalidate(await source.get());
    // Another widget on the same token source gets the new token; this client is then served it from
    // the source's cache, without an answer of its own.
    await newClient().tokenFor({ tags: [] });
    expect(await client.publishedTags()).not.toEqual(['old']);
    expect(urls.filter((url) => url.includes('published-tags'))).toHaveLength(1);
  });

  it('tokenFor(load) gets the one token the requests for load then share, and their prefetched answers', async () => {
    const loads: unknown[] = [];
    const { client, tokens, urls } = setup((ctx) => {
      loads.push(ctx.load);
      return { 'published-tags': ['pre'] };
    });
    await client.tokenFor({ tags: ['a'], limit: 3 });
    expect(loads).toEqual([{ tags: ['a'], limit: 3 }]);
    expect(await client.publishedTags()).toEqual(['pre']);
    expect(tokens()).toBe(1);
    expect(urls).toEqual([]);
  });

  it('anything but a list under the path is ignored and the network answers', async () => {
    for (const odd of [{ list: [] }, 'a', 7, null]) {
      const { client, urls } = setup(() => ({ 'published-tags': odd }));
      await client.tokenFor({ tags: [] });
      expect((await client.publishedTags()).length).toBeGreaterThan(0);
      expect(urls).toHaveLength(1);
    }
  });
});

describe('tokenFromEndpoint and prefetch', () => {
  it('sends the load in the body and hands prefetched on beside the checked token', async () => {
    const bodies: unknown[] = [];
    const fetch = (async (_url: RequestInfo | URL, init?: RequestInit) => {
      bodies.push(JSON.parse(String(init?.body)));
      return Response.json({ access_token: 't', expires_in: 60, prefetched: { 'published-tags': ['a'] } });
    }) as typeof globalThis.fetch;
    const answer = await tokenFromEndpoint('https://app.example.com/token', { fetch })({
      reason: 'initial',
      load: { tags: ['b', 'a'], limit: 2 },
    });
    expect(bodies).toEqual([{ reason: 'initial', load: { tags: ['b', 'a'], limit: 2 } }]);
    expect(answer).toEqual({ access_token: 't', expires_in: 60, prefetched: { 'published-tags': ['a'] } });
  });
});
