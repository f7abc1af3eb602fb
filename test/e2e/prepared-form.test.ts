// The form prepared while a real mouse rests on a card (issue 35 item 1), in Chromium, WebKit and Firefox:
// preparing adds no session-history entry, Back never reloads a form out of sight, the dialog always shows
// the clicked table's form and only its messages, a mouse moving straight from card to card prepares each
// card it rests on, and a prepared form is dropped when the pointer leaves.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { events, useHarness, waitFor, waitForReady, type Watch } from './harness.js';
import { inEachEngine } from './engines/index.js';

// Every page is checked after its test for a leaked API key and for uncaught errors.
const e2e = useHarness();

const card = (w: Watch, index: number) => w.page.locator('hub-embed [part="card"]').nth(index);

/** The short codes of the cards, in grid order: each card is a list item of the grid carrying its table. */
const cardCodes = (w: Watch): Promise<string[]> =>
  w.page
    .locator('hub-embed [role="listitem"]')
    .evaluateAll((cards) => cards.map((element) => (element as { table: { short_code: string } }).table.short_code));

/** Each <hub-form-frame> in the widget: its table, and whether its page has loaded. */
const frames = (w: Watch): Promise<{ code: string; loaded: boolean }[]> =>
  w.page.locator('hub-embed hub-form-frame').evaluateAll((all) =>
    all.map((frame) => ({
      code: (frame as { shortCode: string }).shortCode,
      loaded: !!frame.shadowRoot?.querySelector('iframe') && !frame.shadowRoot.querySelector('[part~="loading"]'),
    })),
  );

/** Waits until the one frame in the widget is the loaded form of `code`, prepared out of sight. */
async function preparedFor(w: Watch, code: string): Promise<void> {
  await waitFor(
    () => frames(w),
    (list) => list.length === 1 && list[0]!.code === code && list[0]!.loaded,
    `the form of ${code} prepared and loaded`,
    // Preparing takes a token (cached after the first) and one page load on loopback.
    8_000,
  );
}

/** A point of the page outside the widget (the body's margin). */
const outside = (w: Watch) => w.page.mouse.move(2, 2);

const historyLength = (w: Watch) => w.page.evaluate(() => history.length);

const formRequests = (w: Watch) =>
  w.requests.filter((request) => request.url.startsWith(new URL(e2e.harness.formUrl).origin + '/')).length;

/** A widget page whose form half is in (the first pointer over a card brings it), nothing prepared yet. */
async function widget(path: string): Promise<{ w: Watch; codes: string[] }> {
  const w = await e2e.openWidget(path);
  await waitForReady(w.page);
  const codes = await cardCodes(w);
  await card(w, 1).hover();
  await preparedFor(w, codes[1]!);
  return { w, codes };
}

inEachEngine(() => {
  describe('the form prepared while a mouse rests on a card', () => {
    it("a mouse resting on cards 1, 2, 3, then 0 prepares each; preparing adds no history entry, Back leaves the forms alone, and the click shows card 0's form and only its messages", async () => {
      const { w, codes } = await widget('/prepared-history.html');
      // Three entries of the page's own, so that three Backs stay on the page.
      await w.page.evaluate(() => {
        for (const hash of ['#one', '#two', '#three']) history.pushState(null, '', hash);
      });
      const length = await historyLength(w);
      // The pointer rests on cards 1 (still), 2, 3, then 0, moving straight from card to card: between two
      // cards, pointerover never leaves the grid's shadow root.
      for (const index of [2, 3, 0]) {
        await card(w, index).hover();
        await preparedFor(w, codes[index]!);
      }
      assert.equal(await historyLength(w), length, 'preparing adds no session-history entry');

      const requested = formRequests(w);
      for (let back = 0; back < 3; back++) {
        const popped = await w.page.evaluate(
          () =>
            new Promise<boolean>((resolve) => {
              addEventListener('popstate', () => resolve(true), { once: true });
              history.back();
              // A Back that traverses a frame's history fires no popstate in the page.
              setTimeout(() => resolve(false), 1_500);
            }),
        );
        assert.equal(popped, true, `Back ${back + 1} goes back through the page's own entries`);
      }
      assert.equal(await w.page.evaluate(() => location.hash), '');
      assert.equal(formRequests(w), requested, 'no form page was loaded again by Back');

      await card(w, 0).click();
      await waitFor(
        () => events(w.page, 'hub-form-open'),
        (list) => list.length === 1,
        'hub-form-open',
      );
      assert.deepEqual(
        (await events(w.page, 'hub-form-open')).map((event) => event.detail.shortCode),
        [codes[0]],
      );
      const shown = await w.page
        .frameLocator('hub-embed hub-form-frame iframe')
        .evaluate(() => decodeURIComponent(location.pathname.slice(1)));
      assert.equal(shown, codes[0], "the open frame's page is card 0's form");
      // The form page posts a load message naming its table: every message heard is card 0's own.
      const messages = await waitFor(
        () => events(w.page, 'hub-form-message'),
        (list) => list.length >= 1,
        'the load message',
      );
      // A little longer, for a late message of another page to show up if one could.
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.deepEqual(
        (await events(w.page, 'hub-form-message')).map((event) => event.detail.data.shortCode),
        messages.map(() => codes[0]),
        'only the open form speaks',
      );
    });

    it('a prepared form is dropped when the pointer leaves its card', async () => {
      const { w } = await widget('/prepared-leave.html');
      await outside(w);
      await waitFor(
        () => frames(w),
        (list) => list.length === 0,
        'the prepared form to be dropped',
        3_000,
      );
    });
  });
});
