import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../packages/hub-embed-mock/src/hub.js';
import { createServerClient } from '../../src/server/server-client.js';
import { createTokenHandler } from '../../src/server/token-handler.js';
import { REFUSAL_HOLD_MS } from '../../src/server/token-supply.js';
import { tokenFromEndpoint } from '../../src/core/endpoint.js';

// The service can refuse a token before the handler's cache expects it to (revocation, a clock ahead of
// ours). The browser then asks again with {reason: 'unauthorized', previous}; the handler must not
// serve the refused token from its cache again, and must not let a page force endless exchanges.
function setup(now?: () => number) {
  const hub = createSimulator({ tokenTtlSeconds: 600 });
  const client = createServerClient({ apiKey: hub.apiKey, baseUrl: hub.baseUrl, fetch: hub.fetch });
  const handler = createTokenHandler({
    client,
    resolveClientUserId: () => 'user-alice',
    onError: () => undefined,
    ...(now === undefined ? {} : { now }),
  });
  const ask = async (body?: unknown) => {
    const response = await handler(
      new Request('https://app.example.com/api/hub-token', {
        method: 'POST',
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
    return ((await response.json()) as { access_token: string }).access_token;
  };
  const exchanges = () => hub.requestLog.filter((entry) => entry.path === '/api/v1/hub/apikeys/token').length;
  return { hub, handler, ask, exchanges };
}

describe('createTokenHandler: a token the service refused', () => {
  it('reason unauthorized with the cached token as previous gets a fresh token', async () => {
    const { ask, exchanges } = setup();
    const first = await ask();
    const second = await ask({ reason: 'unauthorized', previous: first });
    expect(second).not.toBe(first);
    expect(exchanges()).toBe(2);
  });

  it('a previous that is not the cached token changes nothing (no forced exchanges)', async () => {
    const { ask, exchanges } = setup();
    const first = await ask();
    expect(await ask({ reason: 'unauthorized', previous: 'some-other-token' })).toBe(first);
    expect(await ask({ reason: 'expiring', previous: first })).toBe(first);
    expect(await ask({ reason: 'unauthorized' })).toBe(first);
    expect(exchanges()).toBe(1);
  });

  it('the same refused token forces at most one exchange', async () => {
    const { ask, exchanges } = setup();
    const first = await ask();
    const fresh = await ask({ reason: 'unauthorized', previous: first });
    expect(await ask({ reason: 'unauthorized', previous: first })).toBe(fresh);
    expect(exchanges()).toBe(2);
  });

  it('malformed bodies are ignored, not errors', async () => {
    const { handler, exchanges } = setup();
    for (const body of [
      'not json',
      'null',
      '[]',
      '\u0000\uffff',
      JSON.stringify({ reason: 'unauthorized', previous: 7 }),
    ]) {
      const response = await handler(new Request('https://app.example.com/api/hub-token', { method: 'POST', body }));
      expect(response.status).toBe(200);
    }
    expect(exchanges()).toBe(1);
  });

  it('a body over 8 KB is answered 413 and changes nothing', async () => {
    const { handler, ask, exchanges } = setup();
    const first = await ask();
    const huge = JSON.stringify({ reason: 'unauthorized', previous: first, padding: 'x'.repeat(10_000) });
    const response = await handler(
      new Request('https://app.example.com/api/hub-token', { method: 'POST', body: huge }),
    );
    expect(response.status).toBe(413);
    expect(await ask()).toBe(first);
    expect(exchanges()).toBe(1);
  });

  it('end to end: the browser token provider sends previous on unauthorized and recovers', async () => {
    const { handler, hub } = setup();
    const fetch = ((input: RequestInfo | URL, init?: RequestInit) =>
      handler(new Request(new URL(String(input), 'https://app.example.com'), init))) as typeof globalThis.fetch;
    const provider = tokenFromEndpoint('/api/hub-token', { fetch });
    const first = await provider({ reason: 'initial' });
    const again = await provider({ reason: 'unauthorized', previous: first.access_token });
    expect(again.access_token).not.toBe(first.access_token);
    const response = await hub.fetch(`${hub.apiUrl}/projects/published-tags`, {
      headers: { Authorization: `Bearer ${again.access_token}` },
    });
    expect(response.status).toBe(200);
  });
});

describe('createTokenHandler: refusals cannot walk around the cache', () => {
  /** The handler's clock, moved by the test. */
  function clocked() {
    let time = Date.parse('2026-11-26T08:00:00Z');
    return { ...setup(() => time), advance: (ms: number) => (time += ms) };
  }

  it('a stream cannot happen: 200 calls, each sending the token just received as refused, make at most 2 exchanges', async () => {
    const { ask, exchanges } = clocked();
    let token = await ask();
    for (let call = 0; call < 200; call++) token = await ask({ reason: 'unauthorized', previous: token });
    // The first token (an ordinary exchange) is replaced at once; its replacement is held for 5 s.
    expect(exchanges()).toBe(2);
  });

  it(`a token that replaced a refused one is not refused again within ${REFUSAL_HOLD_MS} ms of its issue, and is after`, async () => {
    const { ask, exchanges, advance } = clocked();
    const first = await ask();
    const replacement = await ask({ reason: 'unauthorized', previous: first });
    expect(replacement).not.toBe(first);
    advance(REFUSAL_HOLD_MS - 1);
    expect(await ask({ reason: 'unauthorized', previous: replacement })).toBe(replacement);
    advance(1);
    const next = await ask({ reason: 'unauthorized', previous: replacement });
    expect(next).not.toBe(replacement);
    expect(exchanges()).toBe(3);
  });

  it(`200 refusals spread over 100 s make at most one exchange per ${REFUSAL_HOLD_MS / 1000} s, plus the first`, async () => {
    const { ask, exchanges, advance } = clocked();
    let token = await ask();
    for (let call = 0; call < 200; call++) {
      advance(500);
      token = await ask({ reason: 'unauthorized', previous: token });
    }
    expect(exchanges()).toBeLessThanOrEqual(1 + 1 + 100_000 / REFUSAL_HOLD_MS);
  });
});

describe('the refusal hold certify allows', () => {
  it("certify waits out exactly the toolkit's hold on a replacement token", async () => {
    const certify = await import('../../packages/hub-embed-mock/src/certify/token-rules.js');
    expect(certify.REFUSAL_HOLD_MS).toBe(REFUSAL_HOLD_MS);
  });
});
