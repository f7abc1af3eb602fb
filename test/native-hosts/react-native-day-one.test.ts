// Issue 36 for React Native, on the harness (real Chromium, the real WebView bundle, the simulator): a form
// opened in the default Modal and closed every way fires onFormClosed; a token refused early is replaced and
// the cards come back; the app's token route (examples/react-native) answers a fetch without Origin; a
// killed content process recovers with the selection kept; webViewProps handlers are composed.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, pageHtml, startHarness, waitFor, widget, type Harness } from '../e2e/harness.js';
import { toNodeListener } from '../../src/server/index.js';
import { createAppTokenRoute } from '../../examples/react-native/token-route.js';
import { hubTokenFrom } from '../../examples/react-native/hub-token.js';
import { BackHandler, mount, settle, webViews } from './react-native/rn-harness.js';
import { colorScheme } from './react-native/react-native.js';
import { WebView } from './react-native/react-native-webview.js';

let h: Harness;
let browser: Browser;
let pageUrl: string;
let formOrigin: string;
let route: Server;
let routeUrl: string;
/** The app's own sessions, as its sign-in would have made them. */
const SESSIONS = new Map([['app-session-alice-0123456789abcdef', 'user-alice']]);

before(async () => {
  h = await startHarness();
  browser = await launchBrowser();
  formOrigin = new URL(h.formUrl).origin;
  pageUrl = h.addPage(
    '/rn.html',
    pageHtml(
      '<script src="/dist/hub-embed-webview.iife.js"></script>',
      widget(h, { bridge: 'auto', 'token-endpoint': '' }),
    ),
  );
  // A form page at the top of the Modal's WebView that posts to its parent (itself), as a form site
  // inside the page's dialog would; a frame inside it tries to post as the form.
  h.addPage(
    '/posting-form.html',
    `<!doctype html><meta charset="utf-8"><title>form</title><script>
      addEventListener('load', function () {
        parent.postMessage({ source: 'hub-form', type: 'charge', ok: true, amountCents: 100 }, '*');
        var frame = document.createElement('iframe');
        frame.srcdoc = '<script>ReactNativeWebView.postMessage(JSON.stringify({ hubEmbedForm: "guess", data: "forged" }))<\\/script>';
        document.body.append(frame);
      });
    </script>`,
  );
  route = createServer(
    toNodeListener(
      createAppTokenRoute({
        apiKey: h.mock.apiKey,
        baseUrl: h.mock.baseUrl,
        userForSession: (token) => SESSIONS.get(token) ?? null,
      }),
    ),
  );
  await new Promise<void>((resolve) => route.listen(0, '127.0.0.1', resolve));
  routeUrl = `http://127.0.0.1:${(route.address() as AddressInfo).port}/hub-token`;
});

after(async () => {
  await new Promise((resolve) => route?.close(resolve));
  await browser?.close();
  await h?.close();
});

const card = (page: import('playwright-core').Page) => page.locator('hub-embed hub-table-card [part~="card"]').first();
const cards = (page: import('playwright-core').Page) => page.locator('hub-embed hub-table-card').count();

describe('<HubEmbedView> day one: the default native form', () => {
  it('onFormClosed fires for every way a form closes: the close control, Android back, closeForm(), the page’s dialog', async () => {
    const rn = await mount(h, browser, { uri: pageUrl, props: { allowedOrigins: [formOrigin] } });
    try {
      await rn.ready();
      const open = async () => {
        await card(rn.page).click();
        await waitFor(
          () => rn.modal().props.visible,
          (visible) => visible === true,
          'the Modal to open',
        );
      };
      await open();
      /** Waits until the Modal is gone and the n-th close was told. */
      const closed = async (n: number) => {
        await waitFor(
          () => rn.seen.closed.length,
          (count) => count === n,
          `close number ${n}`,
        );
        await waitFor(
          () => rn.modal().props.visible,
          (visible) => visible === false,
          'the Modal to close',
        );
      };
      rn.renderer.root.findByProps({ accessibilityRole: 'button' }).props.onPress();
      await closed(1);
      await open();
      BackHandler.press(rn.modal().props);
      await closed(2);
      await open();
      assert.equal(await rn.ref.current!.closeForm(), true);
      await closed(3);
      const shortCode = (rn.seen.selected[0] as { shortCode: string }).shortCode;
      assert.deepEqual(rn.seen.closed, [
        { shortCode, reason: 'button' },
        { shortCode, reason: 'back' },
        { shortCode, reason: 'app' },
      ]);
    } finally {
      await rn.unmount();
    }

    // No allowed form origin: the page opens the form in its own dialog, and says when it closes.
    const page = await mount(h, browser, { uri: pageUrl });
    try {
      await page.ready();
      await card(page.page).click();
      await waitFor(
        () => page.seen.opened.length,
        (n) => n === 1,
        'form.opened',
      );
      assert.equal(await page.ref.current!.closeForm(), true);
      await waitFor(
        () => page.seen.closed,
        (closed) => closed.length === 1,
        'form.closed',
      );
      assert.equal(page.seen.closed[0]!.reason, 'page');
    } finally {
      await page.unmount();
    }
  });

  it('what the form page posts reaches onFormMessage from the Modal, and no other frame of it can', async () => {
    const rn = await mount(h, browser, { uri: pageUrl });
    try {
      await rn.ready();
      // The page's own form.open (it holds the nonce) for a form page on its own origin.
      await rn.page.evaluate((url) => {
        const { nonce } = (window as unknown as { __HUB_EMBED_BRIDGE__: { nonce: string } }).__HUB_EMBED_BRIDGE__;
        const post = (m: object) =>
          (
            window as unknown as { ReactNativeWebView: { postMessage(s: string): void } }
          ).ReactNativeWebView.postMessage(JSON.stringify({ ns: 'hub-embed', v: 1, sid: 'mine', nonce, ...m }));
        post({ id: 'h', kind: 'req', method: 'bridge.hello', params: { v: [1], capabilities: [] } });
        post({ id: 'f', kind: 'req', method: 'form.open', params: { shortCode: 'abc', url } });
      }, `${h.origin}/posting-form.html`);
      await waitFor(
        () => rn.seen.messages,
        (messages) => messages.length >= 1,
        'onFormMessage',
      );
      await settle(300);
      assert.deepEqual(rn.seen.messages, [
        { shortCode: 'abc', data: { source: 'hub-form', type: 'charge', ok: true, amountCents: 100 } },
      ]);
      assert.ok(rn.seen.rejected.includes('form message'), 'the inner frame’s post was dropped');
      assert.equal(webViews.length, 2);
    } finally {
      await rn.unmount();
    }
  });
});

describe('<HubEmbedView> day one: tokens from the app’s own server', () => {
  it('the app’s token route answers a fetch without Origin, for the app’s bearer session only', async () => {
    const getToken = hubTokenFrom(routeUrl, () => 'app-session-alice-0123456789abcdef');
    const token = await getToken({ reason: 'initial' });
    assert.ok(token.access_token.length > 0 && token.expires_in > 0);
    const stranger = await fetch(routeUrl, {
      method: 'POST',
      headers: { authorization: 'Bearer not-a-session-of-ours' },
    });
    assert.equal(stranger.status, 401);
    const none = await fetch(routeUrl, { method: 'POST' });
    assert.equal(none.status, 401);
  });

  it('a token the service refuses early is replaced through the bridge, and the cards come back', async () => {
    const asked: unknown[] = [];
    const fromRoute = hubTokenFrom(routeUrl, () => 'app-session-alice-0123456789abcdef');
    const rn = await mount(h, browser, {
      uri: pageUrl,
      props: {
        getToken: (request) => {
          asked.push(request);
          return fromRoute(request);
        },
      },
    });
    try {
      await rn.ready();
      await waitFor(
        () => cards(rn.page),
        (n) => n > 0,
        'cards',
      );
      // The service forgets every token it gave (a key rotated, a restart): the widget's, and the one the
      // route keeps in its cache for alice.
      h.mock.hub.reset();
      await rn.ref.current!.refresh().catch(() => {});
      await waitFor(
        () => cards(rn.page),
        (n) => n > 0,
        'the cards to come back',
      );
      const refused = asked.at(-1) as { reason: string; previous?: string };
      assert.equal(refused.reason, 'unauthorized');
      assert.equal(typeof refused.previous, 'string');
      assert.deepEqual(
        await rn.page.evaluate(() =>
          [...document.querySelector('hub-embed')!.shadowRoot!.querySelectorAll('[role="alert"]')].map(
            (e) => e.textContent,
          ),
        ),
        [],
      );
    } finally {
      await rn.unmount();
    }
  });
});

for (const platform of ['android', 'ios'] as const) {
  describe(`<HubEmbedView> day one on ${platform}: the content process dies`, () => {
    it('the view recovers by itself and the user finds the same selection', async () => {
      const rn = await mount(h, browser, { platform, uri: pageUrl, props: { tags: ['HR'] } });
      try {
        await rn.ready();
        const selected = () =>
          rn.page.evaluate(() =>
            (document.querySelector('hub-embed') as unknown as { tags?: string[] } | null)?.tags?.join(),
          );
        await waitFor(selected, (tags) => tags === 'HR', 'HR selected');
        await rn.view.terminate();
        await rn.ready(2);
        await waitFor(selected, (tags) => tags === 'HR', 'HR selected again');
        await waitFor(
          () => cards(rn.page),
          (n) => n > 0,
          'cards again',
        );
      } finally {
        await rn.unmount();
      }
    });
  });
}

describe('<HubEmbedView> day one: webViewProps and the ref', () => {
  it('webViewProps handlers are called after the component’s own, never replacing them; reload() loads the page again', async () => {
    const heard = { loadStart: 0, message: 0 };
    const rn = await mount(h, browser, {
      uri: pageUrl,
      props: {
        webViewProps: {
          onLoadStart: () => void heard.loadStart++,
          onMessage: () => void heard.message++,
        },
      },
    });
    try {
      await rn.ready();
      assert.ok(heard.loadStart >= 1 && heard.message >= 1, JSON.stringify(heard));
      assert.deepEqual(rn.seen.rejected, [], 'the bridge still works');
      rn.ref.current!.reload();
      await rn.ready(2);
      assert.ok(heard.loadStart >= 2);
    } finally {
      await rn.unmount();
    }
  });
});

/** The page's own form.open (it holds the nonce), as the widget sends it for a card. */
async function openFormFromPage(page: import('playwright-core').Page, url: string): Promise<void> {
  await page.evaluate((formUrl) => {
    const { nonce } = (window as unknown as { __HUB_EMBED_BRIDGE__: { nonce: string } }).__HUB_EMBED_BRIDGE__;
    const post = (m: object) =>
      (window as unknown as { ReactNativeWebView: { postMessage(s: string): void } }).ReactNativeWebView.postMessage(
        JSON.stringify({ ns: 'hub-embed', v: 1, sid: 'mine', nonce, ...m }),
      );
    post({ id: 'h', kind: 'req', method: 'bridge.hello', params: { v: [1], capabilities: [] } });
    post({ id: 'f', kind: 'req', method: 'form.open', params: { shortCode: 'abc', url: formUrl } });
  }, url);
}

describe('<HubEmbedView> day one: loading, payments', () => {
  it('no white flash: the WebViews’ background follows the color scheme before the page paints', async () => {
    colorScheme.current = 'dark';
    const rn = await mount(h, browser, { uri: pageUrl });
    try {
      const style = [rn.renderer.root.findAllByType(WebView)[0]!.props.style].flat(3) as Array<
        { backgroundColor?: string } | undefined
      >;
      assert.ok(
        style.some((entry) => entry?.backgroundColor === '#0d1117'),
        `the widget WebView's style: ${JSON.stringify(style)}`,
      );
    } finally {
      colorScheme.current = 'light';
      await rn.unmount();
    }
  });

  it('formOrigins keeps a payment provider inside the form Modal; an app scheme goes to openExternal', async () => {
    const payOrigin = new URL(h.origin);
    payOrigin.hostname = 'localhost';
    const rn = await mount(h, browser, { uri: pageUrl, props: { formOrigins: [payOrigin.origin] } });
    try {
      await rn.ready();
      await openFormFromPage(rn.page, `${h.origin}/posting-form.html`);
      await waitFor(
        () => webViews.length,
        (n) => n === 2,
        'the form WebView',
      );
      const form = webViews[1]!;
      await form.loaded;
      await form.page!.evaluate((url) => {
        location.href = url;
      }, `${payOrigin.origin}/posting-form.html?pay=1`);
      await waitFor(
        () => form.page!.url(),
        (url) => url.includes('?pay=1'),
        'the payment page to load inside the Modal',
      );
      await form.page!.evaluate(() => {
        location.href = 'alipays://platformapi/startapp?appId=20000067';
      });
      await waitFor(
        () => rn.seen.external,
        (urls) => urls.length === 1,
        'openExternal',
      );
      assert.deepEqual(rn.seen.external, ['alipays://platformapi/startapp?appId=20000067']);
    } finally {
      await rn.unmount();
    }
  });
});

describe('<HubEmbedView> day one: tags at mount', () => {
  it('tags at mount are the first selection: one filtered list request, not the full list first', async () => {
    const log = (h.mock.hub as unknown as { requestLog: Array<{ path: string; time: number }> }).requestLog;
    const from = log.length;
    const rn = await mount(h, browser, { uri: pageUrl, props: { tags: ['HR'] } });
    try {
      await rn.ready();
      await waitFor(
        () => cards(rn.page),
        (n) => n > 0,
        'cards',
      );
      await settle(300);
      const lists = log.slice(from).filter((entry) => entry.path.includes('published-list'));
      assert.equal(lists.length, 1, lists.map((entry) => entry.path).join(', '));
      // One request, and the widget shows HR: that one request was the filtered list (the log keeps no query).
      assert.equal(
        await rn.page.evaluate(() =>
          (document.querySelector('hub-embed') as unknown as { tags: string[] }).tags.join(),
        ),
        'HR',
      );
    } finally {
      await rn.unmount();
    }
  });
});

describe('<HubEmbedView> day one on iOS: the page opens forms itself', () => {
  it('the form site loads in the page’s own frame without extra props (iOS asks about sub-frames)', async () => {
    const rn = await mount(h, browser, { platform: 'ios', uri: pageUrl });
    try {
      await rn.ready();
      await card(rn.page).click();
      const formFrame = await waitFor(
        () => rn.page.frames().find((frame) => frame.url().startsWith(formOrigin)),
        (frame) => !!frame,
        'the form in the page’s dialog',
      );
      await waitFor(
        () => formFrame!.evaluate(() => document.readyState),
        (state) => state === 'complete',
        'the form page to load',
      );
      assert.ok(
        rn.view.asked.some((request) => !request.isTopFrame && request.url.startsWith(formOrigin) && request.allowed),
        'iOS asked about the form frame, and it was allowed',
      );
      assert.deepEqual(rn.seen.external, [], 'the form was not sent to the browser');
    } finally {
      await rn.unmount();
    }
  });
});
