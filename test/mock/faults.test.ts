import { afterEach, describe, expect, it, vi } from 'vitest';
import { P, call, expectErrorEnvelope, newHub, stateOf, tokenFor } from './helpers.js';

/** A seedable generator, so which requests fail is reproducible. */
function sequence(values: number[]): () => number {
  let i = 0;
  return () => values[i++ % values.length]!;
}

afterEach(() => vi.useRealTimers());

describe('fault injection', () => {
  it('faultRate answers HTTP 500 with an envelope on the fault paths, driven by random()', async () => {
    const hub = newHub({ faultRate: 0.5, random: sequence([0.1, 0.9]) });
    const token = await tokenFor(hub, 'u');
    const a = await call(hub, 'GET', `${P}/projects/published-list`, { bearer: token });
    const b = await call(hub, 'GET', `${P}/projects/published-list`, { bearer: token });
    expectErrorEnvelope(a, 500);
    expect(b.status).toBe(200);
  });

  it('faultRate leaves other paths alone by default', async () => {
    const hub = newHub({ faultRate: 1 });
    const token = await tokenFor(hub, 'u');
    expect((await call(hub, 'GET', `${P}/projects/published-tags`, { bearer: token })).status).toBe(200);
    expectErrorEnvelope(await call(hub, 'GET', `${P}/projects/published-list`, { bearer: token }), 500);
  });

  it('faultPaths picks the paths; an injected fault changes nothing', async () => {
    const hub = newHub({ faultRate: 1, faultPaths: [`${P}/points/users/recharge`] });
    const before = stateOf(hub);
    expectErrorEnvelope(
      await call(hub, 'POST', `${P}/points/users/recharge`, {
        key: hub.apiKey,
        json: { client_user_id: 'user-bob', amount_cents: 1 },
      }),
      500,
    );
    expect(stateOf(hub)).toBe(before);
  });

  it('latency with jitter delays every API response by latency + random() * jitter', async () => {
    vi.useFakeTimers();
    const hub = newHub({ latencyMs: 100, latencyJitterMs: 50, random: () => 0.5 });
    let done = false;
    const pending = call(hub, 'GET', '/nope').then((r) => {
      done = true;
      return r;
    });
    await vi.advanceTimersByTimeAsync(124);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await pending).status).toBe(404);
    expect(done).toBe(true);
  });

  it('an aborted hub.fetch rejects like fetch does', async () => {
    vi.useFakeTimers();
    const hub = newHub({ latencyMs: 1000 });
    const controller = new AbortController();
    const pending = hub.fetch(`${hub.baseUrl}${P}/projects/published-tags`, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('rejects out-of-range options with a clear error', () => {
    expect(() => newHub({ faultRate: 2 })).toThrow(/faultRate/);
    expect(() => newHub({ dropRate: -0.1 })).toThrow(/dropRate/);
    expect(() => newHub({ latencyMs: -1 })).toThrow(/latencyMs/);
    expect(() => newHub({ tokenTtlSeconds: 0 })).toThrow(/tokenTtlSeconds/);
    expect(() => newHub({ baseUrl: 'not a url' })).toThrow(/baseUrl/);
  });
});

describe('hub.fetch', () => {
  it('routes the API and form origins in-process and other origins to options.fetch', async () => {
    const outside: string[] = [];
    const hub = newHub({
      fetch: async (input) => {
        outside.push(String(input));
        return new Response('outside');
      },
    });
    const api = await hub.fetch(`${hub.apiUrl}/projects/published-tags`);
    expect(api.status).toBe(401);
    const asset = await hub.fetch(`${hub.formUrl}/_assets/form.css`);
    expect(asset.headers.get('content-type')).toContain('text/css');
    expect(await (await hub.fetch('http://elsewhere.test/x')).text()).toBe('outside');
    expect(outside).toEqual(['http://elsewhere.test/x']);
  });

  it('baseUrl and formUrl have no trailing slash', () => {
    const hub = newHub({ baseUrl: 'http://127.0.0.1:9000/', formUrl: 'http://127.0.0.1:9001//' });
    expect(hub.baseUrl).toBe('http://127.0.0.1:9000');
    expect(hub.formUrl).toBe('http://127.0.0.1:9001');
  });
});
