// workerd ends a request's work when the answer is sent: a deduct callback past its deadline is given to
// the runtime's waitUntil, so the roll-back its aborted signal asks for still runs (issue 38).
import { describe, expect, it } from 'vitest';
import { createWebhookHandler } from '../../src/server/index.js';
import { ALLOWED, deductBody, webhookRequest } from './webhook-helpers.js';

describe('createWebhookHandler on runtimes that end work at the answer', () => {
  it('hands a billing_deduct callback still running at the deadline to waitUntil', async () => {
    let finished = false;
    // The callback runs until the test lets it go: past the deadline however late timers fire on a busy machine.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const handler = createWebhookHandler({
      allowIps: [ALLOWED],
      // The deadline counts from the request's arrival, body read and parsed included: at 50 ms a busy
      // machine once spent it all before the callback could start, which answers ok:false without it.
      deadlineMs: 500,
      refunds: 'decline',
      onError: () => undefined,
      onBillingDeduct: async (_event, { signal }) => {
        await released;
        finished = signal.aborted; // the roll-back the abort asks for
        return true;
      },
    });
    const given: Promise<unknown>[] = [];
    const response = await handler(webhookRequest(deductBody('1.00')), {
      remoteAddress: ALLOWED,
      waitUntil: (promise) => given.push(promise),
    });
    expect(await response.json()).toEqual({ ok: false });
    expect(given).toHaveLength(1);
    expect(finished).toBe(false);
    release();
    await given[0];
    expect(finished).toBe(true);
  });

  it('gives waitUntil nothing when the callback answers in time', async () => {
    const handler = createWebhookHandler({
      allowIps: [ALLOWED],
      refunds: 'decline',
      onBillingDeduct: async () => true,
    });
    const given: Promise<unknown>[] = [];
    const response = await handler(webhookRequest(deductBody('1.00')), {
      remoteAddress: ALLOWED,
      waitUntil: (promise) => given.push(promise),
    });
    expect(await response.json()).toEqual({ ok: true });
    expect(given).toEqual([]);
  });
});
