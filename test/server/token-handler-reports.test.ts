// Issue 30, item 9: a Redis outage made 12,003 onError reports for 3,000 requests. One failure is now
// reported once per 10 s; repeats are counted into the next report.
import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../packages/hub-embed-mock/src/hub.js';
import { createServerClient } from '../../src/server/server-client.js';
import { createTokenHandler } from '../../src/server/token-handler.js';
import type { TokenCache } from '../../src/server/token-cache.js';

function setup(setFailure = 'connect ECONNREFUSED 127.0.0.1:6379') {
  const hub = createSimulator({ tokenTtlSeconds: 600 });
  let clock = 1_700_000_000_000;
  const errors: unknown[] = [];
  // A cache that is down: every call fails the same way, as a Redis outage does.
  const down: TokenCache = {
    get: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379')),
    set: () => Promise.reject(new Error(setFailure)),
    delete: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379')),
  };
  let user = 0;
  const handler = createTokenHandler({
    client: createServerClient({ apiKey: hub.apiKey, baseUrl: hub.baseUrl, fetch: hub.fetch }),
    cache: down,
    now: () => clock,
    resolveClientUserId: () => `user-${user++ % 50}`,
    onError: (error) => errors.push(error),
  });
  const ask = async () => (await handler(new Request('http://app.test/api/hub-token', { method: 'POST' }))).status;
  return { errors, ask, advance: (ms: number) => (clock += ms) };
}

describe('token handler onError under an outage', () => {
  it('3,000 requests against a cache that is down: every one answered, the outage reported once', async () => {
    const { errors, ask } = setup();
    for (let i = 0; i < 3000; i++) expect(await ask()).toBe(200);
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toMatch(/ECONNREFUSED/);
    // 3,000 requests in sequence: room for a loaded 2-core machine (a count, not a timing, is asserted).
  }, 120_000);

  it('after the window the next report is preceded by the count held back', async () => {
    const { errors, ask, advance } = setup();
    for (let i = 0; i < 10; i++) await ask();
    advance(10_000);
    await ask();
    expect(errors).toHaveLength(3);
    expect(String(errors[1])).toMatch(/^Error: 19 more like this in 10 s: Error: connect ECONNREFUSED/);
    expect(String(errors[2])).toMatch(/ECONNREFUSED/);
  });

  it('a different failure within the window is reported at once, and each only once', async () => {
    const { errors, ask } = setup("READONLY You can't write against a read only replica.");
    for (let i = 0; i < 100; i++) await ask();
    expect(errors.map(String)).toEqual([
      'Error: connect ECONNREFUSED 127.0.0.1:6379',
      "Error: READONLY You can't write against a read only replica.",
    ]);
  });
});
