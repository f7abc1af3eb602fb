// Webhook bodies have a read deadline: an allowed sender that trickles its body holds no connection
// past bodyTimeoutMs, on node:http (toNodeListener, a real slow socket) and on the Web Request path.
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toNodeListener } from '../../src/server/node.js';
import { createWebhookHandler, type WebhookHandlerOptions } from '../../src/server/webhook-handler.js';
import type { WebhookRejection } from '../../src/server/webhook-rejections.js';
import { trickleBody } from './slow-sender.js';
import { ALLOWED, deductBody, webhookRequest } from './webhook-helpers.js';

const servers: Server[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

function receiver(options: Partial<WebhookHandlerOptions> = {}) {
  const rejections: WebhookRejection[] = [];
  const deducts: unknown[] = [];
  const handler = createWebhookHandler({
    allowIps: ['127.0.0.1', ALLOWED],
    refunds: 'decline',
    onBillingDeduct: (event) => (deducts.push(event), true),
    onRejected: (rejection) => rejections.push(rejection),
    ...options,
  });
  return { handler, rejections, deducts };
}

async function listen(handler: ReturnType<typeof receiver>['handler']): Promise<number> {
  const listener = toNodeListener(handler);
  const server = createServer((req, res) => listener(req, res));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** A delivery from the allowed sender that declares a body and trickles it. */
const trickle = (port: number, everyMs: number) =>
  trickleBody(
    port,
    'POST /hooks HTTP/1.1\r\nHost: receiver.test\r\nContent-Type: application/json\r\n' +
      'X-Webhook-Event: billing_deduct\r\nContent-Length: 1000\r\n\r\n{',
    everyMs,
  );

describe('webhook body read deadline (bodyTimeoutMs)', () => {
  it('a body trickling past the deadline gets 408 on node:http, and the receiver closes the connection', async () => {
    const { handler, rejections, deducts } = receiver({ bodyTimeoutMs: 300 });
    const answer = await trickle(await listen(handler), 50);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(answer).toContain('Body too slow.');
    expect(deducts).toEqual([]);
    expect(rejections).toEqual([expect.objectContaining({ reason: 'body-too-slow', status: 408 })]);
  });

  it('a body that arrives in time is answered as usual on node:http', async () => {
    const { handler, deducts } = receiver({ bodyTimeoutMs: 5_000 });
    const port = await listen(handler);
    const response = await fetch(`http://127.0.0.1:${port}/hooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-event': 'billing_deduct' },
      body: JSON.stringify(deductBody('1.00')),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(deducts).toHaveLength(1);
  });

  it('on the Web Request path a stalled body gets 408 with Connection: close, and its stream is cancelled', async () => {
    const { handler, deducts } = receiver({ bodyTimeoutMs: 200 });
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"event":'));
      },
      cancel() {
        cancelled = true;
      },
    });
    const request = new Request('http://receiver.test/hooks', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-event': 'billing_deduct' },
      body,
      duplex: 'half',
    } as RequestInit);
    const response = await handler(request, { remoteAddress: ALLOWED });
    expect(response.status).toBe(408);
    expect(response.headers.get('connection')).toBe('close');
    expect(cancelled).toBe(true);
    expect(deducts).toEqual([]);
  });

  it('the default deadline is 5 s', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { handler } = receiver();
    const stalled = new ReadableStream<Uint8Array>({ start() {} });
    let status: number | undefined;
    void handler(
      new Request('http://receiver.test/hooks', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-webhook-event': 'billing_deduct' },
        body: stalled,
        duplex: 'half',
      } as RequestInit),
      { remoteAddress: ALLOWED },
    ).then((response) => (status = response.status));
    await vi.advanceTimersByTimeAsync(4999);
    expect(status).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(status).toBe(408);
  });

  it('a refused address is answered 403 before its body is read, deadline or not', async () => {
    const { handler } = receiver({ bodyTimeoutMs: 100_000 });
    const stalled = new ReadableStream<Uint8Array>({ start() {} });
    const response = await handler(
      new Request('http://receiver.test/hooks', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: stalled,
        duplex: 'half',
      } as RequestInit),
      { remoteAddress: '198.51.100.1' },
    );
    expect(response.status).toBe(403);
  });

  it.each([[0], [-1], [1.5]])('bodyTimeoutMs %d is a config error when the receiver is made', (bodyTimeoutMs) => {
    expect(() => receiver({ bodyTimeoutMs })).toThrow(/bodyTimeoutMs/);
  });

  it('an in-time body still works through the helper request', async () => {
    const { handler } = receiver({ bodyTimeoutMs: 1_000 });
    expect((await handler(webhookRequest(deductBody('1.00')), { remoteAddress: ALLOWED })).status).toBe(200);
  });
});
