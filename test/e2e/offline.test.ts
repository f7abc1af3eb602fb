// The user's network failing is the one error a Retry can mend: offline (the browser's own offline state,
// navigator.onLine false and its online event, as Chromium's network emulation gives them), a load shows
// the network error with its Retry and loads again by itself once back online; cards already on screen stay
// up, marked stale, and are refreshed then; and a form file that cannot be fetched offline is a network
// error too, not the page's setup. The <script> bundle against the simulator. The integrator's errors are
// test/e2e/unreachable.test.ts's.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ENCODING_TAG, launchBrowser, pageHtml, SCRIPT, startHarness, widget, type Harness } from './harness.js';
import { onlyInChromium } from './engines/index.js';
import { withoutFirstView } from './server-first-views.js';

/** Keeps the later half from loading once hub-ready is out (its low-priority task never runs), as script-tag.test.ts does. */
const NO_READY_LOAD =
  "<script>Object.defineProperty(window, 'scheduler', { value: { postTask: () => new Promise(() => {}) }, configurable: true });</script>";

let h: Harness;
let browser: Browser;

/** The hub-* events and the errors' kinds, recorded by the harness's recorder. */
const recorded = (page: Page, type: string) =>
  page.evaluate(
    (name) =>
      (window as unknown as { __e2e: { events: { type: string; detail: any }[] } }).__e2e.events.filter(
        (event) => event.type === name,
      ),
    type,
  );

async function until(page: Page, what: string, condition: () => Promise<boolean>, timeout = 15_000): Promise<void> {
  const end = Date.now() + timeout;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await page.waitForTimeout(50);
  }
}

/** A signed-in context and a page of it at `path`, serving `html`. */
async function open(path: string, html: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  await context.addCookies([
    { name: 'hub_demo_user', value: 'alice', url: h.origin, httpOnly: true, sameSite: 'Strict' },
  ]);
  const page = await context.newPage();
  await page.goto(h.addPage(path, html));
  return { context, page };
}

const cards = (page: Page) => page.locator('hub-embed [part~="card"]');
const retry = (page: Page) => page.locator('hub-embed [part="retry"]');

onlyInChromium("offline emulation (Playwright's setOffline, the Chrome DevTools Protocol's network conditions)");

describe('offline: the network error, with Retry, mended by the browser coming back online (Chromium)', () => {
  before(async () => {
    h = await startHarness();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await h?.close();
  });

  it('a load offline shows the network error with Retry, not a setup error, and loads by itself when back online', async () => {
    const { context, page } = await open('/offline-load.html', pageHtml(SCRIPT, ''));
    try {
      await context.setOffline(true);
      // The widget comes once the browser is offline: its token, its tags and its list all fail.
      await page.evaluate((markup) => document.body.insertAdjacentHTML('beforeend', markup), widget(h));
      await until(page, 'hub-error', async () => (await recorded(page, 'hub-error')).length > 0);
      const failure = (await recorded(page, 'hub-error'))[0]!;
      assert.equal(failure.detail.error.kind, 'network', failure.detail.error.message);
      assert.equal(await retry(page).count(), 1, 'a Retry');
      assert.match((await page.locator('hub-embed [part="error"]').textContent()) ?? '', /Network error/);

      await context.setOffline(false);
      await until(page, 'hub-ready once back online', async () => (await recorded(page, 'hub-ready')).length > 0);
      assert.ok((await cards(page).count()) > 0);
      assert.equal(await page.locator('hub-embed [part="error"]').count(), 0);
    } finally {
      await context.close();
    }
  });

  it('offline keeps the cards shown, marks them stale, and refreshes them when back online', async () => {
    const { context, page } = await open('/offline-stale.html', pageHtml(SCRIPT, widget(h)));
    try {
      await until(page, 'hub-ready', async () => (await recorded(page, 'hub-ready')).length > 0);
      // The later half, which loads once hub-ready is out, is in (it registers the form frame).
      await until(page, 'the later half', () => page.evaluate(() => !!customElements.get('hub-form-frame')));
      const shown = await cards(page).allTextContents();
      assert.ok(shown.length > 0);

      await context.setOffline(true);
      await page.locator('hub-embed hub-tag-filter').getByRole('button', { name: ENCODING_TAG, exact: true }).click();
      await until(page, 'hub-error', async () => (await recorded(page, 'hub-error')).length > 0);
      const failure = (await recorded(page, 'hub-error'))[0]!;
      assert.equal(failure.detail.error.kind, 'network', failure.detail.error.message);
      // The cards of the list before stay up, grey, under the error and its Retry.
      assert.deepEqual(await cards(page).allTextContents(), shown, 'the cards stay');
      const filter = () =>
        page.evaluate(
          () =>
            getComputedStyle(document.querySelector('hub-embed')!.shadowRoot!.querySelector('hub-table-grid')!).filter,
        );
      assert.equal(await filter(), 'grayscale(1)', 'the cards are marked stale');
      assert.equal(await retry(page).count(), 1, 'a Retry');

      await context.setOffline(false);
      await until(page, 'hub-ready once back online', async () => (await recorded(page, 'hub-ready')).length > 1);
      assert.equal(await page.locator('hub-embed [part="error"]').count(), 0, 'the error is gone');
      assert.equal(await filter(), 'none', 'the cards are fresh');
      const ready = (await recorded(page, 'hub-ready'))[1]!;
      assert.ok(ready.detail.matching > 0, 'the list for the selected tag');
      assert.notDeepEqual(await cards(page).allTextContents(), shown, 'the cards are the selected tag’s list');
    } finally {
      await context.close();
    }
  });

  it(
    'the form file fetched offline is a network error with Retry, not the page’s setup',
    { skip: withoutFirstView('over a view the form half loads at once, before any offline moment after hub-ready') },
    async () => {
      const { context, page } = await open('/offline-form.html', pageHtml(NO_READY_LOAD + SCRIPT, widget(h)));
      try {
        await until(page, 'hub-ready', async () => (await recorded(page, 'hub-ready')).length > 0);
        await context.setOffline(true);
        await cards(page).first().click();
        await until(page, 'hub-error', async () => (await recorded(page, 'hub-error')).length > 0);
        const failure = (await recorded(page, 'hub-error'))[0]!;
        assert.equal(failure.detail.error.kind, 'network', failure.detail.error.message);
        assert.match(failure.detail.error.message, /hub-embed\.form\.js$/);
        assert.equal(await retry(page).count(), 1, 'a Retry');
      } finally {
        await context.close();
      }
    },
  );
});
