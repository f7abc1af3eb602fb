// Issue 35 item 2: every frame but the widget page's main frame is a stranger to <HubEmbedView>, on
// Android and on iOS as react-native-webview 13.x really behaves (test/native-hosts/react-native/react-native-webview.ts):
// a cross-origin iframe inside the widget page tries to learn the nonce, run getToken, forge
// table.selected, open the native form and take over the page session. Item 4's frame and navigation
// rules are here too.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Frame } from 'playwright-core';
import { launchBrowser, startHarness, waitFor, type Harness } from '../e2e/harness.js';
import { addWidgetPage, BackHandler, Linking, settle, webViews, withView } from './react-native/rn-harness.js';
import { webViewVersion } from './react-native/react-native-webview.js';

let h: Harness;
let browser: Browser;
let pageUrl: string;
/** The same server under another host name: another origin, as an ad or a third-party frame would be. */
let strangerOrigin: string;

/**
 * What a stranger frame does with whatever react-native-webview gives every frame: read the injected
 * object, look for a nonce in it, and speak for the widget through the native object.
 */
const STRANGER = `<!doctype html><meta charset="utf-8"><title>stranger</title><script>
  var rn = window.ReactNativeWebView;
  var wk = window.webkit && window.webkit.messageHandlers && window.webkit.messageHandlers.ReactNativeWebView;
  var learned = '';
  try { learned = String(rn.injectedObjectJson()); } catch (e) {}
  var nonce;
  try { var o = JSON.parse(learned); nonce = o.hubEmbedNonce || o.nonce; } catch (e) {}
  function post(m) {
    var text = JSON.stringify(Object.assign({ ns: 'hub-embed', v: 1, sid: 'stranger', nonce: nonce }, m));
    if (rn && rn.postMessage) rn.postMessage(text); else if (wk) wk.postMessage(text);
  }
  post({ id: 'x1', kind: 'req', method: 'bridge.hello', params: { v: [1], capabilities: [] } });
  post({ id: 'x2', kind: 'req', method: 'auth.getToken', params: { reason: 'initial' } });
  post({ id: 'x3', kind: 'evt', method: 'table.selected', params: { shortCode: 'FORGED', name: 'forged' } });
  post({ id: 'x4', kind: 'req', method: 'form.open', params: { shortCode: 'FORGED', url: location.origin + '/stranger.html#form' } });
  window.strangerRan = { learned: learned, posted: !!(rn && rn.postMessage) || !!wk };
</script>`;

before(async () => {
  h = await startHarness();
  browser = await launchBrowser();
  pageUrl = addWidgetPage(h);
  const strangerUrl = new URL(h.addPage('/stranger.html', STRANGER));
  strangerUrl.hostname = 'localhost';
  strangerOrigin = strangerUrl.origin;
});

after(async () => {
  await browser?.close();
  await h?.close();
});

/** Adds an iframe of `src` to the widget page and waits until it has run its script. */
async function addFrame(page: import('playwright-core').Page, src: string): Promise<Frame> {
  await page.evaluate((url) => {
    const frame = document.createElement('iframe');
    frame.src = url;
    document.body.append(frame);
  }, src);
  return waitFor(
    () => page.frames().find((frame) => frame.url() === src),
    (frame) => !!frame,
    `the frame ${src} to load`,
  ) as Promise<Frame>;
}

for (const platform of ['android', 'ios'] as const) {
  describe(`<HubEmbedView> on ${platform}: a cross-origin frame in the widget page is a stranger`, () => {
    it('no frame but the widget page’s main frame learns the nonce or is acted upon', async () => {
      // The form site's origin allowed, so that a form.open that got through would show the native Modal.
      await withView(
        h,
        browser,
        { platform, uri: pageUrl, props: { allowedOrigins: [strangerOrigin] } },
        async (rn) => {
          await rn.ready();
          const nonce = await rn.page.evaluate(
            () => (window as unknown as { __HUB_EMBED_BRIDGE__: { nonce: string } }).__HUB_EMBED_BRIDGE__.nonce,
          );
          const tokensBefore = rn.seen.tokens;
          const rejectedBefore = rn.seen.rejected.length;

          const frame = await addFrame(rn.page, `${strangerOrigin}/stranger.html`);
          const ran = await waitFor(
            () =>
              frame.evaluate(
                () => (window as unknown as { strangerRan?: { learned: string; posted: boolean } }).strangerRan,
              ),
            (value) => !!value,
            'the stranger frame to run',
          );
          assert.equal(ran!.posted, true, 'the stranger reached a native object (as it can on both platforms)');
          assert.ok(
            !ran!.learned.includes(nonce),
            `the stranger read no nonce from the injected object (${ran!.learned})`,
          );

          // All four of its messages are dropped: for want of the nonce under react-native-webview 13, which
          // reports the top-level URL for every frame; for the frame's origin under 16, which names the frame.
          const reason = webViewVersion >= 14 ? 'origin' : 'nonce';
          await waitFor(
            () => rn.seen.rejected.length - rejectedBefore,
            (n) => n >= 4,
            'the stranger’s four messages to be dropped',
          ).catch(() => {});
          await settle(200);
          assert.deepEqual(rn.seen.rejected.slice(rejectedBefore), [reason, reason, reason, reason]);
          assert.equal(rn.seen.tokens, tokensBefore, 'getToken was not run for the stranger');
          assert.deepEqual(rn.seen.selected, [], 'no forged table.selected reached onTableSelected');
          assert.equal(rn.modal().props.visible, false, 'the native form did not open');

          // The session is still the page's: the app's setTags reaches the widget.
          await rn.ref.current!.setTags(['HR']);
          await waitFor(
            () => rn.page.evaluate(() => (document.querySelector('hub-embed') as unknown as { tags: string[] }).tags),
            (tags) => tags.join() === 'HR',
            'the widget to select HR',
          );
        },
      );
    });

    it('sub-frames of the widget page load, and are never handed to openExternal', async () => {
      await withView(h, browser, { platform, uri: pageUrl }, async (rn) => {
        await rn.ready();
        // Another site's page in a frame (a map, a video, a payment provider) loads where the page put it.
        await addFrame(rn.page, `${strangerOrigin}/stranger.html`);
        // A frame sent to another app's scheme goes nowhere: not to the browser, not to Linking.
        await rn.page.evaluate(() => {
          const frame = document.createElement('iframe');
          frame.src = 'intent://scan/#Intent;scheme=zxing;end';
          document.body.append(frame);
          const dial = document.createElement('iframe');
          dial.src = 'tel:+861234';
          document.body.append(dial);
        });
        // iOS asks about each frame (a busy machine takes its time); Android asks about none.
        if (platform === 'ios')
          await waitFor(
            () => rn.view.asked.filter((request) => !request.isTopFrame).map((request) => request.url),
            (urls) => urls.some((url) => url.startsWith('tel:')) && urls.some((url) => url.startsWith(strangerOrigin)),
            'iOS to ask about the frames',
          ).catch(() => {});
        await settle(300);
        assert.deepEqual(rn.seen.external, [], 'nothing left the app from a sub-frame');
        assert.deepEqual(Linking.opened, [], 'react-native-webview’s wrapper opened nothing itself');
        const asked = rn.view.asked.filter((request) => !request.isTopFrame);
        if (platform === 'ios') {
          assert.ok(
            asked.some((r) => r.url.startsWith(strangerOrigin) && r.allowed),
            'iOS asked about the frame; it loads',
          );
          assert.ok(
            asked.some((r) => r.url.startsWith('tel:') && !r.allowed),
            'tel: in a frame is blocked',
          );
        } else assert.deepEqual(asked, [], 'Android never asks about sub-frames');
      });
    });
  });
}

describe('<HubEmbedView>: where URLs go (issue 35 item 4)', () => {
  it('every URL passes the component’s own decision: tel: goes to openExternal, intent: nowhere, never Linking', async () => {
    await withView(h, browser, { platform: 'android', uri: pageUrl }, async (rn) => {
      await rn.ready();
      await rn.page.evaluate(() => {
        location.href = 'tel:+861234';
      });
      await waitFor(
        () => rn.seen.external,
        (urls) => urls.includes('tel:+861234'),
        'openExternal(tel:)',
      ).catch(() => {});
      await settle(1100);
      await rn.page.evaluate(() => {
        location.href = 'intent://scan/#Intent;scheme=zxing;end';
      });
      await settle(300);
      assert.deepEqual(Linking.opened, [], 'react-native-webview’s wrapper never opened anything itself');
      assert.deepEqual(rn.seen.external, ['tel:+861234'], 'tel: through openExternal; intent: blocked');
    });
  });

  it('opens without a user action are limited: 30 scripted navigations give one openExternal a second', async () => {
    await withView(h, browser, { platform: 'ios', uri: pageUrl }, async (rn) => {
      await rn.ready();
      const store = (url: string) => url.startsWith('https://store.example/');
      const started = Date.now();
      // One navigation after the other, each once the view was asked about it: a navigation that starts
      // before the last was asked about cancels it unseen, which on a busy machine left too few to limit.
      for (let i = 0; i < 30; i++) {
        await rn.page.evaluate((n) => {
          location.href = `https://store.example/app-${n}`;
        }, i);
        await waitFor(
          () => rn.view.asked.filter((request) => store(request.url)).length,
          (count) => count === i + 1,
          `the view to be asked about navigation ${i + 1}`,
        );
      }
      await settle(300);
      // At most one open a second over however long the 30 took, at least one; every other was refused.
      const seconds = Math.ceil((Date.now() - started) / 1000);
      const opened = rn.seen.external.filter(store);
      const limited = rn.seen.rejected.filter((reason) => reason === 'external open limited');
      const calls = `openExternal calls in ${seconds} s: ${opened.join(', ')}`;
      assert.ok(opened.length >= 1 && opened.length <= seconds, calls);
      assert.equal(opened.length + limited.length, 30, 'each navigation was opened or refused as limited');
      assert.equal(rn.page.url(), pageUrl, 'the widget page stayed');
    });
  });

  it('the default openForm fills the screen only with an https or loopback page of an allowed origin', async () => {
    const formOrigin = new URL(h.formUrl).origin;
    await withView(
      h,
      browser,
      { platform: 'android', uri: pageUrl, props: { allowedOrigins: [formOrigin] } },
      async (rn) => {
        await rn.ready();
        // The page itself (which holds the nonce) asks for a data: page, then another site.
        const answers = await rn.page.evaluate(async () => {
          const { nonce } = (window as unknown as { __HUB_EMBED_BRIDGE__: { nonce: string } }).__HUB_EMBED_BRIDGE__;
          const replies: unknown[] = [];
          const receive = window as unknown as {
            __hubEmbedReceive: ((json: string) => void) & { receivers: Set<(d: unknown) => void> };
          };
          receive.__hubEmbedReceive.receivers.add((data) => replies.push(JSON.parse(String(data))));
          const post = (m: object) =>
            (
              window as unknown as { ReactNativeWebView: { postMessage(s: string): void } }
            ).ReactNativeWebView.postMessage(JSON.stringify({ ns: 'hub-embed', v: 1, sid: 'mine', nonce, ...m }));
          post({ id: 'h', kind: 'req', method: 'bridge.hello', params: { v: [1], capabilities: [] } });
          post({
            id: 'd',
            kind: 'req',
            method: 'form.open',
            params: { shortCode: 'x', url: 'data:text/html,<h1>Sign in</h1>' },
          });
          post({
            id: 'e',
            kind: 'req',
            method: 'form.open',
            params: { shortCode: 'x', url: 'https://evil.example/x' },
          });
          // The three answers (a busy machine takes its time), or what came in 10 s.
          for (let waited = 0; replies.length < 3 && waited < 10_000; waited += 50)
            await new Promise((resolve) => setTimeout(resolve, 50));
          return replies.filter((r) => (r as { id: string }).id !== 'h');
        });
        await settle();
        assert.equal(rn.modal().props.visible, false, 'neither filled the screen');
        assert.deepEqual(
          answers.map((a) => (a as { result: unknown }).result),
          [{ handled: false }, { handled: false }],
          'both were left to the page',
        );
        assert.equal(rn.seen.rejected.filter((r) => r.startsWith('form.open:')).length, 2);
      },
    );
  });

  it('Android back is not trapped after the page reloads with its own form dialog open', async () => {
    // No allowed form origin: the page opens the form in its own dialog.
    await withView(h, browser, { platform: 'android', uri: pageUrl }, async (rn) => {
      await rn.ready();
      await rn.page.locator('hub-embed [part~="card"]').first().click();
      await waitFor(
        () => rn.seen.opened,
        (opened) => opened.length === 1,
        'form.opened',
      );
      assert.deepEqual((rn.seen.opened[0] as { handledBy: string }).handledBy, 'page');
      await rn.page.reload();
      await rn.ready(2);
      assert.equal(BackHandler.press(), false, 'with the page reloaded, back goes on to the app');
      assert.equal(webViews.length, 1, 'no native form was opened');
    });
  });
});

describe('<HubEmbedView> on android: a same-document navigation of the widget page', () => {
  it('history.pushState (onLoadStart with loading false) keeps the page session: setTags still reaches the widget', async () => {
    await withView(h, browser, { platform: 'android', uri: pageUrl }, async (rn) => {
      await rn.ready();
      await rn.page.evaluate(() => history.pushState({}, '', '#tables'));
      await settle(200);
      await rn.ref.current!.setTags(['HR']);
      await waitFor(
        () => rn.page.evaluate(() => (document.querySelector('hub-embed') as unknown as { tags: string[] }).tags),
        (tags) => tags.join() === 'HR',
        'the widget to select HR',
      );
    });
  });
});
