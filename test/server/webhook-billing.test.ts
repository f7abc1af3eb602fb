import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { createWebhookHandler } from '../../src/server/webhook-handler.js';
import type { WebhookRejection } from '../../src/server/webhook-rejections.js';
import { ALLOWED, deductBody, eventBody, webhookRequest } from './webhook-helpers.js';

// The spec: a deduction is answered HTTP 200 in both cases, told apart by `ok` alone. A deduction the
// receiver cannot read is one it must not confirm, and one the callback must never see.
const source = { remoteAddress: ALLOWED };

function receiver() {
  const onBillingDeduct = vi.fn(() => true);
  const onBillingRefund = vi.fn();
  const rejections: WebhookRejection[] = [];
  const handler = createWebhookHandler({
    allowIps: [ALLOWED],
    onBillingDeduct,
    onBillingRefund,
    onError: () => {},
    onRejected: (rejection) => rejections.push(rejection),
  });
  return { handler, onBillingDeduct, onBillingRefund, rejections };
}

async function answerTo(request: Request) {
  const { handler, onBillingDeduct, rejections } = receiver();
  const response = await handler(request, source);
  const text = await response.text();
  return {
    status: response.status,
    body: text === '' ? undefined : (JSON.parse(text) as unknown),
    called: onBillingDeduct.mock.calls.length,
    rejections,
  };
}

const declined = { status: 200, body: { ok: false }, called: 0 };

describe('billing_deduct: any malformed field is answered 200 {ok:false} without calling the callback', () => {
  it.each<[string, Record<string, unknown>]>([
    ['timestamp without offset', { timestamp: '2025-01-02T10:00:00' }],
    ['timestamp with a space', { timestamp: '2025-01-02 10:00:00+08:00' }],
    ['timestamp as a number', { timestamp: 1735783200 }],
    ['timestamp on a day that does not exist', { timestamp: '2025-02-30T10:00:00+08:00' }],
    ['target not an object', { target: 'user-1' }],
    ['target an array', { target: ['user-1'] }],
    ['target.client_user_id a number', { target: { client_user_id: 5 } }],
    ['target.client_user_id null', { target: { client_user_id: null } }],
    ['target.client_user_id empty', { target: { client_user_id: '' } }],
    ['target missing', { target: null }],
    ['short_code a number', { short_code: 7 }],
    ['project_icon_url an object', { project_icon_url: {} }],
    ['amount "0.00"', { billing: { amount: '0.00', reason: 'x' } }],
    ['amount "00.00"', { billing: { amount: '00.00', reason: 'x' } }],
    ['amount a number', { billing: { amount: 1, reason: 'x' } }],
    ['reason a number', { billing: { amount: '1.00', reason: 3 } }],
    ['billing an array', { billing: ['1.00'] }],
  ])('%s', async (_label, change) => {
    const answer = await answerTo(webhookRequest({ ...deductBody('1.00'), ...change }, { event: 'billing_deduct' }));
    expect(answer).toMatchObject(declined);
    expect(answer.rejections).toEqual([
      expect.objectContaining({ reason: 'billing-invalid', status: 200, address: ALLOWED }),
    ]);
  });

  it.each([['{"event":"billing_deduct",'], ['not json'], ['[]'], ['null']])(
    'a body %j that is not a JSON object, sent as billing_deduct',
    async (raw) => {
      expect(await answerTo(webhookRequest(null, { raw, event: 'billing_deduct' }))).toMatchObject(declined);
    },
  );

  it('a body that is not UTF-8, sent as billing_deduct', async () => {
    const request = new Request('http://receiver.test/hooks', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-event': 'billing_deduct' },
      body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
    });
    expect(await answerTo(request)).toMatchObject(declined);
  });

  it('a billing_deduct body without X-Webhook-Event, or with another event in it', async () => {
    expect(await answerTo(webhookRequest(deductBody('1.00'), { event: null }))).toMatchObject(declined);
    expect(await answerTo(webhookRequest(deductBody('1.00'), { event: 'order_created' }))).toMatchObject(declined);
    const notification = eventBody('order_created', { notification: {} });
    expect(await answerTo(webhookRequest(notification, { event: 'billing_deduct' }))).toMatchObject(declined);
  });

  it('a well-formed deduction still reaches the callback (the control case)', async () => {
    expect(await answerTo(webhookRequest(deductBody('1.00')))).toMatchObject({
      status: 200,
      body: { ok: true },
      called: 1,
    });
  });

  it('property: one malformed field anywhere in a valid deduction is always 200 {ok:false}, callback not called', async () => {
    const malformed: Record<string, fc.Arbitrary<unknown>> = {
      timestamp: fc.oneof(
        fc.constantFrom('2025-01-02T10:00:00', '2025-01-02', '', 'now', '2025-01-02T10:00:00+8:00'),
        fc.integer(),
        fc.constant(null),
      ),
      target: fc.oneof(fc.string(), fc.integer(), fc.array(fc.string()), fc.constant(null)),
      short_code: fc.oneof(fc.integer(), fc.boolean(), fc.dictionary(fc.string(), fc.string())),
      project_icon_url: fc.oneof(fc.integer(), fc.boolean(), fc.array(fc.string())),
      billing: fc.oneof(
        fc.constant(null),
        fc.string(),
        fc.record({
          amount: fc.oneof(
            fc.constantFrom('0.00', '1', '1.5', '-1.00', '1e3', '0.299', '', ' 1.00', '１.００', '+1.00'),
            fc.double(),
            fc.string().filter((text) => !/^[0-9]+\.[0-9]{2}$/.test(text)),
          ),
          reason: fc.string(),
        }),
        fc.record({ amount: fc.constant('1.00'), reason: fc.oneof(fc.integer(), fc.array(fc.string())) }),
      ),
    };
    const field = fc.constantFrom(...Object.keys(malformed));
    await fc.assert(
      fc.asyncProperty(
        field.chain((name) => fc.tuple(fc.constant(name), malformed[name]!)),
        async ([name, value]) => {
          const body = { ...deductBody('1.00'), [name]: value };
          const answer = await answerTo(webhookRequest(body, { event: 'billing_deduct' }));
          expect(answer).toMatchObject(declined);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('property: every positive amount in canonical yuan reaches the callback as exact cents', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), async (cents) => {
        const amount = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
        const { handler, onBillingDeduct } = receiver();
        const response = await handler(webhookRequest(deductBody(amount)), source);
        expect(await response.json()).toEqual({ ok: true });
        expect((onBillingDeduct.mock.calls[0] as unknown[])[0]).toMatchObject({ amountCents: cents, amount });
      }),
      { numRuns: 100 },
    );
  });
});

describe('billing_refund of nothing is refused too', () => {
  it('a refund of "0.00" gets 400 (not delivered) and never reaches onBillingRefund', async () => {
    const { handler, onBillingRefund, rejections } = receiver();
    const body = eventBody('billing_refund', { billing: { amount: '0.00', reason: 'Complaint upheld' } });
    const response = await handler(webhookRequest(body), source);
    expect(response.status).toBe(400);
    expect(onBillingRefund).not.toHaveBeenCalled();
    expect(rejections).toEqual([expect.objectContaining({ reason: 'billing-invalid', status: 400 })]);
  });

  it('a refund for no user gets 400 and never reaches onBillingRefund', async () => {
    const { handler, onBillingRefund } = receiver();
    const body = eventBody('billing_refund', { target: null, billing: { amount: '1.00', reason: '' } });
    expect((await handler(webhookRequest(body), source)).status).toBe(400);
    expect(onBillingRefund).not.toHaveBeenCalled();
  });

  it('a body that says billing_deduct but is sent as billing_refund is not confirmed with a 200', async () => {
    // A 200 counts a refund as delivered; only a non-2xx tells the service it did not happen.
    const { handler, onBillingDeduct, onBillingRefund } = receiver();
    const response = await handler(webhookRequest(deductBody('1.00'), { event: 'billing_refund' }), source);
    expect(response.status).toBe(400);
    expect(onBillingDeduct).not.toHaveBeenCalled();
    expect(onBillingRefund).not.toHaveBeenCalled();
  });
});

describe('one parse path: a header that names another event than the body is refused the same way in every branch', () => {
  const refund = () => eventBody('billing_refund', { billing: { amount: '1.00', reason: 'Refund' } });

  it('a billing_deduct header over a billing_refund body is 400, not 200 {ok:false}', async () => {
    // 200 would tell the service a refund was made; {ok:false} reads as a deduction declined. Neither is true.
    const { handler, onBillingDeduct, onBillingRefund, rejections } = receiver();
    const response = await handler(webhookRequest(refund(), { event: 'billing_deduct' }), source);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'X-Webhook-Event must equal the body\'s "event".' });
    expect(onBillingDeduct).not.toHaveBeenCalled();
    expect(onBillingRefund).not.toHaveBeenCalled();
    expect(rejections).toEqual([expect.objectContaining({ reason: 'event-invalid', status: 400 })]);
  });

  it('property: any header that is not the body\u2019s event never reaches a callback; only a deduction with no refund named gets 200 {ok:false}', async () => {
    const names = fc.constantFrom('billing_deduct', 'billing_refund', 'order_matched', 'something_new', '');
    await fc.assert(
      fc.asyncProperty(names, names, fc.boolean(), async (header, inBody, wellFormed) => {
        fc.pre(header !== inBody);
        const body = wellFormed
          ? eventBody(inBody, {
              billing: { amount: '1.00', reason: 'x' },
              notification: { title: 't', content: 'c', link_url: '/x' },
            })
          : { event: inBody };
        const { handler, onBillingDeduct, onBillingRefund } = receiver();
        const response = await handler(webhookRequest(body, { event: header === '' ? null : header }), source);
        const deduction =
          (header === 'billing_deduct' || inBody === 'billing_deduct') &&
          header !== 'billing_refund' &&
          inBody !== 'billing_refund';
        expect(response.status).toBe(deduction ? 200 : 400);
        if (deduction) expect(await response.json()).toEqual({ ok: false });
        expect(onBillingDeduct).not.toHaveBeenCalled();
        expect(onBillingRefund).not.toHaveBeenCalled();
      }),
      { numRuns: 200 },
    );
  });
});
