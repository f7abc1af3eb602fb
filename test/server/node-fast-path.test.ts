import { describe, expect, it, onTestFinished } from 'vitest';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { createSimulator } from '../../packages/hub-embed-mock/src/hub.js';
import { createServerClient } from '../../src/server/server-client.js';
import { toNodeListener, type NodeListener } from '../../src/server/node.js';
import { plainHandlerOf } from '../../src/server/plain.js';
import { createTokenHandler, type TokenHandlerOptions } from '../../src/server/token-handler.js';

// The token handler on node:http goes through its plain form (src/server/plain.ts). Every behaviour of
// the Web path must stay: each case runs on both, over real node:http, and the answers must agree.

const APP = 'https://app.example.com';
/** A node:http server for `listener` on a free port, closed when the test ends. */
async function serve(listener: NodeListener): Promise<number> {
  const server = createServer((req, res) => listener(req, res));
  onTestFinished(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** One handler, served as the fast path and (wrapped, so without its plain form) as the Web path. */
async function both(
  overrides: Partial<TokenHandlerOptions> = {},
  hubOptions: Parameters<typeof createSimulator>[0] = {},
) {
  const hub = createSimulator(hubOptions);
  const client = createServerClient({ apiKey: hub.apiKey, baseUrl: hub.baseUrl, fetch: hub.fetch, timeoutMs: 200 });
  const handler = createTokenHandler({
    client,
    resolveClientUserId: (request) => request.headers.get('x-session'),
    onError: () => undefined,
    ...overrides,
  });
  expect(plainHandlerOf(handler)).toBeTypeOf('function');
  return {
    fast: await serve(toNodeListener(handler)),
    web: await serve(toNodeListener((request) => handler(request))),
  };
}

/** Headers that may differ by framing only (Content-Length vs chunked) or by the moment. */
const FRAMING = new Set(['date', 'content-length', 'transfer-encoding', 'keep-alive']);

async function call(port: number, init: RequestInit = {}) {
  const response = await fetch(`http://127.0.0.1:${port}/api/hub-token`, { method: 'POST', ...init });
  const headers = Object.fromEntries([...response.headers].filter(([name]) => !FRAMING.has(name)));
  const text = await response.text();
  // Tokens (and the seconds left of them) differ between two calls; their presence and shape must not.
  const body = text
    .replace(/"access_token":"[^"]+"/, '"access_token":"…"')
    .replace(/"expires_in":\d+/, '"expires_in":0');
  return { status: response.status, headers, body };
}

async function same(ports: { fast: number; web: number }, init: RequestInit = {}) {
  const fast = await call(ports.fast, init);
  const web = await call(ports.web, init);
  expect(fast).toEqual(web);
  return fast;
}

/** Raw bytes to a port; the status line's code and whether the server closed the connection. */
function raw(port: number, text: string): Promise<{ status: number; closed: boolean; head: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('end', () =>
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0), closed: true, head: received }),
    );
    socket.on('error', reject);
    setTimeout(() => {
      socket.destroy();
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0), closed: false, head: received });
    }, 1000);
  });
}

describe('toNodeListener(createTokenHandler(...)): the node:http fast path answers as the Web path does', () => {
  it('success: 200 {access_token, expires_in}, no-store, JSON', async () => {
    const ports = await both();
    const answer = await same(ports, { headers: { 'x-session': 'alice' } });
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(answer.body)).toEqual({ access_token: '…', expires_in: 0 });
  });

  it('methods: GET and PUT get 405 with Allow: POST; TRACE gets the adapter’s 405', async () => {
    const ports = await both();
    for (const method of ['GET', 'PUT', 'DELETE', 'OPTIONS'])
      expect((await same(ports, { method, headers: { 'x-session': 'alice' } })).status).toBe(405);
    expect((await same(ports, { method: 'GET' })).headers.allow).toBe('POST');
    for (const port of [ports.fast, ports.web])
      expect((await raw(port, 'TRACE /api/hub-token HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).status).toBe(
        405,
      );
  });

  it('no session: 401; a throwing session lookup: 500 with a generic message', async () => {
    expect((await same(await both())).status).toBe(401);
    const throwing = await both({
      resolveClientUserId: () => {
        throw new Error('db down');
      },
    });
    const answer = await same(throwing, { headers: { 'x-session': 'alice' } });
    expect(answer.status).toBe(500);
    expect(answer.body).not.toContain('db down');
  });

  it('Origin checks: a foreign or missing Origin gets 403; a listed one gets CORS headers and a preflight 204', async () => {
    const ports = await both({ allowedOrigins: [APP] });
    expect((await same(ports, { headers: { 'x-session': 'alice', origin: 'https://evil.example' } })).status).toBe(403);
    expect((await same(ports, { headers: { 'x-session': 'alice' } })).status).toBe(403);
    const ok = await same(ports, { headers: { 'x-session': 'alice', origin: APP } });
    expect(ok.headers['access-control-allow-origin']).toBe(APP);
    expect(ok.headers.vary).toBe('Origin');
    const preflight = await same(ports, { method: 'OPTIONS', headers: { origin: APP } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-methods']).toBe('POST');
  });

  it('upstream failure: 502 (timeout: 504) with nothing about the key', async () => {
    const failing = await both({}, { tokenTtlSeconds: 60 });
    // A client whose service does not exist: the exchange fails as a network error.
    const down = createTokenHandler({
      client: createServerClient({ apiKey: 'sk-test', baseUrl: 'http://127.0.0.1:9', timeoutMs: 200 }),
      resolveClientUserId: () => 'alice',
      onError: () => undefined,
    });
    const ports = { fast: await serve(toNodeListener(down)), web: await serve(toNodeListener((r) => down(r))) };
    const answer = await same(ports);
    expect(answer.status).toBe(502);
    expect(answer.body).not.toMatch(/sk-|X-API-Key/i);
    expect((await same(failing, { headers: { 'x-session': 'alice' } })).status).toBe(200);
  });

  it('the refusal hint and the load are read from the body as on the Web path', async () => {
    const ports = await both({ prefetch: true });
    const body = JSON.stringify({ reason: 'initial', load: { tags: ['delivery'], limit: 2 } });
    const answer = await same(ports, { headers: { 'x-session': 'alice' }, body });
    expect(Object.keys(JSON.parse(answer.body).prefetched)).toEqual([
      'published-tags',
      'published-list?tags=delivery&limit=2',
    ]);
  });

  it('bounded body: a declared Content-Length over 8 KB is 413 before reading, and the connection closes', async () => {
    const ports = await both();
    for (const port of [ports.fast, ports.web]) {
      const answer = await raw(
        port,
        'POST /api/hub-token HTTP/1.1\r\nHost: x\r\nx-session: alice\r\ncontent-type: application/json\r\ncontent-length: 1000000\r\n\r\n{',
      );
      expect(answer.status).toBe(413);
      expect(answer.head.toLowerCase()).toContain('connection: close');
    }
  });

  it('bounded body: a chunked upload that passes 8 KB is 413 while it still arrives; exactly 8 KB is read', async () => {
    const ports = await both();
    for (const port of [ports.fast, ports.web]) {
      const chunk = 'x'.repeat(4096);
      const chunked = `POST /api/hub-token HTTP/1.1\r\nHost: x\r\nx-session: alice\r\ntransfer-encoding: chunked\r\n\r\n${[
        1, 2, 3,
      ]
        .map(() => `1000\r\n${chunk}\r\n`)
        .join('')}`;
      expect((await raw(port, chunked)).status).toBe(413);
    }
    const exact = JSON.stringify({ reason: 'initial', pad: 'x'.repeat(8192 - 29) });
    expect(exact.length).toBe(8192);
    expect((await same(ports, { headers: { 'x-session': 'alice' }, body: exact })).status).toBe(200);
    expect((await same(ports, { headers: { 'x-session': 'alice' }, body: exact + ' ' })).status).toBe(413);
  });

  it('the server keeps serving after a 413 on the fast path', async () => {
    const { fast } = await both();
    await raw(fast, 'POST /api/hub-token HTTP/1.1\r\nHost: x\r\ncontent-length: 99999\r\nx-session: a\r\n\r\n');
    expect((await call(fast, { headers: { 'x-session': 'alice' } })).status).toBe(200);
  });

  it('Express: a raw body kept by express.raw() is used; one parsed by express.json() goes to next(error)', async () => {
    const hub = createSimulator();
    const handler = createTokenHandler({
      client: createServerClient({ apiKey: hub.apiKey, baseUrl: hub.baseUrl, fetch: hub.fetch }),
      resolveClientUserId: () => 'alice',
      prefetch: true,
    });
    const listener = toNodeListener(handler);
    const errors: unknown[] = [];
    const port = await serve((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        (req as { body?: unknown }).body = req.url === '/raw' ? Buffer.from(text) : JSON.parse(text || '{}');
        listener(req, res, (error) => {
          errors.push(error);
          res.statusCode = 500;
          res.end();
        });
      });
    });
    const body = JSON.stringify({ load: { tags: [] } });
    const raw = await fetch(`http://127.0.0.1:${port}/raw`, { method: 'POST', body });
    expect(Object.keys(((await raw.json()) as { prefetched: object }).prefetched)).toContain('published-tags');
    const parsed = await fetch(`http://127.0.0.1:${port}/json`, { method: 'POST', body });
    expect(parsed.status).toBe(500);
    expect(String(errors[0])).toMatch(/already parsed/);
  });

  it('the session lookup gets the URL, method and headers as a Request (its body is the handler’s)', async () => {
    let seen: Request | undefined;
    const hub = createSimulator();
    const handler = createTokenHandler({
      client: createServerClient({ apiKey: hub.apiKey, baseUrl: hub.baseUrl, fetch: hub.fetch }),
      resolveClientUserId: (request) => ((seen = request), 'alice'),
    });
    const port = await serve(toNodeListener(handler));
    await fetch(`http://127.0.0.1:${port}/api/hub-token?x=1`, {
      method: 'POST',
      headers: { cookie: 'sid=1' },
      body: '{}',
    });
    expect(seen!.url).toBe(`http://127.0.0.1:${port}/api/hub-token?x=1`);
    expect(seen!.method).toBe('POST');
    expect(seen!.headers.get('cookie')).toBe('sid=1');
  });
});
