// The client refuses redirects, so the key never goes to another address. It asks fetch for
// redirect: 'manual' (workerd has no 'error') and refuses the 3xx itself.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createServerClient } from '../../src/server/index.js';
import { isHubError } from '../../src/core/index.js';

const servers: Server[] = [];
function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`)),
  );
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

describe('createServerClient and redirects', () => {
  it('refuses a redirect as invalid-response with its status, and the key goes to no other address', async () => {
    const elsewhere: IncomingHttpHeaders[] = [];
    const other = await serve((req, res) => {
      elsewhere.push(req.headers);
      res.setHeader('content-type', 'application/json');
      res.end('{"code":200,"data":{"access_token":"t","expires_in":3600}}');
    });
    const base = await serve((req, res) => {
      res.statusCode = 307;
      res.setHeader('location', `${other}${req.url}`);
      res.end();
    });
    const client = createServerClient({ apiKey: 'sk-redirect-test', baseUrl: base });
    const error = await client.exchangeToken('user-alice').catch((e: unknown) => e);
    expect(isHubError(error, 'invalid-response')).toBe(true);
    expect((error as { status?: number }).status).toBe(307);
    expect((error as Error).message).toMatch(/redirect \(HTTP 307\)/);
    expect(elsewhere).toEqual([]);
  });
});
