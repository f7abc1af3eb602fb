// demo/webview.html in Chromium, WebKit and Firefox (engines/): the host simulator embeds the widget page (parent-frame
// transport), supplies the token, opens forms in its native sheet, relays host-to-page requests, and
// hears the widget's events, including the form page's messages relayed as form.message.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useDemo, waitFor, watchPage, type Watch } from './harness.js';
import { inEachEngine, type EnginePage as Page, type FrameLocator } from './engines/index.js';

const e2e = useDemo();

const log = (page: Page) => page.locator('#log li').allTextContents();
const logHas = (page: Page, text: string, what = text) =>
  waitFor(
    () => log(page),
    (lines) => lines.some((line) => line.includes(text)),
    what,
  );
const widget = (page: Page): FrameLocator => page.frameLocator('#webview');
const status = (page: Page) => page.locator('#host-status').textContent();
const statusSays = (page: Page, text: string, what: string) =>
  waitFor(
    () => status(page),
    (line) => line === text,
    what,
  );

/**
 * Opens the host simulator for `test`, then checks what every page must hold (no API key leaked to the
 * browser, nothing thrown) and closes it, whatever the test did.
 */
async function withHost(test: (page: Page, watch: Watch) => Promise<void>): Promise<void> {
  const watch = await watchPage();
  try {
    await watch.page.goto(`${e2e.demo.url}/webview.html`);
    await test(watch.page, watch);
    assert.deepEqual(watch.leaks, [], 'no request carried the API key');
    assert.deepEqual(watch.pageErrors, [], 'nothing thrown');
  } finally {
    await watch.close();
  }
}

async function clickFirstCard(page: Page): Promise<void> {
  // Playwright's CSS engine pierces open shadow roots: hub-embed > hub-table-grid > hub-table-card.
  await widget(page).locator('hub-table-card [part~="card"]').first().click();
}

inEachEngine(() => {
  describe('demo/webview.html (host simulator)', () => {
    it('handshake over the parent frame; the token comes from the host, never from the widget page', async () => {
      await withHost(async (page, watch) => {
        await logHas(page, 'req bridge.hello');
        await logHas(page, 'platform":"demo-host');
        await logHas(page, 'req auth.getToken');
        await logHas(page, 'evt widget.ready');
        await waitFor(
          () => widget(page).locator('hub-table-card').count(),
          (n) => n > 0,
          'cards in the widget',
        );
        const tokenRequests = watch.requests.filter((r) => r.url.endsWith('/api/hub-token'));
        // Only the host page (one fetch per auth.getToken) asks the backend for a token.
        assert.ok(tokenRequests.length >= 1);
        const child = await widget(page).evaluate(() => ({
          url: location.href,
          tokenFetches: performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/hub-token'))
            .length,
        }));
        assert.ok(child.url.endsWith('/webview-child.html'), 'the widget page is framed');
        assert.equal(child.tokenFetches, 0);
      });
    });

    it('form.open handled by the host: the form opens in the native sheet, not in the widget', async () => {
      await withHost(async (page) => {
        await logHas(page, 'evt widget.ready');
        await clickFirstCard(page);
        await logHas(page, 'evt table.selected');
        await logHas(page, '"handledBy":"host"', 'form.opened handled by the host');
        const src = await waitFor(
          () => page.locator('#sheet[open] #sheet-body iframe').getAttribute('src'),
          (value) => !!value,
          'the sheet iframe',
        );
        // The token only ever goes to the form site's origin.
        assert.equal(new URL(src!).origin, new URL(e2e.demo.formUrl).origin);
        assert.ok(new URL(src!).searchParams.get('token'));
        assert.equal(await widget(page).locator('hub-form-frame').count(), 0);
        // The form page reports to its parent, which here is the native app.
        await page.frameLocator('#sheet-body iframe').locator('#hub-form').waitFor();
        await logHas(page, 'sheet form:', 'a message from the form in the sheet');
        await page.locator('#sheet-close').click();
        await waitFor(
          () => page.locator('#sheet').getAttribute('open'),
          (open) => open === null,
          'the sheet to close',
        );
      });
    });

    it('host declines form.open: the widget opens the form; form.message relayed; form.close and widget.refresh from the host', async () => {
      await withHost(async (page) => {
        await logHas(page, 'evt widget.ready');
        await page.locator('input[name="native"]').uncheck();
        await clickFirstCard(page);
        await logHas(page, '"handledBy":"page"', 'form.opened handled by the page');
        await waitFor(
          () => widget(page).locator('hub-form-frame iframe').count(),
          (n) => n === 1,
          'the widget form frame',
        );
        // The form page inside the widget posts to the widget; the widget relays it, the host never hears the iframe itself.
        await logHas(page, 'evt form.message', 'the relayed form message');
        assert.equal(await page.locator('#sheet').getAttribute('open'), null);
        await page.locator('#close-form').click();
        await statusSays(page, 'form.close: ok {"closed":true}', 'form.close answered');
        await logHas(page, 'evt form.closed');
        await waitFor(
          () => widget(page).locator('hub-form-frame').count(),
          (n) => n === 0,
          'the widget form to close',
        );
        await page.locator('#refresh').click();
        await statusSays(page, 'widget.refresh: ok {}', 'widget.refresh answered');
        const tag = (await widget(page)
          .locator('hub-tag-filter [part~="chip"]:not([part~="chip-all"])')
          .first()
          .textContent())!.trim();
        await page.locator('#set-tags input').fill(tag);
        await page.locator('#set-tags button').click();
        await statusSays(page, 'widget.setTags: ok {}', 'widget.setTags answered');
        await waitFor(
          () => widget(page).locator('hub-tag-filter [aria-pressed="true"]').allTextContents(),
          (texts) => texts.map((t) => t.trim()).join() === tag,
          'the host-set tag pressed',
        );
      });
    });

    it('the native sheet is titled with the table name, not its short code', async () => {
      await withHost(async (page) => {
        await logHas(page, 'evt widget.ready');
        const name = (await widget(page).locator('hub-table-card [part~="name"]').first().textContent())!.trim();
        await clickFirstCard(page);
        await page.locator('#sheet[open]').waitFor();
        assert.equal(await page.locator('#sheet-title').textContent(), name);
        assert.equal(await page.locator('#sheet-body iframe').getAttribute('title'), `Form: ${name}`);
      });
    });

    it('the status line shows an answer the way the log does: {} where the log says {}, never null', async () => {
      await withHost(async (page) => {
        await logHas(page, 'evt widget.ready');
        await page.locator('#refresh').click();
        await statusSays(page, 'widget.refresh: ok {}', 'widget.refresh answered');
        const answer = (await log(page)).find((line) => /^← res ok #h\d+ \{\}$/.test(line));
        assert.ok(answer, 'the log shows the same answer as {}');
      });
    });

    it('the message log has room for numbers from 10 on, and the tags input room for a list of tags', async () => {
      await withHost(async (page) => {
        await logHas(page, 'evt widget.ready');
        for (let i = 0; i < 6; i++) await page.locator('#refresh').click();
        await waitFor(
          () => log(page),
          (lines) => lines.length >= 12,
          'a dozen log lines',
        );
        const room = await page.evaluate(() => {
          const list = document.getElementById('log')!;
          // The widest marker a 200-line log shows, in the list's own font.
          const probe = document.createElement('span');
          probe.textContent = '200. ';
          probe.style.font = getComputedStyle(list).font;
          probe.style.position = 'absolute';
          document.body.append(probe);
          const needed = probe.getBoundingClientRect().width;
          probe.remove();
          return { padding: parseFloat(getComputedStyle(list).paddingLeft), needed };
        });
        assert.ok(room.padding >= room.needed, `the list has ${room.padding}px for markers ${room.needed}px wide`);
        const input = await page.locator('#set-tags input').boundingBox();
        assert.ok(input!.width >= 200, `the tags input is ${input!.width}px wide`);
      });
    });
  });
});
