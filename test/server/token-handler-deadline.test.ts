// Issue 30, item 9: 300 connections dribbling their bodies were held past 20 s, Node's 300 s
// requestTimeout being the only limit. The token handler has a body deadline of its own now.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createSimulator } from '../../packages/hub-embed-mock/src/hub.js';
import { createServerClient } from '../../src/server/server-client.js';
import { toNodeListener } from '../../src/server/node.js';
import { trickleBody } from './slow-sender.js';
import { createTokenHandler } from '../../src/server/token-handler.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function tokenServer(bodyTimeoutMs: number) {
  const hub = createSimulator();
  const handler = createTokenHandler({
    client: createServerClient({ apiKey: hub.apiKey, baseUrl: hub.baseUrl, fetch: hub.fetch }),
    resolveClientUserId: () => 'user-alice',
    bodyTimeoutMs,
    onError: () => {},
  });
  const listener = toNodeListener(handler);
  const server = createServer((req, res) => listener(req, res));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** A token request that declares a body and dribbles it. */
const dribble = (port: number, everyMs: number) =>
  trickleBody(
    port,
    'POST /api/hub-token HTTP/1.1\r\nHost: app.test\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
    everyMs,
  );

describe('token handler body deadline (bodyTimeoutMs)', () => {
  it('a body that dribbles past the deadline gets 408 and the server closes the connection', async () => {
    const port = await tokenServer(300);
    // dribble() resolves only once the server has closed the connection (it rejects after 20 s otherwise).
    const answer = await dribble(port, 50);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain('Body too slow.');
  });

  it('a body that arrives in time is answered as usual', async () => {
    const port = await tokenServer(5_000);
    const response = await fetch(`http://127.0.0.1:${port}/api/hub-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(200);
  });

  it('bodyTimeoutMs that is not a whole number above 0 is a config error', () => {
    for (const bodyTimeoutMs of [0, -1, 1.5]) {
      expect(() =>
        createTokenHandler({
          client: createServerClient({ apiKey: 'k', baseUrl: 'https://hub.example' }),
          resolveClientUserId: () => 'u',
          bodyTimeoutMs,
        }),
      ).toThrow(/bodyTimeoutMs/);
    }
  });
});
