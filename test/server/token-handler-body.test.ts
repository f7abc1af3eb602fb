import { afterEach, describe, expect, it } from 'vitest';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSimulator } from '../../packages/hub-embed-mock/src/hub.js';
import { createServerClient } from '../../src/server/server-client.js';
import { toNodeListener } from '../../src/server/node.js';
import { createTokenHandler } from '../../src/server/token-handler.js';
import { MAX_TOKEN_REQUEST_BYTES } from '../../src/server/token-request.js';

// The token handler reads one small optional body (a refusal hint), checking its bound (8 KB,
// MAX_TOKEN_REQUEST_BYTES) as it reads: buffered first, a 400 MB upload would cost a gigabyte of memory.

const BOUND = MAX_TOKEN_REQUEST_BYTES;
const CHUNK = 1024;

function setup() {
  const hub = createSimulator();
  const client = createServerClient({ apiKey: hub.apiKey, baseUrl: hub.baseUrl, fetch: hub.fetch });
  const handler = createTokenHandler({ client, resolveClientUserId: () => 'user-alice', onError: () => {} });
  const exchanges = () => hub.requestLog.filter((entry) => entry.path === '/api/v1/hub/apikeys/token').length;
  return { handler, exchanges };
}

/**
 * A body that never ends: each pull yields another chunk. Past a safety stop of 4 MB (far beyond any
 * sane bound) it stops yielding but still never closes, so a reader without a bound hangs instead of
 * eating the machine's memory.
 */
function endlessBody() {
  let pulled = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= 4 * 1024 * 1024) return new Promise<void>(() => {});
      pulled += CHUNK;
      controller.enqueue(new Uint8Array(CHUNK).fill(0x20));
    },
    cancel() {
      cancelled = true;
    },
  });
  return { stream, pulled: () => pulled, cancelled: () => cancelled };
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

describe('createTokenHandler stops reading at its 8 KB bound', () => {
  it('a chunked body with no Content-Length that never ends gets 413, the reader is cancelled, memory stays bounded', async () => {
    const { handler, exchanges } = setup();
    const body = endlessBody();
    const request = new Request('https://app.example.com/api/hub-token', {
      method: 'POST',
      body: body.stream,
      duplex: 'half',
    } as RequestInit);
    expect(request.headers.get('content-length')).toBeNull();
    const response = await handler(request);
    expect(response.status).toBe(413);
    expect(body.cancelled()).toBe(true);
    // The stream may be asked for one chunk ahead of the reader (its queue), never more.
    expect(body.pulled()).toBeLessThanOrEqual(BOUND + 2 * CHUNK);
    expect(exchanges()).toBe(0);
  });

  it('a declared Content-Length over the bound gets 413 before a byte is read', async () => {
    const { handler } = setup();
    const body = endlessBody();
    const request = new Request('https://app.example.com/api/hub-token', {
      method: 'POST',
      headers: { 'content-length': String(400 * 1024 * 1024) },
      body: body.stream,
      duplex: 'half',
    } as RequestInit);
    const response = await handler(request);
    expect(response.status).toBe(413);
    expect(body.pulled()).toBeLessThanOrEqual(CHUNK);
    expect(body.cancelled()).toBe(true);
  });

  it('a body of exactly 8 KB is still read', async () => {
    const { handler } = setup();
    const [head, tail] = ['{"reason":"expiring","padding":"', '"}'];
    const body = head + 'x'.repeat(BOUND - head.length - tail.length) + tail;
    expect(new TextEncoder().encode(body).byteLength).toBe(BOUND);
    const response = await handler(new Request('https://app.example.com/api/hub-token', { method: 'POST', body }));
    expect(response.status).toBe(200);
  });

  it('on node:http, an upload that keeps arriving is answered 413 and the server keeps serving', async () => {
    const { handler } = setup();
    const listener = toNodeListener(handler);
    const server = createServer((req, res) => listener(req, res));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    // 256 KiB sent chunked and the body never finished: only a reader that stops early can answer.
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        base,
        { method: 'POST', headers: { 'transfer-encoding': 'chunked' } },
        (res: IncomingMessage) => {
          res.resume();
          res.on('end', () => {
            resolve(res.statusCode ?? 0);
            req.destroy();
          });
        },
      );
      req.on('error', reject);
      const chunk = Buffer.alloc(16 * 1024, 0x20);
      for (let sent = 0; sent < 256 * 1024; sent += chunk.length) req.write(chunk);
    });
    expect(status).toBe(413);

    const next = await fetch(base, { method: 'POST' });
    expect(next.status).toBe(200);
  });
});
