// The page's side with tokens of the service's real shape (a JWT of a few hundred characters, with `.`, `-`
// and `_`): the token endpoint's answer, the Bearer header, the form URL and the bridge's check of a host's
// answer all take one whole.
import { describe, expect, it } from 'vitest';
import { RESULTS } from '../../src/bridge/methods.js';
import { checkAccessToken, TokenSource } from '../../src/core/token-source.js';
import { buildFormUrl } from '../../src/core/token-links.js';
import { WebClient } from '../../src/core/web-client.js';
import { DOCUMENTED_TOKEN_ANSWER, longJwt } from '../fixtures/service-examples.js';

const TOKENS = [DOCUMENTED_TOKEN_ANSWER.data.access_token, longJwt(800)];

describe('JWT-shaped tokens of realistic length on the page side', () => {
  it("the token endpoint's answer, and a host's (bridge auth.getToken), are taken whole", () => {
    for (const token of TOKENS) {
      expect(checkAccessToken({ access_token: token, expires_in: 7200 }, 'token-endpoint')).toMatchObject({
        access_token: token,
      });
      expect(RESULTS.get('auth.getToken')!({ access_token: token, expires_in: 7200 })).toBeTruthy();
    }
  });

  it('the Bearer header and the form URL carry the token exactly', async () => {
    for (const token of TOKENS) {
      const seen: string[] = [];
      const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
        seen.push(new Request(input, init).headers.get('authorization') ?? '');
        return Response.json({ code: 200, message: 'success', data: { list: ['a'] } });
      }) as typeof globalThis.fetch;
      const tokens = new TokenSource(async () => ({ access_token: token, expires_in: 7200 }));
      await new WebClient({ baseUrl: 'https://host.example/api/v1/apihub', tokens, fetch }).publishedTags();
      expect(seen).toEqual([`Bearer ${token}`]);
      const url = new URL(buildFormUrl('https://forms.example', 'k3Xp9a', token));
      expect(url.searchParams.get('token')).toBe(token);
      expect(url.search).toBe(`?token=${token}`);
    }
  });
});
