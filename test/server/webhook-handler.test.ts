import { afterEach, describe, expect, it, vi } from 'vitest';
import { isHubError } from '../../src/core/errors.js';
import { createWebhookHandler, type WebhookHandlerOptions } from '../../src/server/webhook-handler.js';
import type { WebhookRejection } from '../../src/server/webhook-rejections.js';
import {
  NOTIFICATION_EVENTS,
  type BillingDeductEvent,
  type NotificationEvent,
} from '../../src/server/webhook-events.js';
import { ALLOWED, deductBody, eventBody, webhookRequest } from './webhook-helpers.js';
import { DOCUMENTED_WEBHOOK_TIMESTAMP, DOCUMENTED_WEBHOOK_TIMESTAMP_UTC } from '../fixtures/service-examples.js';

const source = { remoteAddress: ALLOWED };

function receiver(overrides: Partial<WebhookHandlerOptions> = {}) {
  const errors: unknown[] = [];
  const options: WebhookHandlerOptions = {
    allowIps: [ALLOWED],
    onBillingDeduct: vi.fn(() => true),
    onError: (error) => errors.push(error),
    onRejected: () => {},
    // A receiver that makes no refunds says so; the tests of the start-up warning pass refunds: undefined.
    ...(overrides.onBillingRefund === undefined && { refunds: 'decline' as const }),
    ...overrides,
  };
  return { handler: createWebhookHandler(options), options, errors };
}

async function bodyOf(response: Response): Promise<unknown> {
  return JSON.parse(await response.text());
}

/** A body stream that counts what the handler pulls, to prove a huge body is not read to the end. */
function countingStream(totalBytes: number, chunkBytes = 16 * 1024) {
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= totalBytes) return controller.close();
      const size = Math.min(chunkBytes, totalBytes - pulled);
      pulled += size;
      controller.enqueue(new Uint8Array(size).fill(0x20));
    },
  });
  return { stream, pulled: () => pulled };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('webhook request checks', () => {
  it('a GET gets 405 with Allow: POST', async () => {
    const { handler, options } = receiver();
    const response = await handler(webhookRequest(deductBody('1.00'), { method: 'GET' }), source);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(options.onBillingDeduct).not.toHaveBeenCalled();
  });

  it('takes the documented timestamp (2026-04-08T23:30:00+08:00) and the same instant written with Z', async () => {
    const seen: BillingDeductEvent[] = [];
    const { handler } = receiver({
      onBillingDeduct: (event) => {
        seen.push(event);
        return true;
      },
    });
    for (const timestamp of [DOCUMENTED_WEBHOOK_TIMESTAMP, DOCUMENTED_WEBHOOK_TIMESTAMP_UTC]) {
      const body = { ...deductBody('1.00'), timestamp };
      const response = await handler(webhookRequest(body), source);
      expect(await bodyOf(response), timestamp).toEqual({ ok: true });
    }
    expect(seen.map((event) => event.timestamp.toISOString())).toEqual([
      '2026-04-08T15:30:00.000Z',
      '2026-04-08T15:30:00.000Z',
    ]);
    expect(seen.map((event) => event.timestampOffsetMinutes)).toEqual([480, 0]);
    expect(seen.map((event) => event.timestampText)).toEqual([
      DOCUMENTED_WEBHOOK_TIMESTAMP,
      DOCUMENTED_WEBHOOK_TIMESTAMP_UTC,
    ]);
  });

  it.each([
    ['text/plain'],
    ['application/x-www-form-urlencoded'],
    ['application/json; charset=latin1'],
    ['application/jsonp'],
  ])('Content-Type %s gets 415', async (type) => {
    const { handler } = receiver();
    const response = await handler(webhookRequest(deductBody('1.00'), { headers: { 'content-type': type } }), source);
    expect(response.status).toBe(415);
  });

  it.each([['application/json; charset=utf-8'], ['Application/JSON'], ['application/json;charset="UTF-8"']])(
    'Content-Type %s is accepted',
    async (type) => {
      const { handler } = receiver();
      const response = await handler(webhookRequest(deductBody('1.00'), { headers: { 'content-type': type } }), source);
      expect(response.status).toBe(200);
    },
  );

  it('a 1 MB body gets 413 without being read to the end', async () => {
    const { handler, options } = receiver();
    const { stream, pulled } = countingStream(1024 * 1024);
    const request = new Request('http://receiver.test/hooks', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-event': 'billing_deduct' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    const response = await handler(request, source);
    expect(response.status).toBe(413);
    expect(pulled()).toBeLessThan(256 * 1024);
    expect(options.onBillingDeduct).not.toHaveBeenCalled();
  });

  it('maxBodyBytes bounds the body: one byte over gets 413, exactly at the bound is read', async () => {
    const raw = JSON.stringify(deductBody('1.00'));
    const size = new TextEncoder().encode(raw).byteLength;
    const over = receiver({ maxBodyBytes: size - 1 });
    expect((await over.handler(webhookRequest(null, { raw, event: 'billing_deduct' }), source)).status).toBe(413);
    const exact = receiver({ maxBodyBytes: size });
    expect((await exact.handler(webhookRequest(null, { raw, event: 'billing_deduct' }), source)).status).toBe(200);
  });

  it.each([['{"event":'], ['not json'], ['<html>'], ['']])(
    'malformed JSON %j gets 400 and reaches no callback',
    async (raw) => {
      const onNotification = vi.fn();
      const { handler } = receiver({ onNotification });
      const response = await handler(webhookRequest(null, { raw, event: 'order_created' }), source);
      expect(response.status).toBe(400);
      expect(onNotification).not.toHaveBeenCalled();
    },
  );

  it('a body that is not UTF-8 gets 400', async () => {
    const { handler } = receiver();
    const request = new Request('http://receiver.test/hooks', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-event': 'order_created' },
      body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
    });
    expect((await handler(request, source)).status).toBe(400);
  });

  it.each([[[1, 2]], ['"billing_deduct"'], [42], [null]])(
    'a JSON body that is not an object (%j) gets 400',
    async (value) => {
      const { handler } = receiver();
      const response = await handler(
        webhookRequest(null, { raw: JSON.stringify(value), event: 'order_created' }),
        source,
      );
      expect(response.status).toBe(400);
    },
  );

  it('X-Webhook-Event different from body.event gets 400 and reaches no callback', async () => {
    const { handler, options } = receiver();
    const response = await handler(webhookRequest(deductBody('1.00'), { event: 'billing_refund' }), source);
    expect(response.status).toBe(400);
    expect(options.onBillingDeduct).not.toHaveBeenCalled();
  });

  it('a missing X-Webhook-Event gets 400', async () => {
    const { handler } = receiver();
    const body = eventBody('order_created', { notification: {} });
    expect((await handler(webhookRequest(body, { event: null }), source)).status).toBe(400);
  });

  it.each([
    ['2025-01-02 10:00:00'],
    ['2025-01-02T10:00:00'],
    ['2025-02-30T10:00:00+08:00'],
    ['yesterday'],
    [1735783200],
  ])('a timestamp %j that is not ISO 8601 with an offset gets 400', async (timestamp) => {
    const { handler } = receiver();
    const response = await handler(webhookRequest(eventBody('order_created', { timestamp, notification: {} })), source);
    expect(response.status).toBe(400);
  });

  it.each([
    [{ short_code: 7 }],
    [{ project_icon_url: 1 }],
    [{ target: 'user-1' }],
    [{ target: { client_user_id: 5 } }],
  ])('a common field of the wrong type (%j) gets 400', async (extra) => {
    const { handler } = receiver();
    const response = await handler(webhookRequest(eventBody('order_created', { notification: {}, ...extra })), source);
    expect(response.status).toBe(400);
  });

  it('error answers do not echo hostile input back', async () => {
    const { handler } = receiver();
    const hostile = '<img src=x onerror=alert(1)>';
    const response = await handler(webhookRequest(eventBody(hostile), { event: 'x' }), source);
    expect(response.status).toBe(400);
    expect(await response.text()).not.toContain('<img');
  });
});

describe('billing_deduct', () => {
  it.each([
    ['0.29', 29],
    ['10.00', 1000],
    ['0.01', 1],
    ['123456789.01', 12345678901],
  ])('billing.amount %j reaches the handler as %d cents', async (amount, cents) => {
    const { handler, options } = receiver();
    const response = await handler(webhookRequest(deductBody(amount)), source);
    expect(response.status).toBe(200);
    expect(await bodyOf(response)).toEqual({ ok: true });
    expect((options.onBillingDeduct as ReturnType<typeof vi.fn>).mock.calls[0]![0]).toMatchObject({
      amountCents: cents,
      amount,
    });
  });

  it.each([['1'], ['1.5'], ['-1.00'], ['1e3'], ['0.299'], [''], [0.29], [null], ['１.００']])(
    'a malformed billing.amount %j answers 200 ok:false and never reaches the handler',
    async (amount) => {
      const { handler, options } = receiver();
      const response = await handler(webhookRequest(deductBody(amount)), source);
      expect(response.status).toBe(200);
      expect(await bodyOf(response)).toEqual({ ok: false });
      expect(options.onBillingDeduct).not.toHaveBeenCalled();
    },
  );

  it('a missing billing object answers 200 ok:false', async () => {
    const { handler } = receiver();
    const response = await handler(webhookRequest(eventBody('billing_deduct')), source);
    expect(response.status).toBe(200);
    expect(await bodyOf(response)).toEqual({ ok: false });
  });

  it('the handler gets amountCents, reason, clientUserId, shortCode, the parsed timestamp and the raw body', async () => {
    let seen: BillingDeductEvent | undefined;
    const { handler } = receiver({
      onBillingDeduct: (event) => {
        seen = event;
        return true;
      },
    });
    const reason = '解锁 <b>contact</b> \u2028 🙂';
    await handler(webhookRequest(deductBody('0.29', reason)), source);
    expect(seen).toMatchObject({
      event: 'billing_deduct',
      amountCents: 29,
      reason,
      clientUserId: 'user-1',
      shortCode: 'abc123',
      projectIconUrl: null,
    });
    expect(seen!.timestamp.toISOString()).toBe('2025-01-02T02:00:00.000Z');
    expect(seen!.timestampOffsetMinutes).toBe(480);
    expect(seen!.timestampText).toBe('2025-01-02T10:00:00+08:00');
    expect(seen!.raw.billing).toEqual({ amount: '0.29', reason });
  });

  it.each([
    ['true', () => true, true],
    ['a resolved true', async () => true, true],
    ['false', () => false, false],
    ['a truthy non-boolean', () => 'yes' as unknown as boolean, false],
    [
      'a throw',
      () => {
        throw new Error('ledger down');
      },
      false,
    ],
    [
      'a rejection',
      async () => {
        throw new Error('ledger down');
      },
      false,
    ],
  ])('%s from the handler answers 200 with the matching ok', async (_label, onBillingDeduct, ok) => {
    const { handler } = receiver({ onBillingDeduct });
    const response = await handler(webhookRequest(deductBody('1.00')), source);
    expect(response.status).toBe(200);
    expect(await bodyOf(response)).toEqual({ ok });
  });

  it('a throwing handler is reported to onError', async () => {
    const failure = new Error('ledger down');
    const { handler, errors } = receiver({
      onBillingDeduct: () => {
        throw failure;
      },
    });
    await handler(webhookRequest(deductBody('1.00')), source);
    expect(errors).toEqual([failure]);
  });

  it('a handler slower than the deadline answers ok:false at the deadline and its signal aborts', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    let signal: AbortSignal | undefined;
    const { handler, errors } = receiver({
      deadlineMs: 3000,
      onBillingDeduct: (_event, context) => {
        signal = context.signal;
        return new Promise<boolean>(() => {});
      },
    });
    let settled: Response | undefined;
    const pending = handler(webhookRequest(deductBody('1.00')), source).then((response) => (settled = response));
    await vi.advanceTimersByTimeAsync(2999);
    expect(settled).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    await pending;
    expect(settled!.status).toBe(200);
    expect(await bodyOf(settled!)).toEqual({ ok: false });
    expect(signal!.aborted).toBe(true);
    expect(errors.length).toBe(1);
    expect(isHubError(errors[0], 'timeout')).toBe(true);
  });

  it('a true that arrives after the deadline still answers ok:false', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { handler } = receiver({
      deadlineMs: 1000,
      onBillingDeduct: () => new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 5000)),
    });
    const pending = handler(webhookRequest(deductBody('1.00')), source);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await bodyOf(await pending)).toEqual({ ok: false });
  });

  it('the deadline counts from the request\u2019s arrival: time spent receiving the body is spent from it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { handler, errors } = receiver({
      deadlineMs: 1000,
      // In time if the deadline were counted from the body's end (600 ms), late from the arrival (1,200 ms).
      onBillingDeduct: () => new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 600)),
    });
    const text = JSON.stringify(deductBody('1.00'));
    // The headers arrive now; the body 600 ms later, within bodyTimeoutMs (5 s).
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        await new Promise((resolve) => setTimeout(resolve, 600));
        controller.enqueue(new TextEncoder().encode(text));
        controller.close();
      },
    });
    const request = new Request('http://receiver.test/hooks', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-event': 'billing_deduct' },
      body,
      duplex: 'half',
    } as RequestInit);
    const pending = handler(request, source);
    // Past both moments: counted from arrival it answers at 1,000 ms, from the body's end at 1,200 ms.
    await vi.advanceTimersByTimeAsync(1300);
    expect(await bodyOf(await pending)).toEqual({ ok: false });
    expect(errors.length).toBe(1);
    expect(isHubError(errors[0], 'timeout')).toBe(true);
  });

  it("the default deadline is 8 s, inside the service's 10 s timeout", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { handler } = receiver({ onBillingDeduct: () => new Promise<boolean>(() => {}) });
    let settled = false;
    const pending = handler(webhookRequest(deductBody('1.00')), source).then((r) => ((settled = true), r));
    await vi.advanceTimersByTimeAsync(7999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await bodyOf(await pending)).toEqual({ ok: false });
  });

  it.each([[10_000], [0], [-5], [1.5]])('deadlineMs %d is a config error', (deadlineMs) => {
    expect(() => receiver({ deadlineMs })).toThrow(/deadlineMs/);
  });

  it('createWebhookHandler without onBillingDeduct is a config error', () => {
    expect(() => createWebhookHandler({ allowIps: [ALLOWED] } as unknown as WebhookHandlerOptions)).toThrow(
      /onBillingDeduct/,
    );
  });
});

describe('billing_refund', () => {
  const refund = () => eventBody('billing_refund', { billing: { amount: '2.50', reason: 'Complaint upheld' } });

  it('handler success answers 200 and the handler gets integer cents', async () => {
    const onBillingRefund = vi.fn();
    const { handler } = receiver({ onBillingRefund });
    const response = await handler(webhookRequest(refund()), source);
    expect(response.status).toBe(200);
    expect(onBillingRefund.mock.calls[0]![0]).toMatchObject({
      event: 'billing_refund',
      amountCents: 250,
      reason: 'Complaint upheld',
    });
  });

  it('a throw answers 500 and is reported', async () => {
    const { handler, errors } = receiver({ onBillingRefund: () => Promise.reject(new Error('db')) });
    expect((await handler(webhookRequest(refund()), source)).status).toBe(500);
    expect(errors.length).toBe(1);
  });

  it('without onBillingRefund the refund is answered 501 and onRejected hears refund-not-handled', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    for (const refunds of [undefined, 'decline' as const]) {
      const rejections: WebhookRejection[] = [];
      const { handler } = receiver({ refunds, onRejected: (rejection) => rejections.push(rejection) });
      const response = await handler(webhookRequest(refund()), source);
      expect(response.status).toBe(501);
      expect(rejections).toEqual([
        {
          reason: 'refund-not-handled',
          address: ALLOWED,
          status: 501,
          message: expect.stringMatching(/billing_refund was answered 501.*does not resend it.*pass onBillingRefund/),
        },
      ]);
      // What the delivery said stays out of the line: logs are no place for request text.
      expect(rejections[0]!.message).not.toMatch(/Complaint upheld|2\.50|user-1/);
    }
    expect(warn).toHaveBeenCalledTimes(1); // the receiver without refunds: 'decline'
  });

  it('without onBillingRefund the handler warns at start-up that every refund would be lost', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    receiver({ refunds: undefined });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/no onBillingRefund.*501.*lost.*refunds: 'decline'/);
  });

  it("refunds: 'decline' says no refunds on purpose: no start-up warning", () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    receiver({ refunds: 'decline' });
    receiver({ onBillingRefund: () => {} });
    expect(warn).not.toHaveBeenCalled();
  });

  it("onBillingRefund with refunds: 'decline', or any other refunds value, is a config error", () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    for (const overrides of [
      { onBillingRefund: () => {}, refunds: 'decline' as const },
      { refunds: 'ignore' as unknown as 'decline' },
      { onBillingRefund: 'yes' as unknown as () => void },
    ]) {
      let thrown: unknown;
      try {
        receiver(overrides);
      } catch (error) {
        thrown = error;
      }
      expect(isHubError(thrown) && thrown.kind).toBe('config');
    }
  });

  it('a malformed refund amount answers 400 and never reaches the handler', async () => {
    const onBillingRefund = vi.fn();
    const { handler } = receiver({ onBillingRefund });
    const body = eventBody('billing_refund', { billing: { amount: '2.5', reason: '' } });
    expect((await handler(webhookRequest(body), source)).status).toBe(400);
    expect(onBillingRefund).not.toHaveBeenCalled();
  });
});

describe('notifications', () => {
  const notification = { title: 'New order <b>', content: 'Line\u2028two 🙂', link_url: '/orders/42?tab=detail' };

  it.each(NOTIFICATION_EVENTS.map((name) => [name]))(
    '%s answers 204 after onNotification gets the typed event',
    async (name) => {
      const onNotification = vi.fn();
      const { handler } = receiver({ onNotification });
      const response = await handler(webhookRequest(eventBody(name, { notification })), source);
      expect(response.status).toBe(204);
      expect(onNotification.mock.calls[0]![0]).toMatchObject({
        event: name,
        clientUserId: 'user-1',
        notification: { title: notification.title, content: notification.content, linkUrl: notification.link_url },
      });
    },
  );

  it('a throwing onNotification answers 500', async () => {
    const { handler } = receiver({
      onNotification: () => {
        throw new Error('queue full');
      },
    });
    expect((await handler(webhookRequest(eventBody('order_grabbed', { notification })), source)).status).toBe(500);
  });

  it('without onNotification a notification still answers 204', async () => {
    const { handler } = receiver();
    expect((await handler(webhookRequest(eventBody('order_grabbed', { notification })), source)).status).toBe(204);
  });

  it('a notification without a notification object answers 400', async () => {
    const { handler } = receiver({ onNotification: vi.fn() });
    expect((await handler(webhookRequest(eventBody('order_grabbed')), source)).status).toBe(400);
  });

  it('enterprise authorization events may carry an empty short_code', async () => {
    const onNotification = vi.fn();
    const { handler } = receiver({ onNotification });
    const body = eventBody('enterprise_authorization_pending', { short_code: '', target: null, notification });
    expect((await handler(webhookRequest(body), source)).status).toBe(204);
    expect(onNotification.mock.calls[0]![0]).toMatchObject({ shortCode: '', clientUserId: null });
  });

  it('event.link(token, formSiteRoot) builds the full link with buildNotificationLink', async () => {
    let seen: NotificationEvent | undefined;
    const { handler } = receiver({ onNotification: (event) => void (seen = event) });
    await handler(webhookRequest(eventBody('order_matched', { notification })), source);
    expect(seen!.link('tok en/+', 'https://forms.example.com')).toBe(
      'https://forms.example.com/orders/42?tab=detail&token=tok%20en%2F%2B',
    );
  });

  it.each([['//evil.example/x'], ['javascript:alert(1)'], ['https://evil.example/']])(
    'event.link refuses the unsafe link_url %j with a config error',
    async (linkUrl) => {
      let seen: NotificationEvent | undefined;
      const { handler } = receiver({ onNotification: (event) => void (seen = event) });
      await handler(
        webhookRequest(eventBody('order_matched', { notification: { ...notification, link_url: linkUrl } })),
        source,
      );
      let thrown: unknown;
      try {
        seen!.link('t', 'https://forms.example.com');
      } catch (error) {
        thrown = error;
      }
      expect(isHubError(thrown, 'config')).toBe(true);
    },
  );
});

describe('unknown events', () => {
  it('answer 204 after onUnknownEvent', async () => {
    const onUnknownEvent = vi.fn();
    const { handler } = receiver({ onUnknownEvent });
    const response = await handler(webhookRequest(eventBody('something_new', { extra: 1 })), source);
    expect(response.status).toBe(204);
    expect(onUnknownEvent.mock.calls[0]![0]).toMatchObject({ event: 'something_new', raw: { extra: 1 } });
  });

  it('answer 204 without onUnknownEvent, and 500 when it throws', async () => {
    expect((await receiver().handler(webhookRequest(eventBody('something_new')), source)).status).toBe(204);
    const failing = receiver({
      onUnknownEvent: () => {
        throw new Error('x');
      },
    });
    expect((await failing.handler(webhookRequest(eventBody('something_new')), source)).status).toBe(500);
  });
});
