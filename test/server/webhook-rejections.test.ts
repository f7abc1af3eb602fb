import { afterEach, describe, expect, it, vi } from 'vitest';
import { createWebhookHandler } from '../../src/server/webhook-handler.js';
import { createRejectionLogger, type WebhookRejection } from '../../src/server/webhook-rejections.js';
import { ALLOWED, deductBody, eventBody, webhookRequest } from './webhook-helpers.js';

// A silent 403 leaves a newcomer following the README with no idea why nothing arrived: each one is said.

afterEach(() => {
  vi.restoreAllMocks();
});

function receiver(extra: { trustedProxies?: string[] } = {}) {
  const rejections: WebhookRejection[] = [];
  const handler = createWebhookHandler({
    allowIps: [ALLOWED],
    refunds: 'decline',
    ...(extra.trustedProxies
      ? { trustedProxies: extra.trustedProxies, clientAddressHeader: 'x-real-ip' as const }
      : {}),
    onBillingDeduct: () => true,
    onError: () => {},
    onRejected: (rejection) => rejections.push(rejection),
  });
  return { handler, rejections };
}

describe('onRejected: every refused delivery is reported', () => {
  it.each<[string, () => Request, string | undefined, Partial<WebhookRejection>]>([
    [
      'a source not in allowIps',
      () => webhookRequest(deductBody('1.00')),
      '127.0.0.1',
      { reason: 'address-not-allowed', status: 403, address: '127.0.0.1' },
    ],
    [
      'no socket address',
      () => webhookRequest(deductBody('1.00')),
      undefined,
      { reason: 'no-source-address', status: 403, address: undefined },
    ],
    [
      'a GET',
      () => webhookRequest(deductBody('1.00'), { method: 'GET' }),
      ALLOWED,
      { reason: 'method-not-allowed', status: 405 },
    ],
    [
      'a text/plain body',
      () => webhookRequest(deductBody('1.00'), { headers: { 'content-type': 'text/plain' } }),
      ALLOWED,
      { reason: 'unsupported-media-type', status: 415 },
    ],
    [
      'a body over maxBodyBytes',
      () => webhookRequest(null, { raw: ' '.repeat(70_000), event: 'order_created' }),
      ALLOWED,
      { reason: 'body-too-large', status: 413 },
    ],
    [
      'a body that is not JSON',
      () => webhookRequest(null, { raw: 'nope', event: 'order_created' }),
      ALLOWED,
      { reason: 'body-invalid', status: 400 },
    ],
    [
      'an event with a bad timestamp',
      () => webhookRequest(eventBody('order_created', { timestamp: 'yesterday', notification: {} })),
      ALLOWED,
      { reason: 'event-invalid', status: 400 },
    ],
    [
      'a malformed deduction',
      () => webhookRequest(deductBody('0.00')),
      ALLOWED,
      { reason: 'billing-invalid', status: 200 },
    ],
  ])('%s', async (_label, request, remoteAddress, expected) => {
    const { handler, rejections } = receiver();
    await handler(request(), { remoteAddress });
    expect(rejections).toEqual([expect.objectContaining(expected)]);
    expect(rejections[0]!.message).not.toBe('');
  });

  it('an accepted delivery reports nothing', async () => {
    const { handler, rejections } = receiver();
    const response = await handler(webhookRequest(deductBody('1.00')), { remoteAddress: ALLOWED });
    expect(response.status).toBe(200);
    expect(rejections).toEqual([]);
  });

  it('the message never carries request text', async () => {
    const { handler, rejections } = receiver();
    const hostile = '<img src=x onerror=alert(1)>\n[hub-embed/server] forged line';
    await handler(
      webhookRequest(eventBody(hostile, { timestamp: hostile }), {
        event: 'x',
        headers: { 'x-real-ip': '<img src=x> forged' },
      }),
      { remoteAddress: ALLOWED },
    );
    await handler(webhookRequest(deductBody(hostile)), { remoteAddress: ALLOWED });
    expect(rejections.length).toBe(2);
    for (const rejection of rejections) expect(JSON.stringify(rejection)).not.toMatch(/img|forged/);
  });

  it('a throwing onRejected does not change the answer', async () => {
    const handler = createWebhookHandler({
      refunds: 'decline',
      allowIps: [ALLOWED],
      onBillingDeduct: () => true,
      onRejected: () => {
        throw new Error('logger down');
      },
    });
    expect((await handler(webhookRequest(deductBody('1.00')), { remoteAddress: '127.0.0.1' })).status).toBe(403);
  });
});

describe('the default rejection log: one line per distinct address and reason, saying what to do', () => {
  it('loopback not in allowIps: "add it for local testing with the simulator"', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const handler = createWebhookHandler({ allowIps: [ALLOWED], onBillingDeduct: () => true, refunds: 'decline' });
    await handler(webhookRequest(deductBody('1.00')), { remoteAddress: '127.0.0.1' });
    expect(warn.mock.calls).toEqual([
      ['[hub-embed/server] webhook: 127.0.0.1 is not in allowIps; add it for local testing with the simulator.'],
    ]);
  });

  it('the same address and reason is printed once; another address or reason prints again', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const handler = createWebhookHandler({ allowIps: [ALLOWED], onBillingDeduct: () => true, refunds: 'decline' });
    for (let i = 0; i < 5; i++) await handler(webhookRequest(deductBody('1.00')), { remoteAddress: '127.0.0.1' });
    await handler(webhookRequest(deductBody('1.00')), { remoteAddress: '::1' });
    await handler(webhookRequest(deductBody('1.00')), { remoteAddress: '198.51.100.1' });
    for (let i = 0; i < 3; i++)
      await handler(webhookRequest(deductBody('1.00'), { method: 'GET' }), { remoteAddress: ALLOWED });
    for (let i = 0; i < 3; i++) await handler(webhookRequest(deductBody('0.00')), { remoteAddress: ALLOWED });
    const lines = warn.mock.calls.map((call) => String(call[0]));
    expect(lines).toEqual([
      '[hub-embed/server] webhook: 127.0.0.1 is not in allowIps; add it for local testing with the simulator.',
      '[hub-embed/server] webhook: ::1 is not in allowIps; add it for local testing with the simulator.',
      "[hub-embed/server] webhook: 198.51.100.1 is not in allowIps; if it is one of the platform's outbound IPs shown in the console, add it.",
      `[hub-embed/server] webhook: ${ALLOWED}: a request that is not POST was refused (405); the service sends POST only.`,
      `[hub-embed/server] webhook: ${ALLOWED}: a malformed billing_deduct was answered ok:false without calling onBillingDeduct: "billing.amount" must be more than "0.00".`,
    ]);
  });

  it('a forwarded header from a socket that is not a trusted proxy: the line says to add the proxy', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const handler = createWebhookHandler({ allowIps: [ALLOWED], onBillingDeduct: () => true, refunds: 'decline' });
    await handler(webhookRequest(deductBody('1.00'), { headers: { 'x-forwarded-for': ALLOWED } }), {
      remoteAddress: '10.0.0.2',
    });
    expect(String(warn.mock.calls[0]![0])).toMatch(
      /10\.0\.0\.2 is not in allowIps\. .*add it to trustedProxies and set clientAddressHeader/,
    );
  });

  it('remembers a bounded number of pairs, then says once that it stops printing', () => {
    const lines: string[] = [];
    const log = createRejectionLogger((line) => lines.push(line));
    const rejection = (i: number): WebhookRejection => ({
      reason: 'address-not-allowed',
      address: `198.51.${Math.floor(i / 256)}.${i % 256}`,
      status: 403,
      message: `line ${i}`,
    });
    for (let i = 0; i < 1500; i++) log(rejection(i));
    for (let i = 0; i < 10; i++) log(rejection(i));
    expect(lines.length).toBe(1001);
    expect(lines[1000]).toMatch(/further ones are not printed\. Pass onRejected/);
  });
});
