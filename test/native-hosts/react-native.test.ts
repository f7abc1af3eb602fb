// <HubEmbedView> (hub-embed/react-native) rendered with React in Node, its WebViews played against the
// real WebView bundle in Chromium by a stand-in that behaves as react-native-webview 13.x does
// (test/native-hosts/react-native/). Only the native views are stood in: the component, the host kernel, the
// page bundle, the simulator and the browser are the real ones.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, startHarness, waitFor, type Harness } from '../e2e/harness.js';
import * as rnHarness from './react-native/rn-harness.js';

const { BackHandler, Linking, webViews } = rnHarness;

let h: Harness;
let browser: Browser;
let pageUrl: string;

before(async () => {
  h = await startHarness();
  browser = await launchBrowser();
  pageUrl = rnHarness.addWidgetPage(h);
});

after(async () => {
  await browser?.close();
  await h?.close();
});

/** The view on the widget page, mounted for `body` and unmounted after it (rn-harness.ts withView). */
const withView = (options: Omit<rnHarness.MountOptions, 'uri'>, body: (rn: rnHarness.MountedView) => Promise<void>) =>
  rnHarness.withView(h, browser, { uri: pageUrl, ...options }, body);

describe('<HubEmbedView> against the real WebView bundle (react-native-webview contract in Chromium)', () => {
  it('handshake, the token from getToken, and hub-ready reach the app', async () => {
    await withView({}, async (rn) => {
      await rn.ready();
      assert.equal(rn.seen.tokens, 1, 'the page asked the app for the token once');
      await waitFor(
        () => rn.page.locator('hub-embed [part~="card"]').count(),
        (n) => n > 0,
        'cards',
      );
      assert.deepEqual(rn.seen.rejected, [], 'nothing the page sent was dropped');
    });
  });

  it('a card opens the form in the native Modal on the form URL, and Android back closes it', async () => {
    // The form site's origin allowed: the default openForm shows only an allowed origin natively.
    await withView({ props: { allowedOrigins: [new URL(h.formUrl).origin] } }, async (rn) => {
      await rn.ready();
      await rn.page.locator('hub-embed [part~="card"]').first().click();
      await waitFor(
        () => rn.modal().props.visible,
        (visible) => visible === true,
        'the Modal to open',
      );
      await waitFor(
        () => webViews.length,
        (n) => n === 2,
        'the form WebView',
      );
      const form = webViews[1]!;
      await form.loaded;
      const formUrl = new URL(form.page!.url());
      assert.equal(formUrl.origin, new URL(h.formUrl).origin, 'the form WebView shows the form site');
      assert.match(formUrl.search, /^\?token=/, 'with the token in its query');
      assert.equal(rn.seen.selected.length, 1, 'table.selected reached the app');

      // window.open from the form page goes out to openExternal, never a window inside the app.
      await form.page!.evaluate(() => window.open('https://help.example/terms'));
      await waitFor(
        () => rn.seen.external,
        (urls) => urls.includes('https://help.example/terms'),
        'openExternal',
      );

      BackHandler.press(rn.modal().props);
      // React commits the close when it gets to it; a loaded machine may take longer than a tick.
      await waitFor(
        () => rn.modal().props.visible,
        (visible) => visible === false,
        'back to close the form',
      );
      assert.equal(BackHandler.press(), false, 'with no form open, back goes on to the app');
    });
  });

  it('an off-site navigation is refused inside and handed to openExternal; javascript: goes nowhere', async () => {
    await withView({}, async (rn) => {
      await rn.ready();
      await rn.page.evaluate(() => {
        location.href = 'https://evil.example/phish';
      });
      await waitFor(
        () => rn.seen.external,
        (urls) => urls.includes('https://evil.example/phish'),
        'openExternal',
      );
      assert.equal(rn.page.url(), pageUrl, 'the widget page stayed');
      await rn.page.evaluate(() => window.open('javascript:alert(1)'));
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.deepEqual(rn.seen.external, ['https://evil.example/phish']);
      assert.deepEqual(Linking.opened, [], 'the app passed openExternal; Linking was not used');
    });
  });

  it('a forged message without the nonce, and one from another frame, are ignored', async () => {
    await withView({}, async (rn) => {
      await rn.ready();
      const tokensBefore = rn.seen.tokens;
      await rn.page.evaluate(() => {
        const forged = { ns: 'hub-embed', v: 1, sid: 'x', id: 'f1', kind: 'req', method: 'auth.getToken' };
        (window as unknown as { ReactNativeWebView: { postMessage(s: string): void } }).ReactNativeWebView.postMessage(
          JSON.stringify(forged),
        );
      });
      // A frame inside the page posts through the same native object (Android gives it to every frame);
      // its message arrives with the page's URL, and is dropped all the same.
      await rn.page.evaluate(() => {
        const frame = document.createElement('iframe');
        frame.srcdoc = `<script>ReactNativeWebView.postMessage('{"ns":"hub-embed","v":1,"sid":"x","id":"f2","kind":"req","method":"auth.getToken"}')</script>`;
        document.body.append(frame);
      });
      await waitFor(
        () => rn.seen.rejected,
        (reasons) => reasons.length >= 2,
        'both refusals',
      );
      assert.deepEqual(rn.seen.rejected, ['nonce', 'nonce']);
      assert.equal(rn.seen.tokens, tokensBefore, 'no token was handed out');
    });
  });

  it('Android: with the marker injected after the page’s first scripts, the page waits for it (the injected object carries no nonce)', async () => {
    await withView({ lateInjection: true }, async (rn) => {
      await waitFor(
        () => rn.seen.ready.length,
        (n) => n === 1,
        'widget.ready through the bridge',
      );
      assert.equal(rn.seen.tokens, 1, 'the token came from the app: the handshake carried the nonce');
      assert.deepEqual(rn.seen.rejected, []);
      const { object, nonce } = await rn.page.evaluate(() => ({
        object: (
          window as unknown as { ReactNativeWebView: { injectedObjectJson(): string } }
        ).ReactNativeWebView.injectedObjectJson(),
        nonce: (window as unknown as { __HUB_EMBED_BRIDGE__: { nonce: string } }).__HUB_EMBED_BRIDGE__.nonce,
      }));
      assert.ok(!object.includes(nonce), `every frame reads the injected object: ${object}`);
    });
  });

  it('the ref offers refresh, setTags and closeForm, answered by the page', async () => {
    await withView({}, async (rn) => {
      await rn.ready();
      await rn.ref.current!.setTags(['HR']);
      await waitFor(
        () => rn.page.evaluate(() => (document.querySelector('hub-embed') as unknown as { tags: string[] }).tags),
        (tags) => tags.join() === 'HR',
        'the widget to select HR',
      );
      await rn.ref.current!.refresh();
      assert.equal(await rn.ref.current!.closeForm(), false, 'no form was open');
    });
  });
});
