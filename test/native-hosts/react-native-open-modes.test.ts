// docs/react-native.md's table "which signals the app gets depends on where the form opens", row by row, on
// the harness (real Chromium, the real WebView bundle, the simulator): what `onFormOpened`, `onFormClosed` and
// `openExternal` hear for the native Modal, the app's own screen, the page's dialog, `open-mode="inline"`
// and `open-mode="navigate"`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, pageHtml, startHarness, waitFor, widget, type Harness } from '../e2e/harness.js';
import { addWidgetPage, settle, withView, type MountedView } from './react-native/rn-harness.js';

let h: Harness;
let browser: Browser;
let formOrigin: string;
/** The widget page in each open mode; `modal` is the page's default. */
const pages: Record<'modal' | 'inline' | 'navigate', string> = { modal: '', inline: '', navigate: '' };

before(async () => {
  h = await startHarness();
  browser = await launchBrowser();
  formOrigin = new URL(h.formUrl).origin;
  pages.modal = addWidgetPage(h);
  for (const mode of ['inline', 'navigate'] as const)
    pages[mode] = h.addPage(
      `/rn-${mode}.html`,
      pageHtml(
        '<script src="/dist/hub-embed-webview.iife.js"></script>',
        widget(h, { bridge: 'auto', 'token-endpoint': '', 'open-mode': mode }),
      ),
    );
});

after(async () => {
  await browser?.close();
  await h?.close();
});

const card = (page: Page) => page.locator('hub-embed [part~="card"]').first();
/** The close control of the form the page shows itself (its dialog, or inline). */
const pageFormClose = (page: Page) => page.locator('hub-embed hub-form-frame [part="close"]').first();

/** Picks the first card and waits for `onFormOpened`; returns the card's short code. */
async function openFirstForm(rn: MountedView): Promise<string> {
  await rn.ready();
  await card(rn.page).click();
  await waitFor(
    () => rn.seen.opened.length,
    (n) => n === 1,
    'onFormOpened',
  );
  return (rn.seen.selected[0] as { shortCode: string }).shortCode;
}

describe('docs/react-native.md: which signals the app gets, by where the form opens', () => {
  it('the native Modal (the form’s origin allowed): opened by the host, closed with the Modal’s reason', async () => {
    await withView(h, browser, { uri: pages.modal, props: { allowedOrigins: [formOrigin] } }, async (rn) => {
      const shortCode = await openFirstForm(rn);
      assert.deepEqual(rn.seen.opened, [{ shortCode, handledBy: 'host' }]);
      rn.renderer.root.findByProps({ accessibilityRole: 'button' }).props.onPress();
      await waitFor(
        () => rn.seen.closed,
        (closed) => closed.length === 1,
        'onFormClosed',
      );
      assert.deepEqual(rn.seen.closed, [{ shortCode, reason: 'button' }]);
    });
  });

  it('the app’s own screen (openForm resolves true): opened by the host, and no close the view could know of', async () => {
    const asked: string[] = [];
    const openForm = ({ url }: { url: string }) => {
      asked.push(url);
      return true;
    };
    await withView(h, browser, { uri: pages.modal, props: { openForm } }, async (rn) => {
      const shortCode = await openFirstForm(rn);
      assert.deepEqual(rn.seen.opened, [{ shortCode, handledBy: 'host' }]);
      assert.equal(asked.length, 1);
      assert.ok(asked[0]!.startsWith(h.formUrl), asked[0]);
      await settle(500);
      assert.deepEqual(rn.seen.closed, []);
      assert.equal(await rn.page.locator('hub-embed hub-form-frame').count(), 0, 'the page showed no form');
    });
  });

  for (const mode of ['modal', 'inline'] as const)
    it(`the page’s own ${mode === 'modal' ? 'dialog' : 'inline form'} (no allowed form origin): opened and closed by the page`, async () => {
      await withView(h, browser, { uri: pages[mode] }, async (rn) => {
        const shortCode = await openFirstForm(rn);
        assert.deepEqual(rn.seen.opened, [{ shortCode, handledBy: 'page' }]);
        await pageFormClose(rn.page).click();
        await waitFor(
          () => rn.seen.closed,
          (closed) => closed.length === 1,
          'onFormClosed',
        );
        assert.deepEqual(rn.seen.closed, [{ shortCode, reason: 'page' }]);
      });
    });

  it('open-mode="navigate" (no allowed form origin): opened by the page, the form URL goes to openExternal, no close', async () => {
    await withView(h, browser, { uri: pages.navigate }, async (rn) => {
      const shortCode = await openFirstForm(rn);
      assert.deepEqual(rn.seen.opened, [{ shortCode, handledBy: 'page' }]);
      await waitFor(
        () => rn.seen.external,
        (urls) => urls.length === 1,
        'openExternal',
      );
      assert.ok(rn.seen.external[0]!.startsWith(h.formUrl), rn.seen.external[0]);
      assert.equal(new URL(rn.page.url()).pathname, '/rn-navigate.html', 'the widget page stayed');
      await settle(300);
      assert.deepEqual(rn.seen.closed, []);
    });
  });

  it('open-mode="navigate" with an openForm that declines and the form’s origin allowed: the form loads in the widget’s WebView', async () => {
    await withView(
      h,
      browser,
      { uri: pages.navigate, props: { allowedOrigins: [formOrigin], openForm: () => false } },
      async (rn) => {
        await openFirstForm(rn);
        await waitFor(
          () => rn.page.url(),
          (url) => url.startsWith(formOrigin),
          'the form at the top of the WebView',
        );
        assert.deepEqual(rn.seen.external, []);
        assert.deepEqual(rn.seen.closed, []);
      },
    );
  });
});
