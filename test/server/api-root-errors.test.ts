// Issue 61 item 3: errors that name the fix. A wrong API root gave the integrator's server a bare
// "HTTP 404" on the token exchange; the message now names the root it used and the two the docs know.
import { describe, expect, it } from 'vitest';
import { HubError } from '../../src/core/errors.js';
import { createSimulator } from '../../packages/hub-embed-mock/src/hub.js';
import { createServerClient } from '../../src/server/server-client.js';
import { rejectionOf } from '../rejection.js';

const KEY = 'sk-test-key-0123456789';
const answering = (body: string, status: number, type = 'text/html') =>
  (async () => new Response(body, { status, headers: { 'content-type': type } })) as typeof fetch;

describe('a 404 or an answer that is not the envelope names the API root used and the two the docs know', () => {
  it('a wrong API root against the simulator (which serves the spec’s /api/v1/hub) names both roots', async () => {
    const hub = createSimulator();
    const root = `${hub.baseUrl}/api/v1/apihub`;
    const client = createServerClient({ apiKey: hub.apiKey, baseUrl: root, fetch: hub.fetch });
    const error = (await rejectionOf(client.exchangeToken('user-alice'))) as HubError;
    expect(error).toBeInstanceOf(HubError);
    expect(error.message).toContain('HTTP 404');
    expect(error.message).toContain(`The API root used was ${root};`);
    expect(error.message).toContain(`${hub.baseUrl}/api/v1/hub (the spec)`);
    expect(error.message).toContain(`${hub.baseUrl}/api/v1/apihub (the real deployment)`);
    // With the spec's root the same call works: the hint named the fix.
    const fixed = createServerClient({ apiKey: hub.apiKey, baseUrl: `${hub.baseUrl}/api/v1/hub`, fetch: hub.fetch });
    expect((await fixed.exchangeToken('user-alice')).accessToken).toBeTruthy();
  });

  it('an HTML 404 from a proxy, and an HTTP 200 page that is not the envelope, name the roots too', async () => {
    for (const [fetch, status] of [
      [answering('<html>Not Found</html>', 404), 404],
      [answering('<html>a login page</html>', 200), 200],
      [answering('{"ok":true', 200, 'application/json'), 200],
    ] as const) {
      const client = createServerClient({ apiKey: KEY, baseUrl: 'https://hub.example.com', fetch });
      const error = (await rejectionOf(client.balance('u1'))) as HubError;
      expect(error.status).toBe(status);
      expect(error.message).toContain('The API root used was https://hub.example.com/api/v1/hub;');
      expect(error.message).toContain('https://hub.example.com/api/v1/apihub (the real deployment)');
    }
  });

  it('an error the service itself answered in its envelope (a 500, a 401) gets no root hint', async () => {
    for (const status of [500, 401]) {
      const fetch = answering(JSON.stringify({ code: status, message: 'x', data: null }), status, 'application/json');
      const client = createServerClient({ apiKey: KEY, baseUrl: 'https://hub.example.com/api/v1/apihub', fetch });
      const error = (await rejectionOf(client.balance('u1'))) as HubError;
      expect(error.message).toContain(`HTTP ${status}`);
      expect(error.message).not.toContain('API root');
    }
  });
});
