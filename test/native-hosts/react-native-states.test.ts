// Issue 61 item 2 for React Native, on the harness (real Chromium, the real WebView bundle, the simulator):
// the traps that were silent. A controlled `tags` without `onTagsChanged` warns once in development builds,
// and a page's form.opened with no dialog behind it is believed at most once per user gesture, so Android
// back is never swallowed by a page that sends it in a loop.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { launchBrowser, pageHtml, serverToken, startHarness, waitFor, widget, type Harness } from '../e2e/harness.js';
import { addWidgetPage, BackHandler, withView, type MountedView } from './react-native/rn-harness.js';

const { TAGS_WITHOUT_ON_TAGS_CHANGED } = await import('../../src/react-native/hub-embed-view.js');
const { NO_BRIDGE_BUILD, NO_BRIDGE_MS } = await import('../../src/core/bridge-wait.js');
const { NO_HOST_TOKENS } = await import('../../src/webview/host-link.js');

let h: Harness;
let browser: Browser;
let pageUrl: string;
/** A widget page whose WebView bundle has no form half beside it: the bundle is inline, so it looks beside the page. */
let noFormHalfUrl: string;
/** The app's widget page with the plain bundle by mistake: no bridge in it, so it never says hello. */
let plainUrl: string;

before(async () => {
  h = await startHarness();
  browser = await launchBrowser();
  pageUrl = addWidgetPage(h);
  const bundle = readFileSync(new URL('../../dist/hub-embed-webview.iife.js', import.meta.url), 'utf8');
  noFormHalfUrl = h.addPage(
    '/no-form-half/rn.html',
    pageHtml(`<script>${bundle}</script>`, widget(h, { bridge: 'auto', 'token-endpoint': '' })),
  );
  plainUrl = h.addPage(
    '/rn-plain-states.html',
    pageHtml('<script src="/dist/hub-embed.iife.js"></script>', widget(h, { bridge: 'auto', 'token-endpoint': '' })),
  );
});

/**
 * Records, in the page, every state the widget shows from now on: `loading` (its grid waiting), the text of
 * its error, or `cards`. Read with `shown()`.
 */
async function watchStates(rn: MountedView) {
  await rn.page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __states: string[] }).__states = seen;
    const look = () => {
      const root = document.querySelector('hub-embed')?.shadowRoot;
      const error = root?.querySelector('[part="error"]')?.textContent?.trim();
      const grid = root?.querySelector('hub-table-grid') as (Element & { loading?: boolean }) | null | undefined;
      const state =
        error ?? (grid?.shadowRoot?.querySelector('[part~="card"]') ? 'cards' : grid?.loading ? 'loading' : 'none');
      if (seen.at(-1) !== state) seen.push(state);
    };
    look();
    setInterval(look, 20);
  });
  return () => rn.page.evaluate(() => (window as unknown as { __states: string[] }).__states);
}

after(async () => {
  await browser?.close();
  await h?.close();
});

/** Posts a v1 message as the page's own script would (it holds this load's nonce). */
function postAsPage(rn: MountedView, message: Record<string, unknown>) {
  return rn.page.evaluate((message) => {
    const marker = (window as unknown as { __HUB_EMBED_BRIDGE__: { nonce: string } }).__HUB_EMBED_BRIDGE__;
    (window as unknown as { ReactNativeWebView: { postMessage(s: string): void } }).ReactNativeWebView.postMessage(
      JSON.stringify({ ns: 'hub-embed', v: 1, sid: 'loop', nonce: marker.nonce, ...message }),
    );
  }, message);
}

/** The warnings given while `body` runs. */
async function warningsDuring(body: () => Promise<void>): Promise<string[]> {
  const warnings: string[] = [];
  const warn = console.warn;
  console.warn = (...args: unknown[]) => void warnings.push(args.map(String).join(' '));
  try {
    await body();
  } finally {
    console.warn = warn;
  }
  return warnings;
}

describe('<HubEmbedView> states that tell the truth (issue 61)', () => {
  it('a page’s form.opened with no dialog behind it is believed at most once per user gesture: Android back is never swallowed by a loop', async () => {
    await withView(h, browser, { platform: 'android', uri: pageUrl }, async (rn) => {
      await rn.ready();
      await postAsPage(rn, { id: 'h', kind: 'req', method: 'bridge.hello', params: { v: [1], capabilities: [] } });
      let sent = 0;
      const opened = async () => {
        sent += 1;
        await postAsPage(rn, {
          id: `o${sent}`,
          kind: 'evt',
          method: 'form.opened',
          params: { shortCode: 'x', handledBy: 'page' },
        });
        await waitFor(
          () => rn.seen.opened.length,
          (n) => n === sent,
          'form.opened',
        );
      };
      await opened();
      assert.equal(BackHandler.press(), true, 'the first press asks the page to close its form');
      // The page answers that none was open: back belongs to the app again.
      await waitFor(
        () => BackHandler.press(),
        (handled) => handled === false,
        'back to go on to the app',
      );
      // The page sends form.opened again after every press, as a loop would: 5 of 5 presses go to the app.
      const presses: boolean[] = [];
      for (let press = 0; press < 5; press++) {
        await opened();
        presses.push(BackHandler.press());
      }
      assert.deepEqual(presses, [false, false, false, false, false]);
      // The user touches the page (a tap on a card would open a form): its next form.opened is believed.
      const view = rn.renderer.root.findAll((node) => typeof node.props.onTouchStart === 'function')[0]!;
      view.props.onTouchStart();
      await opened();
      assert.equal(BackHandler.press(), true, 'after a gesture, back asks the page to close its form again');
    });
  });

  it('a missing form half gives an error that names the file (hub-embed-webview.form.js), as the app hears it', async () => {
    await withView(h, browser, { uri: noFormHalfUrl }, async (rn) => {
      await rn.ready();
      // The half is asked for after ready (and on a pointer over a card): its 404 is the setup error, in the
      // cards' place, without a click.
      await waitFor(
        () => rn.seen.errors.length,
        (n) => n > 0,
        'onWidgetError',
      );
      const [error] = rn.seen.errors;
      // The file's server answered (404): the app's setup, which a retry cannot mend.
      assert.equal(error!.kind, 'config');
      assert.equal(
        error!.message,
        `Form code not loaded: ${new URL('/no-form-half/hub-embed-webview.form.js', noFormHalfUrl).href}`,
      );
    });
  });

  it('a bridge page shows its loading state while its app’s getToken is late, never “Set token-endpoint”, and loads when it comes', async () => {
    await withView(h, browser, { uri: pageUrl, props: { getToken: undefined } }, async (rn) => {
      const shown = await watchStates(rn);
      await waitFor(shown, (states) => states.includes('loading'), 'the loading state');
      // The app's getToken comes 2.5 s later (a session restored late): the view loads the page again.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      const before = await shown();
      await rn.rerender({ getToken: async () => ({ access_token: await serverToken(h), expires_in: 600 }) });
      await rn.ready();
      assert.deepEqual(
        before.filter((state) => state !== 'loading' && state !== 'none'),
        [],
        `shown before getToken came: ${before.join(' > ')}`,
      );
      assert.deepEqual(rn.seen.errors, []);
    });
  });

  it('after the no-bridge timeout a page whose app gives no getToken says what to check, in the words the app gets', async () => {
    await withView(h, browser, { uri: pageUrl, props: { getToken: undefined } }, async (rn) => {
      const shown = await watchStates(rn);
      await waitFor(
        () => rn.seen.errors.length,
        (n) => n > 0,
        'onWidgetError',
        NO_BRIDGE_MS + 10_000,
      );
      assert.deepEqual(rn.seen.errors, [{ kind: 'config', message: NO_HOST_TOKENS }]);
      await waitFor(shown, (states) => states.at(-1) === `Setup error: ${NO_HOST_TOKENS}`, 'the page’s message');
      const states = await shown();
      assert.ok(states.indexOf('loading') < states.indexOf(`Setup error: ${NO_HOST_TOKENS}`), states.join(' > '));
      assert.ok(!states.some((state) => state.includes('Set token-endpoint')), states.join(' > '));
    });
  });

  it('a plain bundle by mistake shows its loading state, then after the no-bridge timeout the words of the app’s no-bridge error', async () => {
    await withView(h, browser, { uri: plainUrl }, async (rn) => {
      const shown = await watchStates(rn);
      await waitFor(
        () => rn.seen.errors.length,
        (n) => n > 0,
        'onWidgetError',
        NO_BRIDGE_MS + 10_000,
      );
      assert.equal(rn.seen.errors[0]!.kind, 'no-bridge');
      assert.ok(rn.seen.errors[0]!.message.includes(`"${NO_BRIDGE_BUILD}"`), rn.seen.errors[0]!.message);
      await waitFor(shown, (states) => states.at(-1) === `Setup error: ${NO_BRIDGE_BUILD}`, 'the page’s message');
      const states = await shown();
      assert.ok(!states.some((state) => state.includes('Set token-endpoint')), states.join(' > '));
    });
  });

  // Before the warning test: the warning is given once per app run (this process).
  it('tags with onTagsChanged, or no tags at all, never warn', async () => {
    const global = globalThis as { __DEV__?: boolean };
    global.__DEV__ = true;
    try {
      const warnings = await warningsDuring(async () => {
        await withView(
          h,
          browser,
          { uri: pageUrl, props: { tags: ['HR'], onTagsChanged: () => {} } },
          async (rn) => void (await rn.ready()),
        );
        await withView(h, browser, { uri: pageUrl }, async (rn) => void (await rn.ready()));
      });
      assert.deepEqual(
        warnings.filter((w) => w.includes('onTagsChanged')),
        [],
      );
    } finally {
      delete global.__DEV__;
    }
  });
  it('a controlled tags without onTagsChanged warns once in development builds, never in release', async () => {
    const global = globalThis as { __DEV__?: boolean };
    try {
      global.__DEV__ = false;
      const release = await warningsDuring(() =>
        withView(h, browser, { uri: pageUrl, props: { tags: ['HR'] } }, async (rn) => void (await rn.ready())),
      );
      assert.deepEqual(
        release.filter((w) => w.includes('onTagsChanged')),
        [],
      );
      global.__DEV__ = true;
      const development = await warningsDuring(async () => {
        await withView(h, browser, { uri: pageUrl, props: { tags: ['HR'] } }, async (rn) => {
          await rn.ready();
          await rn.rerender({ tags: ['IT'] });
        });
        // A second view in the same app run: React's own warnings are given once, and so is this one.
        await withView(h, browser, { uri: pageUrl, props: { tags: ['HR'] } }, async (rn) => void (await rn.ready()));
      });
      assert.deepEqual(
        development.filter((w) => w.includes('onTagsChanged')),
        [TAGS_WITHOUT_ON_TAGS_CHANGED],
      );
      assert.match(TAGS_WITHOUT_ON_TAGS_CHANGED, /each chip the user taps is undone/);
    } finally {
      delete global.__DEV__;
    }
  });
});
