import { describe, expect, it, vi } from 'vitest';
import { RefusedTokens } from '../../src/react-native/refused-tokens.js';

const form = (token: string) => `https://forms.example/f/abc?token=${token}&x=1`;

describe('RefusedTokens: a form URL built from a refused token gets the live one', () => {
  it('a URL whose token was never refused stays as it is, and asks for nothing', async () => {
    const tokens = new RefusedTokens();
    const replace = vi.fn(() => ({ access_token: 'new' }));
    expect(tokens.any).toBe(false);
    expect(await tokens.liveUrl(form('a'), replace)).toBe(form('a'));
    expect(replace).not.toHaveBeenCalled();
  });

  it('a refused token is replaced once, told to getToken as unauthorized with the token it replaces', async () => {
    const tokens = new RefusedTokens();
    const replace = vi.fn(() => Promise.resolve({ access_token: 'b' }));
    tokens.refuse('a');
    expect(tokens.any).toBe(true);
    expect(await tokens.liveUrl(form('a'), replace)).toBe(form('b'));
    expect(await tokens.liveUrl(form('a'), replace)).toBe(form('b'));
    expect(replace.mock.calls).toEqual([[{ reason: 'unauthorized', previous: 'a' }]]);
  });

  it('a chain of refusals leads to the newest replacement', async () => {
    const tokens = new RefusedTokens();
    let next = 0;
    const replace = () => ({ access_token: `t${++next}` });
    tokens.refuse('a');
    expect(await tokens.liveUrl(form('a'), replace)).toBe(form('t1'));
    tokens.refuse('t1');
    expect(await tokens.liveUrl(form('a'), replace)).toBe(form('t2'));
    // Refusing again a token that has its replacement keeps that replacement.
    tokens.refuse('a');
    expect(await tokens.liveUrl(form('a'), replace)).toBe(form('t2'));
  });

  it('a getToken that hands back refused tokens is followed a few hops, never for ever', async () => {
    const tokens = new RefusedTokens();
    let next = 0;
    const replace = vi.fn(() => {
      const token = `r${++next}`;
      tokens.refuse(token);
      return { access_token: token };
    });
    tokens.refuse('a');
    const url = await tokens.liveUrl(form('a'), replace);
    expect(replace.mock.calls.length).toBeLessThanOrEqual(4);
    expect(url).toMatch(/token=r\d/);
  });

  it('a getToken that fails leaves the URL as it was', async () => {
    const tokens = new RefusedTokens();
    tokens.refuse('a');
    expect(await tokens.liveUrl(form('a'), () => Promise.reject(new Error('offline')))).toBe(form('a'));
    expect(
      await tokens.liveUrl(form('a'), () => {
        throw new TypeError('no getToken');
      }),
    ).toBe(form('a'));
  });
});
