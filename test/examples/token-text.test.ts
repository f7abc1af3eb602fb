import { describe, expect, it } from 'vitest';
import { shortenTokens } from '../../demo/token-text.js';
import { createSimulator } from '../../packages/hub-embed-mock/src/hub.js';
import { DOCUMENTED_TOKEN_ANSWER, longJwt } from '../fixtures/service-examples.js';

describe("the demo's logs show no usable token", () => {
  it('a JWT (documented, long, or minted by the simulator) is cut to its first 9 characters, the rest kept', async () => {
    const hub = createSimulator();
    const response = await hub.fetch(`${hub.apiUrl}/apikeys/token`, {
      method: 'POST',
      headers: { 'X-API-Key': hub.apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_user_id: 'user-alice' }),
    });
    const minted = ((await response.json()) as { data: { access_token: string } }).data.access_token;
    for (const token of [DOCUMENTED_TOKEN_ANSWER.data.access_token, longJwt(800), minted]) {
      const line = JSON.stringify({ access_token: token, expires_in: 7200 });
      expect(shortenTokens(line)).toBe('{"access_token":"eyJhbGciO…","expires_in":7200}');
    }
  });
});
