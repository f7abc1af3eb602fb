// Issue 82 item 5: <HubEmbedView> on the web. The web entry (src/react-native/web.ts) with react-native as
// react-native-web, rendered by React DOM in real Chromium against the simulator: the real <hub-embed>, the
// native view's props, and its events with the same callbacks and params as on iOS and Android. Named apart
// from react-native*.test.ts, which the hosts lane runs again as each react-native-webview release behaves:
// the web path has no WebView.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { build, type Rolldown } from 'vite';
import { define } from '../../vite.config.ts';
import { launchBrowser, pageHtml, serverToken, startHarness, waitFor, type Harness } from '../e2e/harness.js';
import type { HubEmbedView as NativeView } from '../../src/react-native/hub-embed-view.js';
import type { HubEmbedView as WebView } from '../../src/react-native/hub-embed-view.web.js';
import type { Heard, WebAppSettings } from './react-native/web-app.js';
import { NO_WEB_SETTINGS } from '../../src/react-native/view-rules.js';

// The type test: each component is the other's type, so the same props and ref compile on all three platforms.
export const sameOnTheWeb: typeof NativeView = null as unknown as typeof WebView;
export const sameNatively: typeof WebView = null as unknown as typeof NativeView;

const APP = fileURLToPath(new URL('./react-native/web-app.ts', import.meta.url));

let h: Harness;
let browser: Browser;
let appJs: string;
let pageUrl: string;

before(async () => {
  h = await startHarness();
  browser = await launchBrowser();
  // One file, as an app's web bundle holds the package: react-native resolves to react-native-web.
  const output = (await build({
    configFile: false,
    logLevel: 'silent',
    define: { ...define, 'process.env.NODE_ENV': '"production"' },
    resolve: { alias: { 'react-native': 'react-native-web' } },
    build: {
      write: false,
      minify: false,
      rolldownOptions: { input: APP, output: { format: 'es', codeSplitting: false } },
    },
  })) as Rolldown.RolldownOutput;
  appJs = output.output.find((chunk): chunk is Rolldown.OutputChunk => chunk.type === 'chunk')!.code;
  pageUrl = h.addPage(
    '/rnw.html',
    pageHtml('', '<div id="root"></div><script type="module" src="/rnw-app.js"></script>'),
  );
});

after(async () => {
  await browser?.close();
  await h?.close();
});

interface App {
  page: Page;
  seen(): Promise<Heard[]>;
  /** The params each call of the callback `prop` got. */
  heard(prop: string): Promise<unknown[]>;
  tokenReasons: string[];
}

async function openApp(settings: WebAppSettings): Promise<App> {
  const page = await browser.newPage();
  const tokenReasons: string[] = [];
  const token = await serverToken(h);
  await page.exposeFunction('rnwToken', ({ reason }: { reason: string }) => {
    tokenReasons.push(reason);
    return { access_token: token, expires_in: 600 };
  });
  await page.addInitScript((app) => (window.rnwApp = app), settings);
  await page.route(`${h.origin}/rnw-app.js`, (route) => route.fulfill({ contentType: 'text/javascript', body: appJs }));
  await page.goto(pageUrl);
  const seen = () => page.evaluate(() => window.rnwSeen);
  return {
    page,
    seen,
    heard: async (prop) => (await seen()).filter((one) => one.prop === prop).map((one) => one.params),
    tokenReasons,
  };
}

const web = () => ({ baseUrl: h.baseUrl, formUrl: h.formUrl });
const cards = (page: Page) => page.locator('hub-embed [part~="card"]');
const otherChip = (page: Page) =>
  page.locator('hub-embed hub-tag-filter [part~="chip"]:not([part~="chip-all"]):not([aria-pressed="true"])').first();
const elementTags = (page: Page) =>
  page.evaluate(() => (document.querySelector('hub-embed') as unknown as { tags: string[] }).tags);

describe('<HubEmbedView> on the web (react-native-web)', () => {
  it('renders the real <hub-embed> in the page, no WebView: the cards come with the token getToken gave', async () => {
    const app = await openApp({ web: web() });
    try {
      await waitFor(
        () => cards(app.page).count(),
        (count) => count > 0,
        'cards',
      );
      const element = await app.page.evaluate(() => {
        const hub = document.querySelector('hub-embed');
        return { defined: hub?.constructor !== HTMLElement, frames: document.querySelectorAll('iframe').length };
      });
      assert.deepEqual(element, { defined: true, frames: 0 });
      assert.deepEqual(app.tokenReasons, ['initial']);
    } finally {
      await app.page.close();
    }
  });

  it('maps every element event to the native callback of the same name, with the same params', async () => {
    const app = await openApp({ web: web(), follows: true });
    try {
      await waitFor(
        () => app.heard('onReady'),
        (ready) => ready.length === 1,
        'onReady',
      );
      assert.deepEqual(await app.heard('onReady'), [
        { version: define.__HUB_EMBED_VERSION__.slice(1, -1), locale: 'en' },
      ]);

      await otherChip(app.page).click();
      await waitFor(
        () => app.heard('onTagsChanged'),
        (changed) => changed.length === 1,
        'onTagsChanged',
      );
      const [{ tags }] = (await app.heard('onTagsChanged')) as [{ tags: string[] }];
      assert.ok(tags.length > 0);
      assert.deepEqual(await elementTags(app.page), tags, 'the app followed the user: the element keeps the pick');

      await cards(app.page).first().click();
      await waitFor(
        () => app.heard('onFormOpened'),
        (opened) => opened.length === 1,
        'onFormOpened',
      );
      const [selected] = (await app.heard('onTableSelected')) as [{ shortCode: string; name: string }];
      assert.deepEqual(Object.keys(selected).sort(), ['name', 'shortCode']);
      assert.deepEqual(await app.heard('onFormOpened'), [{ shortCode: selected.shortCode, handledBy: 'page' }]);
      await waitFor(
        () => app.page.locator('hub-embed hub-form-frame iframe').count(),
        (n) => n === 1,
        'the form',
      );

      assert.equal(await app.page.evaluate(() => window.rnwRef.current!.closeForm()), true);
      await waitFor(
        () => app.heard('onFormClosed'),
        (closed) => closed.length === 1,
        'onFormClosed',
      );
      assert.deepEqual(await app.heard('onFormClosed'), [{ shortCode: selected.shortCode, reason: 'page' }]);

      // The simulator's form page posts its load report to its parent: the app hears it as from a WebView's form.
      const messages = (await app.heard('onFormMessage')) as { shortCode: string; data: unknown }[];
      assert.ok(messages.length > 0, 'onFormMessage');
      for (const message of messages) assert.deepEqual(Object.keys(message).sort(), ['data', 'shortCode']);
      assert.ok(messages.every((message) => message.shortCode === selected.shortCode));

      // onEvent heard each of them too, in order, as {name, params}.
      const all = (await app.heard('onEvent')) as { name: string; params: unknown }[];
      assert.deepEqual(
        all.map((event) => event.name).filter((name, i, names) => name !== 'form.message' || names[i - 1] !== name),
        ['widget.ready', 'tags.changed', 'table.selected', 'form.opened', 'form.message', 'form.closed'],
      );
      assert.deepEqual(
        all.filter((event) => event.name === 'form.message').map((event) => event.params),
        messages,
      );
    } finally {
      await app.page.close();
    }
  });

  it("onReady's locale is the language the element shows: the page's lang when the view sets none", async () => {
    const app = await openApp({ web: web(), lang: 'ja' });
    try {
      await waitFor(
        () => app.heard('onReady'),
        (ready) => ready.length === 1,
        'onReady',
      );
      assert.deepEqual(await app.heard('onReady'), [
        { version: define.__HUB_EMBED_VERSION__.slice(1, -1), locale: 'ja' },
      ]);
    } finally {
      await app.page.close();
    }
  });

  it('holds a controlled tags prop: a pick the app did not take is undone, and setTags rejects', async () => {
    const app = await openApp({ web: web(), tags: [] });
    try {
      await waitFor(
        () => cards(app.page).count(),
        (count) => count > 0,
        'cards',
      );
      await otherChip(app.page).click();
      await waitFor(
        () => app.heard('onTagsChanged'),
        (changed) => changed.length === 1,
        'onTagsChanged',
      );
      await waitFor(
        () => elementTags(app.page),
        (tags) => tags.length === 0,
        'the prop selected again',
      );
      const refused = await app.page.evaluate(() =>
        window.rnwRef.current!.setTags(['HR']).then(
          () => 'resolved',
          (error: Error) => `${error.name}: ${error.message}`,
        ),
      );
      assert.match(refused, /^TypeError: setTags: this <HubEmbedView> has a tags prop/);
      assert.deepEqual(await elementTags(app.page), [], 'setTags changed nothing');
    } finally {
      await app.page.close();
    }
  });

  it('openForm decides first: a form the app opens leaves the page without a dialog, handledBy host', async () => {
    const app = await openApp({ web: web(), openForm: true });
    try {
      await waitFor(
        () => cards(app.page).count(),
        (count) => count > 0,
        'cards',
      );
      await cards(app.page).first().click();
      await waitFor(
        () => app.heard('onFormOpened'),
        (opened) => opened.length === 1,
        'onFormOpened',
      );
      const [selected] = (await app.heard('onTableSelected')) as [{ shortCode: string }];
      assert.deepEqual(await app.heard('onFormOpened'), [{ shortCode: selected.shortCode, handledBy: 'host' }]);
      assert.equal(await app.page.locator('hub-embed hub-form-frame iframe').count(), 0);
    } finally {
      await app.page.close();
    }
  });

  it('without web settings, onWidgetError says what to pass and no element renders', async () => {
    const app = await openApp({});
    try {
      await waitFor(
        () => app.heard('onWidgetError'),
        (errors) => errors.length === 1,
        'onWidgetError',
      );
      assert.deepEqual(await app.heard('onWidgetError'), [{ kind: 'config', message: NO_WEB_SETTINGS }]);
      assert.equal(await app.page.locator('hub-embed').count(), 0);
      assert.deepEqual(app.tokenReasons, []);
    } finally {
      await app.page.close();
    }
  });
});
