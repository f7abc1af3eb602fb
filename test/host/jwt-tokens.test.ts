// The app's side of the bridge with tokens of the service's real shape (a JWT of a few hundred characters,
// with `.`, `-` and `_`): nothing on the way cuts, refuses or re-encodes one.
import { describe, expect, it } from 'vitest';
import vectors from '../fixtures/bridge-vectors.json' with { type: 'json' };
import { createHostKernel } from '../../src/host/index.js';
import { decideNavigation } from '../../src/host/navigation.js';
import { isFormUrl } from '../../src/react-native/form-checks.js';
import { buildFormUrl } from '../../src/core/token-links.js';
import { DOCUMENTED_TOKEN_ANSWER, JWT_SHAPE, longJwt } from '../fixtures/service-examples.js';

const NONCE = vectors.host.nonce;
const TOKENS = [DOCUMENTED_TOKEN_ANSWER.data.access_token, longJwt(300), longJwt(800)];
const page = (message: Record<string, unknown>) => ({ ns: 'hub-embed', v: 1, sid: 's1', nonce: NONCE, ...message });

describe('JWT-shaped tokens of realistic length on the host side', () => {
  it('the fixtures are JWTs of about 300 to 800 characters with . - and _', () => {
    for (const token of TOKENS) expect(token).toMatch(JWT_SHAPE);
    expect(TOKENS.map((token) => Math.round(token.length / 100) * 100)).toEqual([300, 300, 800]);
    expect(TOKENS.every((token) => token.includes('-') && token.includes('_'))).toBe(true);
  });

  it("auth.getToken hands the app's JWT to the page unchanged, and the page's previous JWT to the app", async () => {
    for (const token of TOKENS) {
      const sent: string[] = [];
      const requests: unknown[] = [];
      const kernel = createHostKernel({
        platform: vectors.host.platform,
        transport: 'webkit',
        nonce: NONCE,
        handlers: {
          getToken: (request) => {
            requests.push(request);
            return { access_token: token, expires_in: 7200 };
          },
        },
        send: (_script, json) => sent.push(json),
      });
      await kernel.receive(JSON.stringify(vectors.hello.send));
      const params = { reason: 'unauthorized', previous: token };
      await kernel.receive(JSON.stringify(page({ id: 't1', kind: 'req', method: 'auth.getToken', params })));
      expect(JSON.parse(sent.at(-1)!)).toMatchObject({ id: 't1', ok: true, result: { access_token: token } });
      expect(requests).toEqual([{ reason: 'unauthorized', previous: token }]);
    }
  });

  it("the form URL carrying one loads in the WebView and may fill <HubEmbedView>'s form Modal", () => {
    for (const token of TOKENS) {
      const url = buildFormUrl('https://forms.example', 'k3Xp9a', token);
      // `.`, `-` and `_` are unreserved: the token goes into the query as it is, nothing to decode.
      expect(url).toBe(`https://forms.example/k3Xp9a?token=${token}`);
      expect(decideNavigation(url, ['https://forms.example'])).toBe('load');
      expect(isFormUrl(url, ['https://forms.example'])).toBe(true);
    }
  });
});
