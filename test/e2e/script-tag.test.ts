// The drop-in <script> tag: declarative use with no page JavaScript, elements that exist before the
// script, the script loaded twice, and an element version already defined by someone else.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import {
  BUNDLE,
  RESIZE_LOOP_NOTICE,
  SCRIPT,
  cardNames,
  events,
  pageHtml,
  simulatorList,
  useHarness,
  visibleErrors,
  waitFor,
  waitForReady,
  widget,
  type Watch,
} from './harness.js';
import { inEachEngine } from './engines/index.js';
import { withoutFirstView } from './server-first-views.js';

// Every page is checked after its test for a leaked API key; uncaught errors are checked by the tests
// themselves (assertWorking and the other-version test).
const e2e = useHarness({ checkPageErrors: false });
let expected: string[];

const open = (path: string, head: string, body: string): Promise<Watch> => e2e.openPage(path, pageHtml(head, body));

/**
 * A clean page: widget rendered with the simulator's tables (the first `limit` of them, for a widget with
 * that limit), nothing on the console, nothing thrown.
 */
async function assertWorking(w: Watch, widgets = 1, limit?: number): Promise<void> {
  const names = expected.slice(0, limit);
  await waitForReady(w.page);
  await waitFor(
    () => cardNames(w.page),
    (shown) => shown.length === names.length * widgets,
    'the cards',
  );
  assert.deepEqual(await cardNames(w.page), Array.from({ length: widgets }, () => names).flat());
  assert.deepEqual(await visibleErrors(w.page), []);
  assert.deepEqual(w.pageErrors, [], 'nothing thrown');
  assert.deepEqual(w.consoleErrors, [], 'no console errors');
  // The engine's notice that a ResizeObserver's notifications went to the next frame (WebKit, with two
  // widgets measuring in one frame) is no warning of ours: no script failed (see RESIZE_LOOP_NOTICE).
  const warnings = w.consoleWarnings.filter((text) => text !== RESIZE_LOOP_NOTICE);
  assert.deepEqual(warnings, [], 'no console warnings (same version loaded twice is silent)');
}

// <hub-form-frame> comes with the form half, loaded on intent (tested below).
const TAGS = ['hub-embed', 'hub-tag-filter', 'hub-table-grid', 'hub-table-card'];

/** How many times the page fetched the form half's script. */
const formChunkFetches = (w: Watch) =>
  w.page.evaluate(
    () => performance.getEntriesByType('resource').filter((entry) => entry.name.endsWith('/hub-embed.form.js')).length,
  );

/**
 * Keeps the load of the form half that hub-ready starts (a background task) from running, so that only
 * intent loads it: a scheduler whose tasks never run, in every engine (WebKit has none of its own).
 */
const NO_READY_LOAD =
  "<script>Object.defineProperty(window, 'scheduler', { value: { postTask: () => new Promise(() => {}) }, configurable: true });</script>";

/**
 * A list that fits the widget's first screen (FITS tables): a longer one loads the form half at once, for the
 * cards past that screen (the drawing schedule comes with it), which the tests of when the half loads must
 * not see.
 */
const FITS = 3;
const FITS_FIRST_SCREEN = { limit: String(FITS) };

/** The first card's control, as the user sees it. */
const firstCard = (w: Watch) => w.page.locator('hub-embed [part="card"]').first();

async function formOpens(w: Watch): Promise<void> {
  await waitFor(
    () => events(w.page, 'hub-form-open'),
    (list) => list.length > 0,
    'hub-form-open',
  );
  await waitFor(
    () => w.page.locator('hub-embed hub-form-frame iframe').count(),
    (count) => count === 1,
    'the form iframe',
  );
}

inEachEngine(() => {
  describe('<script src=hub-embed.iife.js>', () => {
    // In the suite, not at the top: top-level before hooks all start at once, before the harness is up.
    before(async () => {
      expected = (await simulatorList(e2e.harness)).map((table) => table.name);
    });

    it('declarative use: an element already in the page before the script loads upgrades and works', async () => {
      // Script last, after the element: no page JavaScript beyond the bundle itself.
      const w = await open('/declarative.html', '', widget(e2e.harness) + SCRIPT);
      await assertWorking(w);
      const defined = await w.page.evaluate((tags) => tags.map((tag) => customElements.get(tag) !== undefined), TAGS);
      assert.deepEqual(
        defined,
        TAGS.map(() => true),
        'every element is registered',
      );
    });

    it('the HubEmbed global exposes the version, the registered element classes, the core functions and loadFormOpener(), which brings <hub-form-frame>', async () => {
      const w = await open('/global.html', SCRIPT, '');
      const g = await w.page.evaluate(async () => {
        const api = (window as any).HubEmbed ?? {};
        const before = customElements.get('hub-form-frame');
        const formHalf = await api.loadFormOpener();
        return {
          version: api.version,
          classes: ['HubEmbed', 'HubTagFilter', 'HubTableGrid', 'HubTableCard'].map((name) => typeof api[name]),
          same: customElements.get('hub-embed') === api.HubEmbed,
          core: ['tokenFromEndpoint', 'WebClient', 'TokenSource', 'HubError', 'loadFormOpener'].filter(
            (name) => typeof api[name] !== 'function',
          ),
          frameBefore: before === undefined,
          frameAfter: customElements.get('hub-form-frame') === formHalf.HubFormFrame,
        };
      });
      assert.deepEqual(g.classes, ['function', 'function', 'function', 'function'], 'element classes on HubEmbed');
      assert.ok(g.same, 'HubEmbed.HubEmbed is the registered <hub-embed> class');
      assert.equal(
        g.version,
        JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version,
        'HubEmbed.version is the package version',
      );
      assert.deepEqual(g.core, [], 'core functions missing from HubEmbed');
      assert.ok(g.frameBefore, '<hub-form-frame> is not defined before the form half loads');
      assert.ok(g.frameAfter, 'loadFormOpener() defines <hub-form-frame>');
    });

    it('an element added by the page after the script loads works too', async () => {
      const w = await open('/late-element.html', SCRIPT, '');
      await w.page.evaluate((markup) => {
        const template = document.createElement('template');
        // Parsing a constant test string through a template: the page under test has no Trusted Types.
        template.innerHTML = markup;
        document.body.append(template.content);
      }, widget(e2e.harness));
      await assertWorking(w);
    });

    it("the bundle's widget hears the browser's online event while connected only: a load that failed for want of a network loads again, and a removed widget asks for nothing", async () => {
      // The bundle's Lit has no reactive controllers (build/lean-lit.ts): the element itself starts and stops
      // the loader's listening. The network fails while the page's switch says offline, as a lost network
      // fails a fetch, and navigator.onLine says so, as a browser that lost its network does (a failure while
      // online is asked again, to tell a wrong address from the network); the simulator answers otherwise.
      const offline = `<script>
        window.__offline = true;
        Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => !window.__offline });
        window.__fetches = 0;
        const fetchOnline = window.fetch;
        window.fetch = (...args) => {
          window.__fetches++;
          return window.__offline ? Promise.reject(new TypeError('Failed to fetch')) : fetchOnline(...args);
        };
      </script>`;
      const w = await open('/online.html', offline + SCRIPT, widget(e2e.harness));
      const errorShown = () =>
        waitFor(
          () => visibleErrors(w.page),
          (shown) => shown.length === 1,
          'the network error',
        );
      await errorShown();
      await w.page.evaluate(() => {
        (window as any).__offline = false;
        dispatchEvent(new Event('online'));
      });
      await waitForReady(w.page);
      await waitFor(
        () => cardNames(w.page),
        (shown) => shown.length === expected.length,
        'the cards',
      );
      assert.deepEqual(await visibleErrors(w.page), []);
      await w.page.evaluate(() => {
        (window as any).__offline = true;
        void (document.querySelector('hub-embed') as any).refresh();
      });
      await errorShown();
      const asked = await w.page.evaluate(async () => {
        const element = document.querySelector('hub-embed')!;
        element.remove();
        (window as any).__offline = false;
        const before = (window as any).__fetches as number;
        dispatchEvent(new Event('online'));
        await new Promise((resolve) => setTimeout(resolve, 50));
        return (window as any).__fetches - before;
      });
      assert.equal(asked, 0, 'a removed widget does not load on the online event');
    });

    it('a page that loads the script twice raises no error and defines nothing twice', async () => {
      const w = await open('/twice.html', SCRIPT + SCRIPT, widget(e2e.harness));
      await assertWorking(w);
      const versions = await w.page.evaluate(
        (tags) => tags.map((tag) => (customElements.get(tag) as any)?.version),
        TAGS,
      );
      assert.ok(
        versions.every((v) => typeof v === 'string' && v === versions[0]),
        'one registered class per tag, all of this version',
      );
      assert.equal(await w.page.locator('hub-embed').count(), 1);
    });

    it('a page with the script before and after the element raises no error and renders once per element', async () => {
      const w = await open('/before-after.html', SCRIPT, `${widget(e2e.harness)}${SCRIPT}${widget(e2e.harness)}`);
      await waitFor(
        async () =>
          await w.page.evaluate(
            () => ((window as any).__e2e.events as { type: string }[]).filter((e) => e.type === 'hub-ready').length,
          ),
        (n) => n === 2,
        'two hub-ready events',
      );
      await assertWorking(w, 2);
    });

    it('another version already defined is reported once on the console and kept', async () => {
      // A stand-in for an older copy of the widget that registered the tags first.
      const other = `<script src="/e2e/other-version.js"></script>`;
      e2e.harness.addPage(
        '/e2e/other-version.js',
        `(function () {
      ${JSON.stringify(TAGS)}.forEach(function (tag) {
        var C = class extends HTMLElement {};
        C.version = '0.0.0-other';
        customElements.define(tag, C);
      });
    })();`,
      );
      const w = await open('/other-version.html', other + SCRIPT + SCRIPT, '');
      await waitFor(
        () => w.page.evaluate(() => typeof (window as any).HubEmbed),
        (type) => type === 'object',
        'the bundle to run',
      );
      assert.deepEqual(w.pageErrors, [], 'nothing thrown');
      const warnings = w.consoleWarnings.filter((text) => text.includes('already defined'));
      // The second copy of the same version skips itself entirely (the build's guard), so one warning in all.
      assert.equal(warnings.length, 1, 'one warning for the page, not one per element or per copy');
      assert.match(warnings[0]!, /0\.0\.0-other/);
      assert.equal(
        await w.page.evaluate(() => (customElements.get('hub-embed') as any).version),
        '0.0.0-other',
        'the first definition stays',
      );
    });

    it('the bundle is one classic script with no key header, no exchange path and no eval', () => {
      const source = readFileSync(BUNDLE, 'utf8');
      // assert.ok, not doesNotMatch: a failure must not print 40 KB of minified code.
      assert.ok(!/^\s*(import|export)\s/m.test(source), 'no ES module syntax in a classic script');
      assert.ok(
        !/X-API-Key|apikeys\/token/i.test(source),
        'the browser bundle knows neither the key header nor the exchange path',
      );
      // Lit parses its own templates through a Trusted Types policy; nothing may evaluate strings as code.
      assert.ok(!/\beval\(|new Function\(/.test(source), 'no eval or new Function');
      assert.ok(source.startsWith('var HubEmbed='), 'a classic script that declares the HubEmbed global');
    });

    it('both bundles and their later halves are pure ASCII, so a page in another charset (GBK, Latin-1) still shows the Chinese texts', async () => {
      const files = [
        'hub-embed.iife.js',
        'hub-embed-webview.iife.js',
        'hub-embed.form.js',
        'hub-embed-webview.form.js',
      ];
      for (const file of files.map((name) => BUNDLE.replace('hub-embed.iife.js', name))) {
        const bytes = readFileSync(file);
        assert.equal(
          bytes.findIndex((byte) => byte > 0x7f),
          -1,
          `${file}: a byte above 0x7f`,
        );
        // The first files hold English alone; the zh-CN table is in the later halves, as escapes: 全部 ("All").
        const escaped = bytes.toString('latin1').includes('\\u5168\\u90e8');
        assert.equal(escaped, file.endsWith('.form.js'), `${file}: the escaped zh-CN texts only in a later half`);
      }
      // And the escapes are the same text to the browser.
      const w = await open('/zh.html', '', widget(e2e.harness, { locale: 'zh-CN' }) + SCRIPT);
      await waitForReady(w.page);
      assert.equal(await w.page.locator('hub-embed hub-tag-filter [part~=chip-all]').textContent(), '全部');
    });
  });

  /** A React Native host object that records what the page posts and never answers. */
  const SILENT_RN_HOST =
    '<script>window.__posted = []; window.ReactNativeWebView = { postMessage: (m) => window.__posted.push(m) };</script>';
  const posted = (w: Watch) =>
    w.page.evaluate(() => ((window as any).__posted as string[]).map((m) => JSON.parse(m).method as string));
  const bridgeNotices = (w: Watch) => w.consoleWarnings.filter((text) => text.includes('needs the WebView build'));

  describe('the form half: a script of its own, with its integrity, loaded at hub-ready or on intent before (issues 25, 37)', () => {
    const OVER_A_VIEW = withoutFirstView(
      'over a view the form half loads at once, before hub-ready (test/components/first-view-takeover.test.ts)',
    );
    it(
      'before the load hub-ready starts, with a list that fits its first screen, nothing fetches it; a pointer over a card does, and the click then opens the form',
      { skip: OVER_A_VIEW },
      async () => {
        const w = await open('/intent.html', NO_READY_LOAD + SCRIPT, widget(e2e.harness, FITS_FIRST_SCREEN));
        await assertWorking(w, 1, FITS);
        assert.equal(await formChunkFetches(w), 0, 'no fetch of the form half before intent');
        assert.equal(await w.page.evaluate(() => customElements.get('hub-form-frame') === undefined), true);
        await w.page.evaluate(() => {
          const card = document
            .querySelector('hub-embed')!
            .shadowRoot!.querySelector('hub-table-grid')!
            .shadowRoot!.querySelector('[part~="card"]')!;
          card.dispatchEvent(new Event('pointerover', { bubbles: true, composed: true }));
        });
        await waitFor(
          () => w.page.evaluate(() => customElements.get('hub-form-frame') !== undefined),
          (defined) => defined,
          '<hub-form-frame> defined by the form half, on intent alone',
        );
        assert.equal(await formChunkFetches(w), 1);
        await firstCard(w).click();
        await formOpens(w);
        assert.equal(await formChunkFetches(w), 1, 'fetched once');
        assert.deepEqual(w.consoleErrors, []);
        assert.deepEqual(w.pageErrors, []);
      },
    );

    it('a cold click, before the form half is in, opens the form all the same', { skip: OVER_A_VIEW }, async () => {
      const w = await open('/cold.html', NO_READY_LOAD + SCRIPT, widget(e2e.harness, FITS_FIRST_SCREEN));
      await assertWorking(w, 1, FITS);
      assert.equal(await formChunkFetches(w), 0);
      await firstCard(w).click();
      await formOpens(w);
      assert.equal(await formChunkFetches(w), 1);
      assert.deepEqual(w.pageErrors, []);
    });

    it('hub-ready starts loading the form half unasked, at low fetch priority', { skip: OVER_A_VIEW }, async () => {
      const w = await open('/at-ready.html', SCRIPT, widget(e2e.harness, FITS_FIRST_SCREEN));
      await assertWorking(w, 1, FITS);
      await waitFor(
        () => formChunkFetches(w),
        (count) => count === 1,
        'the fetch of the form half that hub-ready starts',
      );
      assert.equal(
        await w.page.evaluate(
          () => document.querySelector<HTMLScriptElement>('script[src$=".form.js"]')?.fetchPriority,
        ),
        'low',
      );
    });

    it('a tampered hub-embed.form.js is refused by its integrity: the click shows a setup error naming the file, no Retry, never a dead click', async () => {
      const w = await open(
        '/tampered.html',
        NO_READY_LOAD + SCRIPT.replace('/dist/', '/dist-tampered/'),
        widget(e2e.harness, FITS_FIRST_SCREEN),
      );
      await waitForReady(w.page);
      await firstCard(w).click();
      const [failure] = await waitFor(
        () => events(w.page, 'hub-error'),
        (list) => list.length > 0,
        'hub-error for the refused form half',
      );
      // Its server answered (200) with a file this build refuses: the page's setup, which a Retry cannot mend.
      assert.equal(failure!.detail.error.kind, 'config');
      assert.match(failure!.detail.error.message, /dist-tampered\/hub-embed\.form\.js$/);
      assert.equal(await w.page.evaluate(() => customElements.get('hub-form-frame') === undefined), true);
      assert.equal(await w.page.locator('hub-embed [part="retry"]').count(), 0, 'no retry control');
      // The pointer's way to the card may ask for the half first (intent), and then its setup error takes the
      // cards' place, as a refused half does after hub-ready; the click's own shows under them. Either way the
      // user sees the setup error.
      assert.match((await w.page.locator('hub-embed [part="error"]').textContent()) ?? '', /Setup error/);
    });
  });

  describe('bridge="auto" in the two <script> bundles', () => {
    before(async () => {
      expected ??= (await simulatorList(e2e.harness)).map((table) => table.name);
    });

    it('hub-embed-webview.iife.js: the bridge is plugged in, shakes hands with the host, and the widget loads when the host stays silent', async () => {
      const w = await open(
        '/webview-bundle.html',
        `${SILENT_RN_HOST}<script src="/dist/hub-embed-webview.iife.js"></script>`,
        widget(e2e.harness, { bridge: 'auto' }),
      );
      await waitFor(
        () => posted(w),
        (methods) => methods.includes('bridge.hello'),
        'the handshake',
      );
      assert.equal(await w.page.evaluate(() => typeof (window as any).HubEmbed.connectBridge), 'function');
      // No answer within the ready timeout: the page runs as a web page, from token-endpoint.
      await assertWorking(w);
      assert.deepEqual(bridgeNotices(w), []);
    });

    it('hub-embed.iife.js: no bridge, so nothing is posted to the host and the console says once which build to use', async () => {
      const w = await open(
        '/plain-bundle-auto.html',
        `${SILENT_RN_HOST}${SCRIPT}`,
        widget(e2e.harness, { bridge: 'auto' }) + widget(e2e.harness, { bridge: 'auto' }),
      );
      await waitForReady(w.page);
      await waitFor(
        () => cardNames(w.page),
        (shown) => shown.length === expected.length * 2,
        'both widgets',
      );
      assert.deepEqual(await posted(w), []);
      // Said as the widgets connect, once for the page.
      await waitFor(
        () => bridgeNotices(w).length,
        (count) => count > 0,
        'the notice',
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(bridgeNotices(w).length, 1, w.consoleWarnings.join('\n'));
      assert.deepEqual(w.pageErrors, []);
    });
  });
});
