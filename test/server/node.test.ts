import { afterEach, describe, expect, it, vi } from 'vitest';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeListener, type NodeListener } from '../../src/server/node.js';
import { createWebhookHandler } from '../../src/server/webhook-handler.js';
import { createSimulator } from '../../packages/hub-embed-mock/src/hub.js';
import { createServerClient } from '../../src/server/server-client.js';
import { createTokenHandler } from '../../src/server/token-handler.js';
import type { BillingDeductEvent } from '../../src/server/webhook-events.js';
import { deductBody } from './webhook-helpers.js';

const servers: Server[] = [];

async function serve(listener: NodeListener): Promise<string> {
  const server = createServer((req, res) => listener(req, res));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

function loopbackReceiver(onBillingDeduct = vi.fn((_event: BillingDeductEvent) => true)) {
  return {
    listener: toNodeListener(
      createWebhookHandler({
        refunds: 'decline',
        allowIps: ['127.0.0.1'],
        onBillingDeduct,
        onError: () => {},
        onRejected: () => {},
      }),
    ),
    onBillingDeduct,
  };
}

const deductHeaders = { 'content-type': 'application/json', 'x-webhook-event': 'billing_deduct' };

/** Sends headers and `bytes` of body without ever finishing the body; resolves with the answer. */
function sendUnfinished(
  base: string,
  bytes: number,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(base, { method: 'POST', headers }, (res: IncomingMessage) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body });
        req.destroy();
      });
    });
    req.on('error', reject);
    const chunk = Buffer.alloc(16 * 1024, 0x20);
    for (let sent = 0; sent < bytes; sent += chunk.length) req.write(chunk);
  });
}

describe('toNodeListener', () => {
  it('passes the socket remoteAddress: an allowed loopback client reaches the handler', async () => {
    const { listener, onBillingDeduct } = loopbackReceiver();
    const base = await serve(listener);
    const response = await fetch(base, {
      method: 'POST',
      headers: deductHeaders,
      body: JSON.stringify(deductBody('0.29')),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(onBillingDeduct.mock.calls[0]![0]).toMatchObject({ amountCents: 29 });
  });

  it('a socket address not on the allow-list gets 403, whatever X-Forwarded-For says', async () => {
    const listener = toNodeListener(
      createWebhookHandler({
        refunds: 'decline',
        allowIps: ['203.0.113.7'],
        onBillingDeduct: () => true,
        onRejected: () => {},
      }),
    );
    const base = await serve(listener);
    const response = await fetch(base, {
      method: 'POST',
      headers: { ...deductHeaders, 'x-forwarded-for': '203.0.113.7' },
      body: JSON.stringify(deductBody('1.00')),
    });
    expect(response.status).toBe(403);
  });

  it('a 1 MB body that is still arriving is refused with 413 without waiting for (or buffering) the rest', async () => {
    const { listener, onBillingDeduct } = loopbackReceiver();
    const base = await serve(listener);
    // 256 KiB sent, the rest of a 1 MB chunked body never comes: only a reader that stops early can answer.
    const answer = await sendUnfinished(base, 256 * 1024, { ...deductHeaders, 'transfer-encoding': 'chunked' });
    expect(answer.status).toBe(413);
    expect(onBillingDeduct).not.toHaveBeenCalled();
  });

  it('a declared Content-Length of 1 MB is refused with 413 before the body is read', async () => {
    const { listener } = loopbackReceiver();
    const base = await serve(listener);
    const answer = await sendUnfinished(base, 16 * 1024, { ...deductHeaders, 'content-length': String(1024 * 1024) });
    expect(answer.status).toBe(413);
  });

  it('the server keeps serving after refusing a huge body', async () => {
    const { listener } = loopbackReceiver();
    const base = await serve(listener);
    await sendUnfinished(base, 128 * 1024, { ...deductHeaders, 'transfer-encoding': 'chunked' });
    const response = await fetch(base, {
      method: 'POST',
      headers: deductHeaders,
      body: JSON.stringify(deductBody('1.00')),
    });
    expect(response.status).toBe(200);
  });

  it('copies status, headers and every Set-Cookie of the answer', async () => {
    const headers = new Headers({ 'x-one': '1' });
    headers.append('set-cookie', 'a=1');
    headers.append('set-cookie', 'b=2');
    const base = await serve(toNodeListener(async () => new Response('hello 🙂', { status: 201, headers })));
    const response = await fetch(base);
    expect(response.status).toBe(201);
    expect(response.headers.get('x-one')).toBe('1');
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await response.text()).toBe('hello 🙂');
  });

  it('gives the handler the method, path, query, headers and body of the Node request', async () => {
    let seen: { method: string; url: string; header: string | null; body: string } | undefined;
    const base = await serve(
      toNodeListener(async (request) => {
        seen = {
          method: request.method,
          url: request.url,
          header: request.headers.get('x-test'),
          body: await request.text(),
        };
        return new Response(null, { status: 204 });
      }),
    );
    await fetch(`${base}/hooks/x?y=1`, { method: 'PUT', headers: { 'x-test': 'v' }, body: 'payload' });
    expect(seen).toEqual({ method: 'PUT', url: `${base}/hooks/x?y=1`, header: 'v', body: 'payload' });
  });

  it('Express/connect style: a throwing handler goes to next(error)', async () => {
    const failure = new Error('boom');
    const listener = toNodeListener(async () => {
      throw failure;
    });
    const next = vi.fn();
    const server = createServer((req, res) => {
      listener(req, res, (error) => {
        next(error);
        res.statusCode = 599;
        res.end();
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    expect(response.status).toBe(599);
    expect(next).toHaveBeenCalledWith(failure);
  });

  it('plain node:http: a throwing handler answers 500 without details', async () => {
    const base = await serve(toNodeListener(async () => Promise.reject(new Error('secret detail'))));
    const response = await fetch(base);
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain('secret detail');
  });

  it('a body already parsed by express.json() is reported to next with what to change', async () => {
    const listener = toNodeListener(async () => new Response(null, { status: 204 }));
    const next = vi.fn();
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        (req as { body?: unknown }).body = { event: 'billing_deduct' };
        listener(req, res, (error) => {
          next(error);
          res.end();
        });
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, { method: 'POST', body: '{}' });
    expect(String(next.mock.calls[0]![0])).toMatch(/before express\.json\(\)/);
  });

  it('a raw body kept by express.raw() is used as the body', async () => {
    const { listener, onBillingDeduct } = loopbackReceiver();
    const raw = Buffer.from(JSON.stringify(deductBody('2.00')));
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        (req as { body?: unknown }).body = raw;
        listener(req, res);
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, {
      method: 'POST',
      headers: deductHeaders,
      body: raw,
    });
    expect(await response.json()).toEqual({ ok: true });
    expect(onBillingDeduct.mock.calls[0]![0]).toMatchObject({ amountCents: 200 });
  });

  it('serves the token handler: the session cookie decides the user, the answer is no-store', async () => {
    const hub = createSimulator();
    const client = createServerClient({ apiKey: hub.apiKey, baseUrl: hub.baseUrl, fetch: hub.fetch });
    const sessions = new Map([['s1', 'user-alice']]);
    const handler = createTokenHandler({
      client,
      resolveClientUserId: (request) =>
        sessions.get(/sid=(\w+)/.exec(request.headers.get('cookie') ?? '')?.[1] ?? '') ?? null,
    });
    const base = await serve(toNodeListener(handler));
    const ok = await fetch(`${base}/api/hub-token`, { method: 'POST', headers: { cookie: 'sid=s1' } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('cache-control')).toBe('no-store');
    expect(hub.requestLog.at(-1)).toMatchObject({ clientUserId: 'user-alice' });
    expect((await fetch(`${base}/api/hub-token`, { method: 'POST', headers: { cookie: 'sid=nope' } })).status).toBe(
      401,
    );
  });
});
