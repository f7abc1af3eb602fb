// Issue 36 for React Native, on the harness (real Chromium, the real WebView bundle, the simulator): a form
// opened in the default Modal and closed every way fires onFormClosed; a token refused early is replaced and
// the cards come back; the app's token route (examples/react-native) answers a fetch without Origin; a
// killed content process recovers with the selection kept; webViewProps handlers are composed.
import assert from 'node:assert/strict';
import { createElement } from 'react';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, pageHtml, startHarness, waitFor, widget, type Harness } from '../e2e/harness.js';
import { toNodeListener } from '../../src/server/index.js';
import { createAppTokenRoute } from '../../examples/react-native/token-route.js';
import { hubTokenFrom } from '../../examples/react-native/hub-token.js';
import {
  addWidgetPage,
  BackHandler,
  CLOSE_LABELS,
  mount,
  RELOADS_PER_MINUTE,
  settle,
  webViews,
  withView,
} from './react-native/rn-harness.js';
import { formStrings } from '../../src/components/hub-form-frame/hub-form-frame.strings.js';
import { otherLocales } from '../../src/components/locales/other-locales.js';
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
  pageUrl = addWidgetPage(h);
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

const card = (page: import('playwright-core').Page) => page.locator('hub-embed [part~="card"]').first();
const cards = (page: import('playwright-core').Page) => page.locator('hub-embed [part~="card"]').count();

describe('<HubEmbedView> day one: the default native form', () => {
  it('onFormClosed fires for every way a form closes: the close control, Android back, closeForm(), the page’s dialog', async () => {
    await withView(h, browser, { uri: pageUrl, props: { allowedOrigins: [formOrigin] } }, async (rn) => {
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
    });

    // No allowed form origin: the page opens the form in its own dialog, and says when it closes.
    await withView(h, browser, { uri: pageUrl }, async (page) => {
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
    });
  });

  it('what the form page posts reaches onFormMessage from the Modal, and no other frame of it can', async () => {
    await withView(h, browser, { uri: pageUrl }, async (rn) => {
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
    });
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
    await withView(
      h,
      browser,
      {
        uri: pageUrl,
        props: {
          getToken: (request) => {
            asked.push(request);
            return fromRoute(request);
          },
        },
      },
      async (rn) => {
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
      },
    );
  });
});

for (const platform of ['android', 'ios'] as const) {
  describe(`<HubEmbedView> day one on ${platform}: the content process dies`, () => {
    it('the view recovers by itself and the user finds the same selection: the app’s, and then the user’s own', async () => {
      const heard: string[][] = [];
      // The app keeps `tags` in its state and follows onTagsChanged, as a controlled prop asks.
      let follow = (_tags: string[]) => {};
      await withView(
        h,
        browser,
        {
          platform,
          uri: pageUrl,
          props: {
            tags: ['HR'],
            onTagsChanged: ({ tags }) => {
              heard.push(tags);
              follow(tags);
            },
          },
        },
        async (rn) => {
          follow = (tags) => void rn.rerender({ tags });
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
          assert.equal(heard.length, 0, 'the app’s own selection is not reported back as the user’s');

          // The user picks another tag in the page: the app hears it, and it is what a new process shows.
          const chip = rn.page.locator('hub-embed hub-tag-filter [part~="chip"]:not([part~="chip-all"])').nth(1);
          const picked = (await chip.getAttribute('title'))!;
          await chip.click();
          await waitFor(
            () => heard.length,
            (n) => n === 1,
            'tags.changed',
          );
          assert.ok(heard[0]!.includes(picked), `${picked} in ${heard[0]!.join()}`);
          const users = heard[0]!.join();
          await rn.view.terminate();
          await rn.ready(3);
          await waitFor(selected, (tags) => tags === users, 'the user’s selection again');
          await waitFor(
            () => cards(rn.page),
            (n) => n > 0,
            'cards again',
          );
          // The same after reload() from the app.
          rn.ref.current!.reload();
          await rn.ready(4);
          await waitFor(selected, (tags) => tags === users, 'the user’s selection after reload()');
        },
      );
    });
  });
}

describe('<HubEmbedView> day one: a page that kills its content process on every load', () => {
  it(`reloads by itself at most RELOADS_PER_MINUTE (${RELOADS_PER_MINUTE}) times a minute, then stops and says so; the app still hears each death`, async () => {
    let deaths = 0;
    await withView(
      h,
      browser,
      {
        platform: 'ios',
        uri: pageUrl,
        props: { webViewProps: { onContentProcessDidTerminate: () => void deaths++ } },
      },
      async (rn) => {
        await rn.ready();
        for (let reload = 1; reload <= RELOADS_PER_MINUTE; reload++) {
          await rn.view.terminate();
          await rn.ready(1 + reload);
        }
        await rn.view.terminate();
        await settle(1500);
        assert.equal(rn.seen.ready.length, 1 + RELOADS_PER_MINUTE, 'no reload after the limit');
        assert.equal(deaths, RELOADS_PER_MINUTE + 1);
        assert.equal(rn.seen.rejected.at(-1), 'content process gone again: not reloaded');
        // The app may still load it again itself.
        rn.ref.current!.reload();
        await rn.ready(2 + RELOADS_PER_MINUTE);
      },
    );
  });
});

describe('<HubEmbedView> day one: the form Modal', () => {
  /** Opens the first card's form in the default Modal of a view on `uri`. */
  const openModal = async (
    uri: string,
    props: Partial<import('./react-native/rn-harness.js').ViewProps> = {},
    platform: 'android' | 'ios' = 'android',
  ) => {
    const rn = await mount(h, browser, { platform, uri, props: { allowedOrigins: [formOrigin], ...props } });
    await rn.ready();
    await card(rn.page).click();
    await waitFor(
      () => rn.modal().props.visible,
      (visible) => visible === true,
      'the Modal to open',
    );
    const label = () =>
      rn
        .modal()
        .findByProps({ accessibilityRole: 'button' })
        .findByType('Text' as never).props.children;
    return { rn, label };
  };

  it('the close label is the widget’s own word in the widget’s language, unless the app passes one', async () => {
    // The Modal's words are the widget's own dialog's, in each language.
    const widgetWords = Object.entries(otherLocales).map(([locale, table]) => [locale, table.close]);
    assert.deepEqual(CLOSE_LABELS, { en: formStrings.close, ...Object.fromEntries(widgetWords) });
    const zhPage = h.addPage(
      '/rn-zh.html',
      pageHtml(
        '<script src="/dist/hub-embed-webview.iife.js"></script>',
        widget(h, { bridge: 'auto', 'token-endpoint': '', locale: 'zh-CN' }),
      ),
    );
    const en = await openModal(pageUrl);
    try {
      assert.equal(en.label(), 'Close');
      assert.equal((en.rn.seen.ready[0] as { locale?: string }).locale, 'en');
    } finally {
      await en.rn.unmount();
    }
    const zh = await openModal(zhPage);
    try {
      assert.equal(zh.label(), '关闭');
      assert.equal((zh.rn.seen.ready[0] as { locale?: string }).locale, 'zh-CN');
    } finally {
      await zh.rn.unmount();
    }
    const own = await openModal(zhPage, { closeLabel: 'Done' });
    try {
      assert.equal(own.label(), 'Done');
    } finally {
      await own.rn.unmount();
    }
  });

  it('formWebViewProps reach the form’s WebView (camera, uploads, renderLoading); its onMessage is composed; the component’s own props stay', async () => {
    const heard: string[] = [];
    const renderLoading = () => createElement('Text', null, 'Loading');
    const { rn } = await openModal(`${pageUrl}`, {
      formWebViewProps: {
        mediaCapturePermissionGrantType: 'grant',
        allowsInlineMediaPlayback: true,
        allowFileAccess: true,
        renderLoading,
        onMessage: (event) => void heard.push(event.nativeEvent.data),
        // Owned by the component: refused by the type, replaced at run time.
        ...({ source: { uri: 'https://evil.example/' }, originWhitelist: ['https://*'] } as object),
      },
    });
    try {
      const formWebView = webViews.at(-1)!;
      assert.equal(formWebView.props.mediaCapturePermissionGrantType, 'grant');
      assert.equal(formWebView.props.allowsInlineMediaPlayback, true);
      assert.equal(formWebView.props.allowFileAccess, true);
      assert.equal(formWebView.props.renderLoading, renderLoading);
      assert.equal(formWebView.props.source.uri.startsWith(formOrigin), true);
      assert.deepEqual(formWebView.props.originWhitelist, ['*']);
      (formWebView.props.onMessage as (event: unknown) => void)({ nativeEvent: { data: 'not the relay’s', url: '' } });
      assert.deepEqual(heard, ['not the relay’s']);
      assert.equal(rn.seen.rejected.at(-1), 'form message');
    } finally {
      await rn.unmount();
    }
  });

  for (const platform of ['android', 'ios'] as const) {
    it(`on ${platform} the form keeps to the safe areas and out of the keyboard’s way, with a loading state`, async () => {
      const { rn } = await openModal(pageUrl, { formStyle: { margin: 1 } }, platform);
      try {
        const modal = rn.modal();
        // Edge to edge on Android 15: the Modal draws under the bars, and the safe area keeps them clear.
        assert.equal(modal.props.statusBarTranslucent, true);
        const safeArea = modal.findByType('SafeAreaView' as never);
        assert.deepEqual([...safeArea.props.edges].sort(), ['bottom', 'left', 'right', 'top']);
        assert.deepEqual(safeArea.props.style.at(-1), { margin: 1 }, 'formStyle styles the safe-area view');
        const avoiding = safeArea.findByType('KeyboardAvoidingView' as never);
        assert.equal(avoiding.props.behavior, platform === 'ios' ? 'padding' : 'height');
        // The close control and the form's WebView are inside both.
        avoiding.findByProps({ accessibilityRole: 'button' });
        const formWebView = webViews.at(-1)!;
        assert.equal(formWebView.props.source.uri.startsWith(formOrigin), true);
        assert.equal(formWebView.props.startInLoadingState, true);
        assert.equal(avoiding.findAllByType(WebView as never).length, 1);
      } finally {
        await rn.unmount();
      }
    });
  }
});

describe('<HubEmbedView> day one: webViewProps and the ref', () => {
  it('webViewProps handlers are called after the component’s own, never replacing them; reload() loads the page again', async () => {
    const heard = { loadStart: 0, message: 0 };
    await withView(
      h,
      browser,
      {
        uri: pageUrl,
        props: {
          webViewProps: {
            onLoadStart: () => void heard.loadStart++,
            onMessage: () => void heard.message++,
          },
        },
      },
      async (rn) => {
        await rn.ready();
        assert.ok(heard.loadStart >= 1 && heard.message >= 1, JSON.stringify(heard));
        assert.deepEqual(rn.seen.rejected, [], 'the bridge still works');
        rn.ref.current!.reload();
        await rn.ready(2);
        assert.ok(heard.loadStart >= 2);
      },
    );
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
    await withView(h, browser, { uri: pageUrl, props: { formOrigins: [payOrigin.origin] } }, async (rn) => {
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
    });
  });
});

describe('<HubEmbedView> day one: tags at mount', () => {
  it('tags at mount are the first selection: one filtered list request, not the full list first', async () => {
    const log = (h.mock.hub as unknown as { requestLog: Array<{ path: string; time: number }> }).requestLog;
    const from = log.length;
    await withView(h, browser, { uri: pageUrl, props: { tags: ['HR'] } }, async (rn) => {
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
    });
  });
});

describe('<HubEmbedView> day one on iOS: the page opens forms itself', () => {
  it('the form site loads in the page’s own frame without extra props (iOS asks about sub-frames)', async () => {
    await withView(h, browser, { platform: 'ios', uri: pageUrl }, async (rn) => {
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
    });
  });
});
