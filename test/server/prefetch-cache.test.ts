// Issue 30, item 3: with prefetch.cacheMs, one signed-in user sending 1,000 distinct selections raised
// RSS by 482 MB; the shared cache was bounded by count. It is bounded by bytes now, and every selection
// shares one tags entry.
import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../packages/hub-embed-mock/src/hub.js';
import { createServerClient } from '../../src/server/server-client.js';
import { createPrefetcher } from '../../src/server/prefetch.js';

async function setup(cacheBytes?: number) {
  // Counted as they come: the simulator's own request log keeps only the newest entries.
  const paths: string[] = [];
  const hub = createSimulator({ tokenTtlSeconds: 600, onRequest: (entry) => paths.push(entry.path) });
  const client = createServerClient({ apiKey: hub.apiKey, baseUrl: hub.baseUrl, fetch: hub.fetch });
  const token = (await client.exchangeToken('user-alice')).accessToken;
  const errors: unknown[] = [];
  const prefetch = createPrefetcher(client, { cacheMs: 60_000, ...(cacheBytes ? { cacheBytes } : {}) }, (e) =>
    errors.push(e),
  );
  const requests = (path: string) => paths.filter((entry) => entry.includes(path)).length;
  return { prefetch, token, errors, requests };
}

describe('prefetch cache (cacheMs): bounded by bytes, one tags entry', () => {
  it('1,000 distinct selections from one user hold at most cacheBytes, and published-tags is fetched once', async () => {
    const bound = 64 * 1024;
    const { prefetch, token, errors, requests } = await setup(bound);
    for (let i = 0; i < 1000; i++) {
      const answers = await prefetch(token, { tags: [`tag-${i}`], limit: 5 });
      expect(answers?.['published-tags']).toBeDefined();
      expect(prefetch.cachedBytes).toBeLessThanOrEqual(bound);
    }
    expect(errors).toEqual([]);
    expect(prefetch.cachedBytes).toBeGreaterThan(bound / 2); // it does cache, up to the bound
    expect(requests('/published-tags')).toBe(1);
    expect(requests('/published-list')).toBe(1000);
  });

  it('a selection asked again within cacheMs is served from the cache', async () => {
    const { prefetch, token, requests } = await setup();
    const first = await prefetch(token, { tags: ['HR'] });
    const second = await prefetch(token, { tags: ['HR'] });
    expect(second).toEqual(first);
    expect(requests('/published-list')).toBe(1);
  });

  it('a list larger than the whole bound is answered but not kept', async () => {
    const { prefetch, token, requests } = await setup(16);
    await prefetch(token, { tags: [], limit: 100 });
    expect(prefetch.cachedBytes).toBe(0);
    await prefetch(token, { tags: [], limit: 100 });
    expect(requests('/published-list')).toBe(2);
  });

  it('cacheBytes that is not a whole number above 0 is a config error', () => {
    const client = createServerClient({ apiKey: 'k', baseUrl: 'https://hub.example' });
    for (const cacheBytes of [0, -1, 1.5, Number.NaN]) {
      expect(() => createPrefetcher(client, { cacheMs: 1000, cacheBytes }, () => {})).toThrow(/cacheBytes/);
    }
  });
});
