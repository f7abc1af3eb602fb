import { afterEach, describe, expect, it, vi } from 'vitest';
import { createServer, ServerResponse, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { createSimulator } from '../../packages/hub-embed-mock/src/hub.js';
import { createServerClient } from '../../src/server/server-client.js';
import { toNodeListener, type NodeListener } from '../../src/server/node.js';
import { createTokenHandler } from '../../src/server/token-handler.js';
import { createWebhookHandler } from '../../src/server/webhook-handler.js';

// fetch() refuses to send TRACE, CONNECT and TRACK, so these requests go over raw sockets.

const servers: Server[] = [];
/** Sockets handed over by a 'connect' event are no longer the server's to close. */
const tunnels: Socket[] = [];

afterEach(async () => {
  for (const socket of tunnels.splice(0)) socket.destroy();
  await Promise.all(
    servers.splice(0).map((server) => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    }),
  );
});

/** A node:http server that also routes CONNECT to the listener, as a server that serves CONNECT would. */
async function serve(listener: NodeListener): Promise<number> {
  const server = createServer((req, res) => listener(req, res));
  server.on('connect', (req, socket: Socket) => {
    tunnels.push(socket);
    const res = new ServerResponse(req);
    res.assignSocket(socket);
    listener(req, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Sends raw bytes, answers with the status line's code (0 when the socket closed without one). */
function raw(port: number, text: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (received.includes('\r\n\r\n')) socket.destroy();
    });
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0)));
    socket.on('error', reject);
  });
}

function webhookListener() {
  const onBillingDeduct = vi.fn(() => true);
  const listener = toNodeListener(
    createWebhookHandler({
      refunds: 'decline',
      allowIps: ['127.0.0.1'],
      onBillingDeduct,
      onError: () => {},
      onRejected: () => {},
    }),
  );
  return { listener, onBillingDeduct };
}

function tokenListener() {
  const hub = createSimulator();
  const client = createServerClient({ apiKey: hub.apiKey, baseUrl: hub.baseUrl, fetch: hub.fetch });
  return toNodeListener(createTokenHandler({ client, resolveClientUserId: () => 'user-alice', onError: () => {} }));
}

describe('toNodeListener: methods a Request cannot carry are 405, never 500', () => {
  it('TRACE to the webhook receiver gets 405 and reaches no callback', async () => {
    const { listener, onBillingDeduct } = webhookListener();
    const port = await serve(listener);
    expect(await raw(port, 'TRACE /hooks HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Webhook-Event: billing_deduct\r\n\r\n')).toBe(
      405,
    );
    expect(onBillingDeduct).not.toHaveBeenCalled();
  });

  it('TRACE to the token endpoint gets 405', async () => {
    const port = await serve(tokenListener());
    expect(await raw(port, 'TRACE /api/hub-token HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: session=1\r\n\r\n')).toBe(405);
  });

  it('CONNECT routed to the listener gets 405', async () => {
    const port = await serve(tokenListener());
    expect(await raw(port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n')).toBe(405);
  });

  it('TRACK never reaches the listener: node:http refuses it with 400 itself', async () => {
    const port = await serve(tokenListener());
    expect(await raw(port, 'TRACK / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')).toBe(400);
  });

  it('the server keeps serving after an odd method on the same connection', async () => {
    const { listener } = webhookListener();
    const port = await serve(listener);
    expect(await raw(port, 'TRACE / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')).toBe(405);
    expect(await raw(port, 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')).toBe(405);
    expect(await raw(port, 'PROPFIND / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n')).toBe(405);
  });
});
