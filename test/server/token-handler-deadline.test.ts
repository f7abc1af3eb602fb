// Issue 30, item 9: 300 connections dribbling their bodies were held past 20 s, Node's 300 s
// requestTimeout being the only limit. The token handler has a body deadline of its own now.
import { connect } from 'node:net';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createSimulator } from '../../packages/hub-embed-mock/src/hub.js';
import { createServerClient } from '../../src/server/server-client.js';
import { toNodeListener } from '../../src/server/node.js';
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

/** A client that declares a body and sends one byte of it every `everyMs`, until the server closes. */
function dribble(port: number, everyMs: number): Promise<{ answer: string; closedByServer: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    let timer: ReturnType<typeof setInterval> | undefined;
    socket.on('connect', () => {
      socket.write(
        'POST /api/hub-token HTTP/1.1\r\nHost: app.test\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
      );
      timer = setInterval(() => socket.write(' '), everyMs);
    });
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ answer, closedByServer: true });
    });
    setTimeout(() => {
      clearInterval(timer);
      socket.destroy();
      reject(new Error(`the server kept the dribbling connection open; answer so far: ${JSON.stringify(answer)}`));
    }, 20_000);
  });
}

describe('token handler body deadline (bodyTimeoutMs)', () => {
  it('a body that dribbles past the deadline gets 408 and the server closes the connection', async () => {
    const port = await tokenServer(300);
    const { answer, closedByServer } = await dribble(port, 50);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain('Body too slow.');
    expect(closedByServer).toBe(true);
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
