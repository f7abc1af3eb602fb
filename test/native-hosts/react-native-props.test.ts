// Issue 44 for React Native, on the harness (real Chromium, the real WebView bundle, the simulator): the
// bridge never goes deaf. A prop changed after mount, a late getToken, a refresh before the hello, the same
// tags set again, a plain bundle by mistake, each load's own nonce and the marker only on the widget's origin.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, pageHtml, serverToken, startHarness, waitFor, widget, type Harness } from '../e2e/harness.js';
import { addWidgetPage, BackHandler, settle, withView, type MountedView } from './react-native/rn-harness.js';

const { NO_HELLO_MS } = await import('../../src/react-native/hub-embed-view.js');
/** What docs/react-native.md promises for a ref call the page never answers: the kernel's default timeout. */
const TIMEOUT_S = 10;

let h: Harness;
let browser: Browser;
let pageUrl: string;
let plainUrl: string;
let formOrigin: string;

before(async () => {
  h = await startHarness();
  browser = await launchBrowser();
  pageUrl = addWidgetPage(h);
  formOrigin = new URL(h.formUrl).origin;
  // The app's widget page with the plain bundle by mistake: no bridge in it, so it never says hello.
  plainUrl = h.addPage(
    '/rn-plain.html',
    pageHtml('<script src="/dist/hub-embed.iife.js"></script>', widget(h, { bridge: 'auto', 'token-endpoint': '' })),
  );
});

after(async () => {
  await browser?.close();
  await h?.close();
});

const cards = (page: Page) => page.locator('hub-embed [part~="card"]').count();
const card = (page: Page) => page.locator('hub-embed [part~="card"]').first();
const selected = (page: Page) =>
  page.evaluate(() => (document.querySelector('hub-embed') as unknown as { tags?: string[] } | null)?.tags?.join());
const markerNonce = (page: Page) =>
  page.evaluate(() => (window as unknown as { __HUB_EMBED_BRIDGE__?: { nonce: string } }).__HUB_EMBED_BRIDGE__?.nonce);
/** A chip of the page's tag filter that is not "all" and not selected now. */
const otherChip = (page: Page) =>
  page.locator('hub-embed hub-tag-filter [part~="chip"]:not([part~="chip-all"]):not([aria-pressed="true"])').first();

/** Posts a v1 message as the page's own script would (it holds this load's nonce). */
function postAsPage(rn: MountedView, message: Record<string, unknown>, nonce?: string) {
  return rn.page.evaluate(
    ({ message, nonce }) => {
      const marker = (window as unknown as { __HUB_EMBED_BRIDGE__: { nonce: string } }).__HUB_EMBED_BRIDGE__;
      (window as unknown as { ReactNativeWebView: { postMessage(s: string): void } }).ReactNativeWebView.postMessage(
        JSON.stringify({ ns: 'hub-embed', v: 1, sid: 'mine', nonce: nonce ?? marker.nonce, ...message }),
      );
    },
    { message, nonce },
  );
}

describe('<HubEmbedView> props that change after mount keep the bridge working', () => {
  it('allowedOrigins changed after mount: the page keeps its session, and a card opens the native form', async () => {
    await withView(h, browser, { uri: pageUrl, props: { allowedOrigins: [] } }, async (rn) => {
      await rn.ready();
      const nonce = await markerNonce(rn.page);
      // Remote config arrives: the form site may now open in the native Modal.
      await rn.rerender({ allowedOrigins: [formOrigin] });
      await card(rn.page).click();
      await waitFor(
        () => rn.modal().props.visible,
        (visible) => visible === true,
        'the native form Modal',
      );
      assert.equal(await markerNonce(rn.page), nonce, 'the page was not reloaded');
      assert.deepEqual(rn.seen.rejected, [], 'nothing the page sent was dropped');
      await rn.ref.current!.refresh();
    });
  });

  it('a getToken that comes after mount (a session restored later): the view reloads, and the cards come with its token', async () => {
    let tokens = 0;
    await withView(h, browser, { uri: pageUrl, props: { getToken: undefined } }, async (rn) => {
      await waitFor(
        () => rn.page.locator('hub-embed [part="error"]').count(),
        (n) => n > 0,
        'the page without a token source',
      );
      await rn.rerender({
        getToken: async () => {
          tokens++;
          return { access_token: await serverToken(h), expires_in: 600 };
        },
      });
      await waitFor(
        () => cards(rn.page),
        (n) => n > 0,
        'cards with the app’s token',
      );
      assert.ok(tokens >= 1, 'the page asked the app’s getToken');
      assert.equal(await rn.page.locator('hub-embed [part="error"]').count(), 0, 'no error left on screen');
      assert.deepEqual(
        rn.seen.rejected.filter((reason) => reason === 'nonce'),
        [],
      );
    });
  });
});

describe('<HubEmbedView> each load gets its own nonce, and only the widget page gets it', () => {
  it('reload(): the new page has a new nonce, and a message with the old one is dropped', async () => {
    await withView(h, browser, { uri: pageUrl }, async (rn) => {
      await rn.ready();
      const first = await markerNonce(rn.page);
      rn.ref.current!.reload();
      await rn.ready(2);
      const second = await markerNonce(rn.page);
      assert.ok(first && second && first !== second, `${first} then ${second}`);
      const rejected = rn.seen.rejected.length;
      await postAsPage(rn, { id: 'old', kind: 'req', method: 'bridge.hello', params: { v: [1] } }, first);
      await waitFor(
        () => rn.seen.rejected.slice(rejected),
        (reasons) => reasons.length === 1,
        'the old nonce dropped',
      );
      assert.deepEqual(rn.seen.rejected.slice(rejected), ['nonce']);
      // The page's own session still works.
      await rn.ref.current!.refresh();
    });
  });

  it('a page that never said hello leaves its nonce behind too: reload() gives the next load a new one', async () => {
    await withView(h, browser, { uri: plainUrl }, async (rn) => {
      const first = await waitFor(
        () => markerNonce(rn.page),
        (nonce) => !!nonce,
        'the first load’s marker',
      );
      // The page finished loading (the view heard it) before the reload.
      await rn.page.waitForLoadState('load');
      await settle(100);
      rn.ref.current!.reload();
      await waitFor(
        () => markerNonce(rn.page).catch(() => undefined),
        (nonce) => !!nonce && nonce !== first,
        'a new nonce in the next load',
      );
    });
  });

  it('another allowed origin loaded at the top never learns the nonce', async () => {
    await withView(h, browser, { uri: pageUrl, props: { allowedOrigins: [formOrigin] } }, async (rn) => {
      await rn.ready();
      await rn.page.evaluate((url) => {
        location.href = url;
      }, `${formOrigin}/`);
      await waitFor(
        () => rn.page.url(),
        (url) => url.startsWith(formOrigin),
        'the form site at the top',
      );
      await rn.page.waitForLoadState('domcontentloaded');
      assert.equal(await markerNonce(rn.page), undefined, 'no marker on the form site');
    });
  });

  it('a page-sent form.opened with no dialog behind it costs one back press at most', async () => {
    await withView(h, browser, { platform: 'android', uri: pageUrl }, async (rn) => {
      await rn.ready();
      await postAsPage(rn, { id: 'h', kind: 'req', method: 'bridge.hello', params: { v: [1], capabilities: [] } });
      await postAsPage(rn, {
        id: 'o',
        kind: 'evt',
        method: 'form.opened',
        params: { shortCode: 'x', handledBy: 'page' },
      });
      await waitFor(
        () => rn.seen.opened.length,
        (n) => n === 1,
        'form.opened',
      );
      assert.equal(BackHandler.press(), true, 'the first press asks the page to close its form');
      // The page answers that none was open: back belongs to the app again, before any new load.
      await waitFor(
        () => BackHandler.press(),
        (handled) => handled === false,
        'back to go on to the app',
      );
    });
  });
});

describe('<HubEmbedView> the ref before the page said hello', () => {
  it(`refresh() before a hello that never comes rejects E_TIMEOUT after ${TIMEOUT_S} s, not at once`, async () => {
    await withView(h, browser, { uri: plainUrl }, async (rn) => {
      const started = Date.now();
      const error = await rn.ref.current!.refresh().then(
        () => assert.fail('refresh() resolved without a page'),
        (error: { code?: string; message: string }) => error,
      );
      const waited = Date.now() - started;
      assert.equal(error.code, 'E_TIMEOUT', error.message);
      assert.ok(waited >= TIMEOUT_S * 1000 - 100, `rejected after ${waited} ms`);
    });
  });

  it('refresh() right after mount waits for the hello and resolves', async () => {
    // Android's late marker: the page says hello only after its load event.
    await withView(h, browser, { uri: pageUrl, lateInjection: true }, async (rn) => {
      assert.equal(rn.seen.ready.length, 0, 'called before the page was ready');
      await rn.ref.current!.refresh();
      await rn.ready();
    });
  });

  it('refresh() rejects when the reload fails, and resolves once it works again', async () => {
    await withView(h, browser, { uri: pageUrl }, async (rn) => {
      await rn.ready();
      // The service out of reach: the widget's tags and list fail, as on a phone that lost the network.
      const api = (url: URL) => url.href.startsWith(h.baseUrl);
      await rn.page.route(api, (route) => route.abort('internetdisconnected'));
      const error = await rn.ref.current!.refresh().then(
        () => assert.fail('refresh() resolved though the reload failed'),
        (e: unknown) => e as { name: string; code: string; message: string },
      );
      assert.equal(error.name, 'BridgeError');
      assert.equal(error.code, 'E_INTERNAL');
      assert.match(error.message, /refresh: the widget could not load \(network\)/);
      await rn.page.unroute(api);
      await rn.ref.current!.refresh();
    });
  });
});

describe('<HubEmbedView> tags is controlled: the prop is the selection, onTagsChanged tells the user’s', () => {
  it('an app that keeps tags: the user’s pick is undone to the prop, and the same tags set again still hold', async () => {
    await withView(h, browser, { uri: pageUrl, props: { tags: ['HR'] } }, async (rn) => {
      await rn.ready();
      await waitFor(
        () => selected(rn.page),
        (tags) => tags === 'HR',
        'HR selected',
      );
      await otherChip(rn.page).click();
      await waitFor(
        () => selected(rn.page),
        (tags) => tags === 'HR',
        'HR selected again',
      );
      await rn.rerender({ tags: ['HR'] });
      await settle(300);
      assert.equal(await selected(rn.page), 'HR');
      await assert.rejects(rn.ref.current!.setTags(['IT']), TypeError, 'a controlled view refuses setTags');
    });
  });

  it('an app that follows onTagsChanged keeps the user’s pick, and setting its earlier tags again applies them', async () => {
    const heard: string[][] = [];
    let follow = (_tags: string[]) => {};
    await withView(
      h,
      browser,
      {
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
        await waitFor(
          () => selected(rn.page),
          (tags) => tags === 'HR',
          'HR selected',
        );
        await otherChip(rn.page).click();
        await waitFor(
          () => heard.length,
          (n) => n === 1,
          'onTagsChanged',
        );
        const users = heard[0]!.join();
        assert.notEqual(users, 'HR');
        await settle(300);
        assert.equal(await selected(rn.page), users, 'the user’s pick stays');
        // The app's "Only HR" button again: the same value as at mount, a change from the user's.
        await rn.rerender({ tags: ['HR'] });
        await waitFor(
          () => selected(rn.page),
          (tags) => tags === 'HR',
          'HR selected by the app',
        );
      },
    );
  });
});

describe('<HubEmbedView> a widget page that never speaks', () => {
  it(`a plain bundle by mistake: after ${NO_HELLO_MS / 1000} s onWidgetError says what to check, and the page’s console says bridge="auto" needs the WebView build`, async () => {
    const consoleLines: string[] = [];
    await withView(h, browser, { uri: plainUrl }, async (rn) => {
      rn.page.on('console', (message) => consoleLines.push(message.text()));
      await waitFor(
        () => rn.seen.errors.length,
        (n) => n > 0,
        'onWidgetError',
        NO_HELLO_MS + 10_000,
      );
      assert.equal(rn.seen.errors.length, 1);
      assert.equal(rn.seen.errors[0]!.kind, 'no-bridge');
      assert.match(rn.seen.errors[0]!.message, /hub-embed-webview\.iife\.js/);
      assert.match(rn.seen.errors[0]!.message, /bridge="auto"/);
      assert.equal(rn.seen.ready.length, 0);
      // The console notice: printed as the widget connects, before the view was even told.
      await rn.page.reload();
      await waitFor(
        () => consoleLines,
        (lines) => lines.some((line) => line.includes('bridge="auto" needs the WebView build')),
        'the console notice',
      );
    });
  });

  it('a page that speaks is not reported', async () => {
    await withView(h, browser, { uri: pageUrl }, async (rn) => {
      await rn.ready();
      await settle(NO_HELLO_MS + 500);
      assert.deepEqual(rn.seen.errors, []);
    });
  });
});
