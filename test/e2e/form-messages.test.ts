// The form page's postMessage events reach the page as `hub-form-message`, and only those: messages
// from any other frame, even one on the form site's own origin, are ignored.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ENCODING_TABLES, events, serverToken, useHarness, waitFor, waitForReady, type Watch } from './harness.js';
import { inEachEngine } from './engines/index.js';
import { WALLET_START_CENTS } from '../../demo/backend.js';

// Every page is checked after its test for a leaked API key and for uncaught errors.
const e2e = useHarness();

const TABLE = ENCODING_TABLES[3]!; // 'hash#fragment': the message's shortCode must come back decoded

async function openForm(path: string): Promise<Watch> {
  const w = await e2e.openWidget(path, { attrs: { tags: TABLE.tags[0]! } });
  await waitForReady(w.page);
  await w.page.locator('hub-embed [part="card"]', { hasText: TABLE.name }).click();
  return w;
}

const messages = async (w: Watch) => (await events(w.page, 'hub-form-message')).map((event) => event.detail.data);

/** Clicks the form's `action` button and returns the message it posts, the `nth` one the page hears. */
async function press(w: Watch, action: 'submit' | 'charge', nth: number): Promise<unknown> {
  await w.page.frameLocator('hub-embed hub-form-frame iframe').locator(`form[data-action="${action}"] button`).click();
  const heard = await waitFor(
    () => messages(w),
    (all) => all.length >= nth,
    `the ${action} message`,
  );
  return heard[nth - 1];
}

/**
 * A message the form page of TABLE posts when all is well. The seed gives Alice 5000 service points, and
 * the billing webhook (not the service balance) pays for charges, so the balance never moves.
 */
const fromForm = (type: string, extra: Record<string, unknown> = {}) => ({
  source: 'hub-form',
  type,
  shortCode: TABLE.short_code,
  ok: true,
  balanceCents: 5000,
  ...extra,
});

inEachEngine(() => {
  describe('form page messages', () => {
    it("the form page's load and submit messages come through as hub-form-message", async () => {
      const w = await openForm('/messages.html');
      const [load] = await waitFor(
        () => messages(w),
        (list) => list.length >= 1,
        'the load message',
      );
      assert.deepEqual(load, fromForm('load'));

      const form = w.page.frameLocator('hub-embed hub-form-frame iframe');
      await form.locator('textarea').fill('from the e2e suite 🙂');
      assert.deepEqual(await press(w, 'submit', 2), fromForm('submit'));
      assert.deepEqual(e2e.harness.mock.hub.submissions.at(-1), {
        ...e2e.harness.mock.hub.submissions.at(-1)!,
        shortCode: TABLE.short_code,
        clientUserId: 'user-alice',
        message: 'from the e2e suite 🙂',
      });

      // The paid action goes through the simulator's billing webhook to the demo backend's receiver.
      assert.deepEqual(await press(w, 'charge', 3), fromForm('charge', { amountCents: TABLE.price_cents }));
      assert.equal(
        e2e.harness.backend.wallet('user-alice'),
        WALLET_START_CENTS - TABLE.price_cents,
        'the demo backend charged its own wallet',
      );
      assert.deepEqual(w.consoleErrors, []);
    });

    it('a forged message from another frame is ignored, even one from the form site origin', async () => {
      const w = await openForm('/forged.html');
      await waitFor(
        () => messages(w),
        (list) => list.length >= 1,
        'the genuine load message',
      );

      // 1. A frame of the page's own origin posts a perfect imitation.
      // 2. A real form page (the form site's origin!) in a second frame posts its own load message.
      // 3. The page itself posts one to its own window.
      const sibling = `${e2e.harness.formUrl}/${encodeURIComponent(ENCODING_TABLES[1]!.short_code)}?token=${encodeURIComponent(await serverToken(e2e.harness, 'user-bob'))}`;
      await w.page.evaluate(
        ({ forger, sibling: formSibling, code }) => {
          // The page's own raw listener: proof that each forged message was really delivered to this window.
          const raw: unknown[] = ((window as any).__raw = []);
          addEventListener('message', (event) => raw.push({ origin: event.origin, data: event.data }));
          const add = (src: string) => {
            const frame = document.createElement('iframe');
            frame.src = src;
            document.body.append(frame);
          };
          window.postMessage(
            { source: 'hub-form', type: 'charge', shortCode: code, ok: true, amountCents: 1, forged: 'self' },
            '*',
          );
          add(forger);
          add(formSibling);
        },
        { forger: `/e2e/forger.html#${encodeURIComponent(TABLE.short_code)}`, sibling, code: TABLE.short_code },
      );
      const formOrigin = new URL(e2e.harness.formUrl).origin;
      await waitFor(
        () => w.page.evaluate(() => (window as any).__raw as { origin: string; data: any }[]),
        (raw) =>
          raw.some((m) => m.data?.forged === 'self') &&
          raw.some((m) => m.data?.forged === 'sibling') &&
          raw.some((m) => m.origin === formOrigin && m.data?.shortCode === ENCODING_TABLES[1]!.short_code),
        'all three forged messages to reach the page',
      );

      // A genuine message after the forged ones: once it is in, everything earlier has been dispatched.
      const form = w.page.frameLocator('hub-embed hub-form-frame iframe');
      await form.locator('form[data-action="submit"] button').click();
      const list = await waitFor(
        () => messages(w),
        (all) => all.some((m: any) => m.type === 'submit'),
        'the genuine submit message',
      );
      assert.deepEqual(
        list.map((m: any) => [m.type, m.shortCode, m.forged]),
        [
          ['load', TABLE.short_code, undefined],
          ['submit', TABLE.short_code, undefined],
        ],
        'only the embedded form page is heard',
      );
      assert.deepEqual(w.consoleErrors, []);
    });
  });
});
