// demo/index.html in Chromium, WebKit and Firefox (engines/), as a visitor uses it (`npm run demo`): one points story from the
// form's Pay button to the wallet that decides, no sideways scrolling on a phone, and user switches that
// never log an error.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { WALLET_START_CENTS } from '../../demo/backend.js';
import { defaultSeed } from '../../packages/hub-embed-mock/src/index.js';
import { readFileSync } from 'node:fs';
import { useDemo, waitFor, watchPage, type Watch } from './harness.js';
import { inEachEngine, lacks, type EnginePage as Page } from './engines/index.js';

const e2e = useDemo();

/** The dearest published table: its price is a demo user's whole starting wallet (demo/backend.ts). */
const DEAR = defaultSeed.tables
  .filter((table) => table.published)
  .reduce((dearest, table) => (table.price_cents > dearest.price_cents ? table : dearest));
/** A paid table that the starting wallet covers. */
const CHEAP = defaultSeed.tables.find((table) => table.published && table.price_cents > 0 && table.price_cents < 300)!;

/** Opens the demo page for `test`, then checks that no API key leaked and nothing was thrown or logged. */
async function withDemo(
  viewport: { width: number; height: number },
  test: (page: Page, watch: Watch) => Promise<void>,
  options: { colorScheme?: 'light' | 'dark'; locale?: string } = {},
): Promise<void> {
  const watch = await watchPage(undefined, options);
  try {
    await watch.page.setViewportSize(viewport);
    await watch.page.goto(`${e2e.demo.url}/?locale=en&theme=light&open-mode=modal`);
    await cardsShown(watch.page);
    await test(watch.page, watch);
    assert.deepEqual(watch.leaks, [], 'no request carried the API key');
    assert.deepEqual(watch.pageErrors, [], 'nothing thrown');
    assert.deepEqual(watch.consoleErrors, [], 'nothing logged as an error');
  } finally {
    await watch.close();
  }
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** The form frame, when a form is open: the simulator's page, on the form site's origin. */
const FORM_FRAME = 'hub-embed hub-form-frame iframe';

/**
 * axe-core's violations on the whole page, light or dark, shadow roots and the form frame included (rule
 * id and targets; a frame's prefixed `frame:`). axe runs in each document by itself: its own iframes
 * option would post to a window of another origin, which Firefox reports as a script error.
 */
async function axeViolations(page: Page): Promise<string[]> {
  const run = async () => {
    const { violations } = await (window as unknown as { axe: typeof import('axe-core') }).axe.run(document, {
      iframes: false,
    });
    return violations.map((v) => `${v.id}: ${v.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  };
  await page.addScript(AXE_SOURCE);
  const found = await page.evaluate(run);
  if ((await page.locator(FORM_FRAME).count()) === 0) return found;
  const frame = page.frameLocator(FORM_FRAME);
  await frame.locator('#hub-form').waitFor({ state: 'attached' });
  await frame.addScript(AXE_SOURCE);
  return [...found, ...(await frame.evaluate(run)).map((violation) => `frame: ${violation}`)];
}

/** The first card, visible; when it never comes, the failure says what the page showed instead. */
async function cardsShown(page: Page): Promise<void> {
  try {
    await page.locator('hub-embed [part~="card"]').first().waitFor();
  } catch (error) {
    const shown = await page
      .evaluate(() => {
        const embed = document.querySelector('hub-embed');
        return `${location.href}; hub-embed ${customElements.get('hub-embed') ? 'defined' : 'not defined'}, shows: ${(
          embed?.shadowRoot?.textContent ?? '(no shadow root)'
        )
          .replace(/\s+/g, ' ')
          .slice(0, 300)}; page: ${document.body.innerText.replace(/\s+/g, ' ').slice(0, 300)}`;
      })
      .catch((cause: unknown) => `(the page could not be read: ${String(cause)})`);
    throw new Error(`${(error as Error).message}; ${shown}`, { cause: error });
  }
}
const text = (page: Page, selector: string) => page.locator(selector).innerText();
/** An amount as the demo page writes it (demo/main.ts). */
const money = (cents: number) => `¥${(cents / 100).toFixed(2)} (${cents.toLocaleString('en-US')} points)`;

async function openTable(page: Page, name: string): Promise<void> {
  await page.locator('hub-embed [part~="card"]', { hasText: name }).click();
  await page.frameLocator('hub-embed hub-form-frame iframe').locator('form[data-action="charge"] button').waitFor();
}

async function pay(page: Page, expect: RegExp): Promise<string> {
  const before = await text(page, '#points-status');
  await page.frameLocator('hub-embed hub-form-frame iframe').locator('form[data-action="charge"] button').click();
  // A payment is the longest chain of the suite (the form page, the service, its billing_deduct webhook to the
  // demo backend and the answer back): on a machine shared by lanes it can take longer than one step's wait.
  return waitFor(
    () => text(page, '#points-status'),
    (status) => status !== before && expect.test(status),
    `the points status to match ${expect}`,
    45_000,
  );
}

async function switchUser(page: Page, id: string): Promise<void> {
  await page.waitForNavigation(() => page.locator('#user').selectOption(id));
  await cardsShown(page);
  await waitFor(
    () => text(page, '#points-user'),
    (name) => name.toLowerCase().startsWith(id),
    `the points panel to show ${id}`,
  );
}

// clientWidth, not innerWidth: where scrollbars take room (Firefox's classic ones) the page has less.
const overflow = (page: Page) =>
  page.evaluate(() => ({
    scrollWidth: document.scrollingElement!.scrollWidth,
    clientWidth: document.scrollingElement!.clientWidth,
    viewport: innerWidth,
  }));

inEachEngine((engine) => {
  describe('demo/index.html (the demo page)', () => {
    it('the demo at 375 px has no horizontal overflow', { skip: lacks(engine, 'narrow-viewport') }, async () => {
      await withDemo({ width: 375, height: 800 }, async (page) => {
        // Fill every panel: points log records with long reasons, webhooks, widget events.
        const form = page.frameLocator('hub-embed hub-form-frame iframe');
        for (const table of [CHEAP, DEAR]) {
          await openTable(page, table.name);
          await form.locator('form[data-action="submit"] button').click();
          await form.locator('form[data-action="charge"] button').click();
          await waitFor(
            () => form.locator('#outcome').textContent(),
            (outcome) => /paid|payment/i.test(outcome ?? ''),
            'the outcome of Pay',
          );
          await page.locator('hub-embed [part~="close"]').click();
        }
        await waitFor(
          () => page.locator('#events li').count(),
          (n) => n >= 2,
          'both billing webhooks in the log',
        );
        await waitFor(
          () => page.locator('#logs :is(li, tr):not(.empty)').count(),
          (n) => n >= 2,
          'points log records',
        );
        const { scrollWidth, clientWidth, viewport } = await overflow(page);
        assert.equal(viewport, 375);
        assert.equal(scrollWidth, clientWidth, 'document.scrollingElement.scrollWidth equals its clientWidth');
      });
    });

    it(
      "the demo opens in the browser's language by the widget's rule: English for en-US, zh-CN, zh-TW and ja each its own, and a locale in the URL wins",
      { skip: lacks(engine, 'browser-locale') },
      async () => {
        const cases = [
          { locale: 'en-US', query: '', widget: 'en', all: 'All' },
          { locale: 'zh-CN', query: '', widget: 'zh-CN', all: '全部' },
          { locale: 'zh-TW', query: '', widget: 'zh-TW', all: '全部' },
          { locale: 'ja', query: '', widget: 'ja', all: 'すべて' },
          { locale: 'zh-CN', query: '?locale=en', widget: 'en', all: 'All' },
        ];
        for (const { locale, query, widget, all } of cases) {
          const watch = await watchPage(e2e.browser, { locale });
          try {
            const page = watch.page;
            await page.goto(`${e2e.demo.url}/${query}`);
            await cardsShown(page);
            const shown = await page.evaluate(() => ({
              language: navigator.language,
              widget: document.querySelector('hub-embed')!.getAttribute('locale'),
              select: (document.querySelector('select[name="locale"]') as HTMLSelectElement).value,
              url: new URLSearchParams(location.search).get('locale'),
            }));
            const what = `the ${locale} browser at /${query}`;
            assert.equal(shown.language, locale, `${what}: the browser says ${locale}`);
            assert.deepEqual([shown.widget, shown.select, shown.url], [widget, widget, widget], what);
            assert.equal(
              (await page.locator('hub-embed hub-tag-filter [part~="chip-all"]').textContent())!.trim(),
              all,
              `${what}: the widget speaks it`,
            );
            assert.deepEqual(watch.pageErrors, [], 'nothing thrown');
          } finally {
            await watch.close();
          }
        }
      },
    );

    it("a newcomer's first Pay is paid, whichever form: a fresh demo's first user pays the dearest form", async () => {
      // A demo of its own: the other tests here spend the shared demo's wallets.
      const { startDemo } = await import('../../demo/serve.js');
      const fresh = await startDemo({ port: 0 });
      try {
        const watch = await watchPage(e2e.browser);
        try {
          const page = watch.page;
          // As `npm run demo` prints it: no settings, no user picked yet.
          await page.goto(`${fresh.url}/`);
          await cardsShown(page);
          await openTable(page, DEAR.name);
          const paid = await pay(page, /paid/);
          assert.ok(paid.includes(money(DEAR.price_cents)), paid);
          assert.equal(fresh.backend.wallet('user-alice'), WALLET_START_CENTS - DEAR.price_cents);
          assert.deepEqual(watch.leaks, [], 'no request carried the API key');
          assert.deepEqual(watch.pageErrors, [], 'nothing thrown');
        } finally {
          await watch.close();
        }
      } finally {
        await fresh.close();
      }
    });

    // The form page takes its language from the browser's (Accept-Language) and its colours from the
    // system's scheme: each combination is what a developer sees in the demo with that browser.
    for (const locale of ['en', 'zh-CN'] as const)
      it(
        `axe finds nothing on the demo page or in its form frame, light and dark, ${locale}, with a tag selected and with a form open`,
        // The page's language and colour scheme both set per page: Chromium only (WebKitGTK takes its
        // language at launch, and Firefox's scheme cannot be emulated).
        { skip: lacks(engine, 'browser-locale') || lacks(engine, 'page-color-scheme') },
        async () => {
          for (const theme of ['light', 'dark'] as const) {
            await withDemo(
              { width: 1280, height: 860 },
              async (page) => {
                await page.goto(`${e2e.demo.url}/?locale=${locale}&theme=${theme}&open-mode=modal`);
                await cardsShown(page);
                await page
                  .locator('hub-embed hub-tag-filter')
                  .getByRole('button', { name: 'delivery', exact: true })
                  .click();
                await page.locator('hub-embed [part="more"]').waitFor();
                assert.deepEqual(await axeViolations(page), [], `${theme}, ${locale}, a tag selected`);
                await openTable(page, CHEAP.name);
                assert.equal(
                  await page.frameLocator(FORM_FRAME).evaluate(() => document.documentElement.lang),
                  locale,
                  "the form page speaks the browser's language",
                );
                assert.deepEqual(await axeViolations(page), [], `${theme}, ${locale}, a form open`);
              },
              { colorScheme: theme, locale },
            );
          }
        },
      );

    it('switching users never logs an error, also to a user the service does not know yet', async () => {
      await withDemo({ width: 1280, height: 860 }, async (page) => {
        // Carol has had no token exchange yet: the service answers 404 for her balance until the widget asks.
        for (const id of ['carol', 'bob', 'alice', 'carol']) await switchUser(page, id);
        assert.doesNotMatch(await text(page, '#points-status'), /failed|unknown/i);
      });
    });

    it('the paid-action story: the page says which balance pays, a decline says why, a top-up of that balance lets Pay through', async () => {
      await withDemo({ width: 1280, height: 860 }, async (page) => {
        await switchUser(page, 'bob');
        assert.match(await text(page, '#story'), /Pay.*app wallet.*decides/s);
        assert.match(await text(page, '#story'), /Submit is free and sends no webhook/);
        const wallet = await text(page, '#wallet');
        assert.equal(wallet, '¥50.00 (5,000 points)', 'amounts are yuan with two decimals, points in brackets');
        const service = await text(page, '#balance');

        // The starting wallet pays for the dearest form once; the second Pay finds it empty.
        await openTable(page, DEAR.name);
        const price = `¥${(DEAR.price_cents / 100).toFixed(2)} (${DEAR.price_cents.toLocaleString('en-US')} points)`;
        assert.ok((await pay(page, /paid/)).includes(price));
        const left = money(WALLET_START_CENTS - DEAR.price_cents);
        await waitFor(
          () => text(page, '#wallet'),
          (value) => value === left,
          'the wallet to pay the price',
        );
        const declined = await pay(page, /declined/);
        assert.ok(declined.includes(price), declined);
        // The page writes "¥0.00 (0 points)"; the backend's reason names the yuan only.
        const leftYuan = left.split(' ')[0]!;
        assert.ok(declined.includes(`the wallet has ${leftYuan}`), `the decline says why: ${declined}`);
        assert.doesNotMatch(await text(page, '#logs'), /\+¥0\.00/, 'a decline is not a "+¥0.00" credit');

        // Top up exactly what is missing (the modal form closed first): the balance that decides grows.
        await page.locator('hub-embed [part~="close"]').click();
        const missing = ((DEAR.price_cents - (WALLET_START_CENTS - DEAR.price_cents)) / 100).toFixed(2);
        await page.locator('#recharge input').fill(missing);
        await page.locator('#recharge button').click();
        await waitFor(
          () => text(page, '#wallet'),
          (value) => value === price,
          'the wallet to hold the price',
        );
        await openTable(page, DEAR.name);
        const paid = await pay(page, /paid/);
        assert.ok(paid.includes(price), paid);
        await waitFor(
          () => text(page, '#wallet'),
          (value) => value === left,
          'the wallet to pay the price',
        );
        assert.equal(await text(page, '#balance'), service, 'the service balance did not decide and did not move');
        assert.equal(e2e.demo.backend.wallet('user-bob'), WALLET_START_CENTS - DEAR.price_cents);
      });
    });

    it("the points log's reason is read across the panel, not wrapped down a narrow column", async () => {
      await withDemo({ width: 1280, height: 860 }, async (page) => {
        await switchUser(page, 'carol');
        await openTable(page, DEAR.name);
        // The starting wallet pays the dearest form once: the second Pay is declined, with its reason.
        await pay(page, /paid/);
        await pay(page, /declined/);
        await page.locator('hub-embed [part~="close"]').click();
        const lines = await waitFor(
          () =>
            page
              .locator('#logs .reason')
              .evaluateAll((reasons) =>
                reasons.map(
                  (reason) => reason.getBoundingClientRect().height / parseFloat(getComputedStyle(reason).lineHeight),
                ),
              ),
          (list) => list.length > 0,
          'a points log record',
        );
        // The simulator's reason for a failed charge is a sentence of about 70 characters. Heights are
        // subpixel (Firefox measured 3 lines as a hair over 3.000): count whole lines.
        assert.ok(
          lines.every((n) => Math.round(n) <= 3),
          `reasons take ${lines.map((n) => n.toFixed(3)).join(', ')} lines`,
        );
      });
    });

    it('the points panel and the webhook log stay in view while a form is open on a wide screen', async () => {
      await withDemo({ width: 1280, height: 860 }, async (page) => {
        await openTable(page, CHEAP.name);
        const visible = await page.evaluate(() => {
          const dialog = document
            .querySelector('hub-embed')!
            .shadowRoot!.querySelector('dialog')!
            .getBoundingClientRect();
          return ['wallet', 'events-title'].map((id) => {
            const box = document.getElementById(id)!.getBoundingClientRect();
            const inViewport = box.top >= 0 && box.bottom <= innerHeight && box.left >= 0 && box.right <= innerWidth;
            const besideDialog = box.left >= dialog.right || box.right <= dialog.left;
            return { id, inViewport, besideDialog };
          });
        });
        assert.deepEqual(visible, [
          { id: 'wallet', inViewport: true, besideDialog: true },
          { id: 'events-title', inViewport: true, besideDialog: true },
        ]);
      });
    });
  });
});
