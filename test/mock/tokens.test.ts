import { describe, expect, it } from 'vitest';
import { defaultSeed, parseSeed } from '../../packages/hub-embed-mock/src/seed.js';
import { HubState } from '../../packages/hub-embed-mock/src/state.js';
import { TokenStore } from '../../packages/hub-embed-mock/src/tokens.js';
import { T0 } from './helpers.js';

const record = (token: string, expiresAt: number) => ({ token, developerId: 1, clientUserId: 'u', expiresAt });

describe('token pruning does not scan the live tokens', () => {
  it('an exchange looks at the expired tokens and one live one, however many tokens live', () => {
    const state = new HubState(parseSeed(defaultSeed));
    const developer = state.developer();
    // 20 tokens that expire after 1 s, then 5,000 that live for 2 h.
    for (let i = 0; i < 20; i++) state.issueToken(developer, `short-${i}`, T0, 1);
    for (let i = 0; i < 5000; i++) state.issueToken(developer, `long-${i % 50}`, T0, 7200);
    expect(state.tokens.size).toBe(5020);
    const prune = state.tokens.prune.bind(state.tokens);
    const examined: number[] = [];
    state.tokens.prune = (now) => {
      const count = prune(now);
      examined.push(count);
      return count;
    };
    state.issueToken(developer, 'next', T0 + 1000, 7200);
    state.issueToken(developer, 'again', T0 + 2000, 7200);
    expect(examined).toEqual([21, 1]);
    expect(state.tokens.size).toBe(5002);
  });

  it('expired tokens leave both indexes, in expiry order even when the clock went back', () => {
    const store = new TokenStore();
    store.add(record('late', 300));
    store.add(record('early', 100));
    store.add(record('middle', 200));
    store.add(record('earlier', 50));
    expect(store.prune(150)).toBe(3);
    expect([...store.byToken.keys()].sort()).toEqual(['late', 'middle']);
    expect(store.byExpiry).toHaveLength(2);
    expect(store.prune(1000)).toBe(2);
    expect(store.size).toBe(0);
    expect(store.prune(1000)).toBe(0);
  });

  it('a pruned token is refused and a live one still authenticates', () => {
    const state = new HubState(parseSeed(defaultSeed));
    const developer = state.developer();
    const old = state.issueToken(developer, 'alice', T0, 1).access_token;
    const fresh = state.issueToken(developer, 'bob', T0 + 5000, 60).access_token;
    expect(state.tokens.get(old)).toBeUndefined();
    expect(() => state.authenticateToken(old, T0 + 5000)).toThrow(/Invalid access token/);
    expect(state.authenticateToken(fresh, T0 + 5000).clientUserId).toBe('bob');
  });
});
