// Issue 44 item 4, on the harness (real Chromium, the real WebView bundle, the simulator): a host whose
// channel is there from document start (webview_flutter's JavaScriptChannel; Android's JavascriptInterface
// without document-start scripts) and whose marker, with the nonce its host requires, comes after the
// page's 500 ms wait. The host (hub-embed/host's kernel, as examples/flutter runs it: transport `android`)
// then sends `evt bridge.ready`, and the page must connect: at 1.5 s, while its first hello (without the
// nonce) is unanswered, and at 2.6 s, after it gave up and showed "Open this page in the app.".
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { createHostKernel, receiveScript } from '../../src/host/index.js';
import { launchBrowser, serverToken, startHarness, waitFor, type Harness } from '../e2e/harness.js';
import { addWidgetPage } from './react-native/rn-harness.js';

let h: Harness;
let browser: Browser;
let pageUrl: string;

before(async () => {
  h = await startHarness();
  browser = await launchBrowser();
  pageUrl = addWidgetPage(h);
});

after(async () => {
  await browser?.close();
  await h?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

for (const markerAtMs of [1500, 2600]) {
  describe(`a late marker at ${markerAtMs / 1000} s with the channel there from document start`, () => {
    it('bridge.ready with the marker’s nonce: the page says hello with it, gets the host’s token and shows the cards', async () => {
      const page = await browser.newPage();
      const rejected: string[] = [];
      let tokens = 0;
      const kernel = createHostKernel({
        platform: 'flutter',
        // A Flutter channel is the same window.hubEmbed.postMessage on both platforms.
        transport: 'android',
        handlers: {
          getToken: async () => {
            tokens++;
            return { access_token: await serverToken(h), expires_in: 600 };
          },
        },
        onRejected: (reason) => rejected.push(reason),
        send: (script) => void page.evaluate(script).catch(() => {}),
      });
      try {
        await page.exposeBinding('__channelPost', (_source, data: string) => void kernel.receive(data));
        await page.addInitScript(
          'window.hubEmbed = { postMessage: function (data) { window.__channelPost(String(data)); } };',
        );
        const started = Date.now();
        await page.goto(pageUrl, { waitUntil: 'commit' });
        await sleep(markerAtMs - (Date.now() - started));
        // What the Flutter host does at onPageFinished: the marker, then bridge.ready (with the nonce).
        await page.evaluate(kernel.marker);
        const announce = { ns: 'hub-embed', v: 1, sid: '', id: 'ready', kind: 'evt', method: 'bridge.ready' };
        await page.evaluate(receiveScript(JSON.stringify({ ...announce, nonce: kernel.nonce })));
        await waitFor(
          () => page.locator('hub-embed [part~="card"]').count(),
          (n) => n > 0,
          'the cards through the host',
        );
        assert.ok(tokens >= 1, 'the token came from the host');
        assert.equal(await page.locator('hub-embed [part="error"]').count(), 0, 'no error left on screen');
        assert.ok(kernel.sessions.length >= 1, 'a session said hello with the nonce');
        // Before the marker the page spoke without the nonce; those messages, and only those, were dropped.
        assert.ok(
          rejected.every((reason) => reason === 'nonce'),
          rejected.join(),
        );
      } finally {
        kernel.close();
        await page.close();
      }
    });
  });
}
