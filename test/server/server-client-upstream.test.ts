import { afterEach, describe, expect, it, vi } from 'vitest';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { isHubError } from '../../src/core/errors.js';
import { createServerClient, MAX_ANSWER_BYTES } from '../../src/server/server-client.js';
import { MAX_TOKEN_LIFETIME_SECONDS } from '../../src/server/results.js';
import { createTokenHandler } from '../../src/server/token-handler.js';
import { rejectionOf } from '../rejection.js';

// A hostile or broken upstream, on a real node:http server: the simulator is well-behaved by design,
// so these answers need a service that is not.

const servers: Server[] = [];
/** Written out rather than imported: the safety stops below must hold even against code without the bound. */
const ONE_MB = 1024 * 1024;

afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(
    servers.splice(0).map((server) => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    }),
  );
});

async function upstream(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(answer);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function tokenAnswer(expiresInJson: string): (req: IncomingMessage, res: ServerResponse) => void {
  return (_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(`{"code":200,"message":"ok","data":{"access_token":"tok-1","expires_in":${expiresInJson}}}`);
  };
}

describe('createServerClient caps an upstream answer at 1 MB', () => {
  it('the bound is 1 MB', () => {
    expect(MAX_ANSWER_BYTES).toBe(ONE_MB);
  });

  it('an endless chunked answer is an invalid-response error after at most 1 MB was pulled', async () => {
    let pulled = 0;
    let cancelled = false;
    const endless = (async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          pull(controller) {
            // Past 8 MB a reader without a bound would wait forever instead of using more memory.
            if (pulled >= 8 * ONE_MB) return new Promise<void>(() => {});
            pulled += 16 * 1024;
            controller.enqueue(new Uint8Array(16 * 1024).fill(0x20));
          },
          cancel() {
            cancelled = true;
          },
        }),
        { status: 200, headers: { 'content-type': 'application/json' } },
      )) as typeof fetch;
    const client = createServerClient({ apiKey: 'sk-test', baseUrl: 'https://hub.example.com', fetch: endless });
    const error = await rejectionOf(client.balance('u'));
    expect(isHubError(error, 'invalid-response')).toBe(true);
    expect(cancelled).toBe(true);
    expect(pulled).toBeLessThanOrEqual(ONE_MB + 2 * 16 * 1024);
  });

  it('on node:http, a Content-Length over 1 MB stops the client before the body arrives', async () => {
    const base = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(2 * ONE_MB) });
      res.write('{"code":200,"data":'); // and the rest never comes: only an early stop can answer
    });
    const client = createServerClient({ apiKey: 'sk-test', baseUrl: base, timeoutMs: 3000 });
    const error = await rejectionOf(client.balance('u'));
    expect(isHubError(error, 'invalid-response')).toBe(true);
    expect((error as Error).message).toMatch(/more than 1048576 bytes/);
  });

  it('on node:http, a chunked answer that keeps coming is cut at the bound', async () => {
    let sent = 0;
    const base = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const more = () => {
        // Stops at 64 MB so an unbounded client fails the test instead of the machine.
        while (!res.destroyed && sent < 64 * ONE_MB) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
      };
      more();
    });
    const client = createServerClient({ apiKey: 'sk-test', baseUrl: base, timeoutMs: 3000 });
    const error = await rejectionOf(client.balance('u'));
    expect(isHubError(error, 'invalid-response')).toBe(true);
  });

  it('an answer just under the bound is still read', async () => {
    const data = JSON.stringify({ client_user_id: 'u', user_id: 1, balance_cents: 5 });
    const padding = ' '.repeat(ONE_MB - 100 - data.length);
    const base = await upstream((_req, res) => res.end(`{"code":200,"message":"ok","data":${data}}${padding}`));
    const client = createServerClient({ apiKey: 'sk-test', baseUrl: base });
    expect(await client.balance('u')).toEqual({ clientUserId: 'u', userId: 1, balanceCents: 5 });
  });
});

describe('upstream expires_in must be a finite positive number of at most 30 days', () => {
  it('the documented bound is 30 days', () => {
    expect(MAX_TOKEN_LIFETIME_SECONDS).toBe(30 * 24 * 3600);
  });

  it.each([['1e308'], ['1e400'], ['0'], ['-600'], ['"600"'], ['null'], ['true'], [String(30 * 24 * 3600 + 1)]])(
    'expires_in %s: exchangeToken fails with invalid-response and the token handler answers 502, never 200',
    async (expiresIn) => {
      const base = await upstream(tokenAnswer(expiresIn));
      const client = createServerClient({ apiKey: 'sk-test', baseUrl: base });
      expect(isHubError(await rejectionOf(client.exchangeToken('u')), 'invalid-response')).toBe(true);
      const errors: unknown[] = [];
      const handler = createTokenHandler({ client, resolveClientUserId: () => 'u', onError: (e) => errors.push(e) });
      const response = await handler(new Request('https://app.example.com/t', { method: 'POST' }));
      expect(response.status).toBe(502);
      expect(await response.text()).not.toMatch(/expires_in|null/);
      expect(isHubError(errors[0], 'invalid-response')).toBe(true);
    },
  );

  it.each([['600'], ['0.5'], [String(30 * 24 * 3600)]])('expires_in %s is accepted', async (expiresIn) => {
    const base = await upstream(tokenAnswer(expiresIn));
    const client = createServerClient({ apiKey: 'sk-test', baseUrl: base });
    const handler = createTokenHandler({ client, resolveClientUserId: () => 'u' });
    const response = await handler(new Request('https://app.example.com/t', { method: 'POST' }));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { expires_in: unknown };
    expect(Number.isSafeInteger(body.expires_in)).toBe(true);
  });

  it('a client of your own with an unbounded expiresIn also gets 502', async () => {
    const handler = createTokenHandler({
      client: { exchangeToken: async () => ({ accessToken: 't', expiresIn: Number.MAX_VALUE }) },
      resolveClientUserId: () => 'u',
      onError: () => {},
    });
    expect((await handler(new Request('https://app.example.com/t', { method: 'POST' }))).status).toBe(502);
  });
});

describe('errors carry status and code, never upstream text', () => {
  const key = 'sk-live+Zq/9=key 0123456789abcdef';
  const spellings = [
    key,
    encodeURIComponent(key),
    encodeURI(key),
    key.replace(/ /g, '+'),
    Buffer.from(key).toString('base64'),
    Buffer.from(key).toString('base64url'),
    Buffer.from(key).toString('hex'),
    '0123456789abcdef', // the key's distinctive tail on its own
  ];
  const echo = (status: number) => (req: IncomingMessage, res: ServerResponse) => {
    const sent = String(req.headers['x-api-key']);
    const message = `invalid key ${sent} (${encodeURIComponent(sent)}; ${Buffer.from(sent).toString('base64')}; ${Buffer.from(sent).toString('hex')})`;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ code: status === 200 ? 500 : status, message, data: { echo: sent } }));
  };

  it.each([[401], [402], [500], [200]])(
    'an upstream %d echoing the key in several spellings: no spelling reaches the error or onError output',
    async (status) => {
      const base = await upstream(echo(status));
      const client = createServerClient({ apiKey: key, baseUrl: base });
      const error = await rejectionOf(client.balance('u'));
      // An HTTP 200 whose envelope says 500 is reported as the envelope's status.
      expect(error).toMatchObject({ status: status === 200 ? 500 : status });
      const texts = [
        String(error),
        (error as Error).stack ?? '',
        inspect(error, { depth: 10, showHidden: true }),
        JSON.stringify(error),
      ];
      expect((error as Error).message).toMatch(new RegExp(`HTTP ${status}, code ${status === 200 ? 500 : status}`));

      const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
      const handler = createTokenHandler({ client, resolveClientUserId: () => 'u' });
      const response = await handler(new Request('https://app.example.com/t', { method: 'POST' }));
      expect(response.status).toBe(502);
      texts.push(await response.text(), ...logged.mock.calls.map((call) => call.map(String).join(' ')));
      expect(logged).toHaveBeenCalled();

      const reported: unknown[] = [];
      const withOnError = createTokenHandler({
        client,
        resolveClientUserId: () => 'u',
        onError: (e) => reported.push(e),
      });
      await withOnError(new Request('https://app.example.com/t', { method: 'POST' }));
      texts.push(...reported.map((e) => inspect(e, { depth: 10, showHidden: true })));

      for (const text of texts) for (const spelling of spellings) expect(text).not.toContain(spelling);
    },
  );

  it('a non-envelope answer echoing the key is an invalid-response error without it', async () => {
    const base = await upstream((req, res) => res.end(`<html>key ${String(req.headers['x-api-key'])}</html>`));
    const client = createServerClient({ apiKey: key, baseUrl: base });
    const error = await rejectionOf(client.balance('u'));
    expect(isHubError(error, 'invalid-response')).toBe(true);
    const text = inspect(error, { depth: 10, showHidden: true });
    for (const spelling of spellings) expect(text).not.toContain(spelling);
  });
});
