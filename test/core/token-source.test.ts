import { describe, expect, it } from 'vitest';
import { TokenSource, type TokenContext, type TokenProvider } from '../../src/core/token-source.js';
import { HubError } from '../../src/core/errors.js';

/** A provider that records every call and answers with numbered tokens. */
function countingProvider(expiresIn = 3600) {
  const calls: TokenContext[] = [];
  const provider: TokenProvider = async (ctx) => {
    calls.push(ctx);
    return { access_token: `t${calls.length}`, expires_in: expiresIn };
  };
  return { calls, provider };
}

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('TokenSource', () => {
  it('concurrent get() calls share one provider request', async () => {
    const { calls, provider } = countingProvider();
    const tokens = new TokenSource(provider);
    const all = await Promise.all(Array.from({ length: 10 }, () => tokens.get()));
    expect(calls).toHaveLength(1);
    expect(new Set(all)).toEqual(new Set(['t1']));
    expect(calls[0]!.reason).toBe('initial');
    expect(calls[0]!.previous).toBeUndefined();
  });

  it('reuses the token until the refresh margin max(30 s, 10% of lifetime)', async () => {
    const time = clock();
    const { calls, provider } = countingProvider(3600); // margin 360 s
    const tokens = new TokenSource(provider, { now: time.now });
    expect(await tokens.get()).toBe('t1');
    time.advance((3600 - 361) * 1000);
    expect(await tokens.get()).toBe('t1');
    time.advance(2000);
    expect(await tokens.get()).toBe('t2');
    expect(calls[1]).toMatchObject({ reason: 'expiring', previous: 't1' });
  });

  // [rule, lifetime in s, ms after which the token is still used, ms more after which it is renewed]
  it.each([
    ['uses a 30 s margin for tokens whose 10% is shorter', 120, 89_000, 2_000],
    ['caps the margin at half the lifetime so very short tokens are still used', 5, 2_000, 1_000],
  ])('%s', async (_rule, lifetime, stillUsedAfter, renewedAfter) => {
    const time = clock();
    const { calls, provider } = countingProvider(lifetime);
    const tokens = new TokenSource(provider, { now: time.now });
    await tokens.get();
    time.advance(stillUsedAfter);
    await tokens.get();
    expect(calls).toHaveLength(1);
    time.advance(renewedAfter);
    await tokens.get();
    expect(calls).toHaveLength(2);
  });

  it('fetches a fresh token when less than minValidityMs is left', async () => {
    const time = clock();
    const { calls, provider } = countingProvider(3600);
    const tokens = new TokenSource(provider, { now: time.now });
    await tokens.get();
    time.advance((3600 - 400) * 1000);
    expect(await tokens.get({ minValidityMs: 60_000 })).toBe('t1');
    expect(await tokens.get({ minValidityMs: 500_000 })).toBe('t2');
    expect(calls).toHaveLength(2);
  });

  // Issue 37 item 7: the boundary itself, which a `>` in place of `>=` would move.
  it('a token with exactly the minimum validity left is used; a millisecond less, and a fresh one is fetched', async () => {
    const time = clock();
    const { calls, provider } = countingProvider(3600);
    const tokens = new TokenSource(provider, { now: time.now });
    await tokens.get();
    time.advance((3600 - 400) * 1000); // 400 s left, before the refresh margin (360 s)
    expect(await tokens.get({ minValidityMs: 400_000 })).toBe('t1');
    time.advance(1);
    expect(await tokens.get({ minValidityMs: 400_000 })).toBe('t2');
    expect(calls).toHaveLength(2);
  });

  // Issue 37 item 7: the refresh margin's own boundary, which a `<=` in place of `<` would move.
  it('a token is used until a millisecond before the refresh margin, and renewed exactly at it', async () => {
    const time = clock();
    const { calls, provider } = countingProvider(3600); // margin 360 s: renewed from 3240 s on
    const tokens = new TokenSource(provider, { now: time.now });
    await tokens.get();
    time.advance((3600 - 360) * 1000 - 1);
    expect(await tokens.get()).toBe('t1');
    time.advance(1);
    expect(await tokens.get()).toBe('t2');
    expect(calls).toHaveLength(2);
  });

  it('invalidate(token) drops only the current token and the next get() says unauthorized', async () => {
    const { calls, provider } = countingProvider();
    const tokens = new TokenSource(provider);
    await tokens.get();
    tokens.invalidate('someone-elses-token');
    expect(await tokens.get()).toBe('t1');
    tokens.invalidate('t1');
    expect(await tokens.get()).toBe('t2');
    expect(calls[1]).toMatchObject({ reason: 'unauthorized', previous: 't1' });
    tokens.invalidate('t1'); // stale: t2 is current now
    expect(await tokens.get()).toBe('t2');
    expect(calls).toHaveLength(2);
  });

  it('after invalidate(), a failed provider call leaves the next get() still asking as unauthorized', async () => {
    const calls: TokenContext[] = [];
    const tokens = new TokenSource(async (ctx) => {
      calls.push(ctx);
      if (calls.length === 2) throw new Error('backend down');
      return { access_token: `t${calls.length}`, expires_in: 3600 };
    });
    await tokens.get();
    tokens.invalidate('t1');
    await expect(tokens.get()).rejects.toMatchObject({ kind: 'token' });
    expect(await tokens.get()).toBe('t3');
    expect(calls.map(({ reason, previous }) => [reason, previous])).toEqual([
      ['initial', undefined],
      ['unauthorized', 't1'],
      ['unauthorized', 't1'],
    ]);
    // Once a new token has come, the old one no longer counts.
    tokens.invalidate('t1');
    expect(await tokens.get()).toBe('t3');
  });

  it('does not cache a failure: the next get() asks again', async () => {
    let attempt = 0;
    const tokens = new TokenSource(async () => {
      attempt++;
      if (attempt === 1) throw new Error('backend down');
      return { access_token: 'ok', expires_in: 60 };
    });
    await expect(tokens.get()).rejects.toMatchObject({ kind: 'token' });
    expect(await tokens.get()).toBe('ok');
  });

  it.each([
    ['a missing access_token', { expires_in: 60 }],
    ['an empty access_token', { access_token: '', expires_in: 60 }],
    ['a string expires_in', { access_token: 'a', expires_in: '60' }],
    ['expires_in 0', { access_token: 'a', expires_in: 0 }],
    ['a negative expires_in', { access_token: 'a', expires_in: -5 }],
    ['a NaN expires_in', { access_token: 'a', expires_in: Number.NaN }],
    ['null', null],
  ])('rejects a provider answer with %s as a token error', async (_, answer) => {
    const tokens = new TokenSource(async () => answer as never);
    const error = await tokens.get().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubError);
    expect((error as HubError).kind).toBe('token');
  });

  it('an aborted caller rejects with aborted while others still get the token', async () => {
    let release!: () => void;
    const seen: TokenContext[] = [];
    const tokens = new TokenSource(async (ctx) => {
      seen.push(ctx);
      await new Promise<void>((resolve) => (release = resolve));
      return { access_token: 'shared', expires_in: 60 };
    });
    const controller = new AbortController();
    const first = tokens.get({ signal: controller.signal });
    const second = tokens.get();
    controller.abort();
    await expect(first).rejects.toMatchObject({ kind: 'aborted' });
    expect(seen[0]!.signal!.aborted).toBe(false);
    release();
    expect(await second).toBe('shared');
  });

  it('aborts the provider call when every waiting caller has aborted', async () => {
    const seen: TokenContext[] = [];
    const tokens = new TokenSource(
      (ctx) =>
        new Promise((_, reject) => {
          seen.push(ctx);
          ctx.signal!.addEventListener('abort', () => reject(new Error('aborted by source')));
        }),
    );
    const a = new AbortController();
    const b = new AbortController();
    const first = tokens.get({ signal: a.signal });
    const second = tokens.get({ signal: b.signal });
    a.abort();
    expect(seen[0]!.signal!.aborted).toBe(false);
    b.abort();
    await expect(first).rejects.toMatchObject({ kind: 'aborted' });
    await expect(second).rejects.toMatchObject({ kind: 'aborted' });
    expect(seen[0]!.signal!.aborted).toBe(true);
  });

  it('a cancelled provider call that settles anyway is ignored: its token is not kept, its failure reaches nobody', async () => {
    const settle: Array<(ok: boolean) => void> = [];
    let calls = 0;
    const tokens = new TokenSource(
      () =>
        new Promise((resolve, reject) => {
          const n = ++calls;
          // This provider ignores ctx.signal and answers whenever the test says so.
          settle.push((ok) =>
            ok ? resolve({ access_token: `late${n}`, expires_in: 3600 }) : reject(new Error('late failure')),
          );
        }),
    );
    for (const ok of [false, true]) {
      const controller = new AbortController();
      const pending = tokens.get({ signal: controller.signal });
      controller.abort();
      await expect(pending).rejects.toMatchObject({ kind: 'aborted' });
      settle.at(-1)!(ok);
      // Vitest fails the run on an unhandled rejection; give one the chance to surface.
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    const next = tokens.get();
    settle.at(-1)!(true);
    expect(await next).toBe('late3');
    expect(calls).toBe(3);
  });

  it('a get() right after every earlier caller aborted starts a new provider call, not the cancelled one', async () => {
    const seen: TokenContext[] = [];
    const tokens = new TokenSource(
      (ctx) =>
        new Promise((resolve, reject) => {
          seen.push(ctx);
          ctx.signal!.addEventListener('abort', () => reject(new Error('aborted by source')));
          if (seen.length === 2) resolve({ access_token: 'fresh', expires_in: 3600 });
        }),
    );
    const replaced = new AbortController();
    const old = tokens.get({ signal: replaced.signal });
    // What a new list request does as it replaces the old one: abort the old, ask again at once.
    replaced.abort();
    const next = tokens.get({ signal: new AbortController().signal });
    await expect(old).rejects.toMatchObject({ kind: 'aborted' });
    await expect(next).resolves.toBe('fresh');
    expect(seen).toHaveLength(2);
    expect(seen[0]!.signal!.aborted).toBe(true);
    expect(await tokens.get()).toBe('fresh');
  });

  it('an already-aborted signal rejects at once without asking the provider', async () => {
    const { calls, provider } = countingProvider();
    const tokens = new TokenSource(provider);
    await expect(tokens.get({ signal: AbortSignal.abort() })).rejects.toMatchObject({ kind: 'aborted' });
    expect(calls).toHaveLength(0);
  });

  it('keeps tokens with +, /, = and % intact', async () => {
    const tokens = new TokenSource(async () => ({ access_token: 'a+b/c=%2F', expires_in: 60 }));
    expect(await tokens.get()).toBe('a+b/c=%2F');
  });

  it('holds tokens only: the whole answer goes to each caller that waited for it, and is not kept', async () => {
    let round = 0;
    const tokens = new TokenSource(async () => ({
      access_token: `t${++round}`,
      expires_in: 3600,
      prefetched: { 'published-tags': [`from t${round}`] },
    }));
    const seen: unknown[] = [];
    const answered = (answer: unknown) => seen.push(answer);
    // Two callers of one provider call are both told; a caller served the cached token is not.
    await Promise.all([tokens.get({ answered }), tokens.get({ answered })]);
    await tokens.get({ answered });
    const first = { access_token: 't1', expires_in: 3600, prefetched: { 'published-tags': ['from t1'] } };
    expect(seen).toEqual([first, first]);
  });
});
