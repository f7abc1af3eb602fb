// The WeChat add-on, dist/hub-embed-wechat.js, on the built bundles in Chromium, WebKit and Firefox
// (engines/): after dist/hub-embed-webview.iife.js it plugs the WeChat transport into that bundle's own
// bridge, and a widget in a mini-program's <web-view> (a stand-in for its globals: createMockHost('wechat')
// from the built hub-embed/host) opens its form through wx.miniProgram.navigateTo and sends its events.
// Loaded without the WebView bundle before it, it stops with an error naming that bundle.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  cardNames,
  pageHtml,
  simulatorList,
  useHarness,
  waitFor,
  waitForReady,
  widget,
  type Watch,
} from './harness.js';
import { inEachEngine } from './engines/index.js';

// Uncaught errors are what the add-on-alone tests look for, so each test checks them itself.
const e2e = useHarness({ checkPageErrors: false });

const FORM_PAGE = '/pages/hub-form/index';
const WEBVIEW = '/dist/hub-embed-webview.iife.js';
const ADDON = '/dist/hub-embed-wechat.js';

/**
 * A web-view page as examples/wechat/widget-page.html is, with the mini-program's globals installed by the
 * mock host (built hub-embed/host, an ES module) before the page's classic scripts run: the module adds
 * them, in order, once the host is in.
 */
function miniProgramPage(scripts: string[], body: string): string {
  const head = `<script>window.__HUB_EMBED_BRIDGE__ = { transport: 'wechat', wechatFormPage: '${FORM_PAGE}' };</script>
<script type="module">
  import { createMockHost } from '/dist/host.js';
  window.__host = createMockHost('wechat');
  for (const src of ${JSON.stringify(scripts)}) {
    const script = document.createElement('script');
    script.src = src;
    script.async = false;
    document.head.append(script);
  }
</script>`;
  return pageHtml(head, body);
}

/** What the mini-program heard and where it navigated, from the mock host in the page. */
const heard = (w: Watch) =>
  w.page.evaluate(() => {
    const host = (window as any).__host;
    return host
      ? {
          events: host.events.map((e: { method: string }) => e.method) as string[],
          opened: host.events.filter((e: { method: string }) => e.method === 'form.opened').map((e: any) => e.params),
          navigations: [...host.navigations] as string[],
        }
      : undefined;
  });

const errorsOf = (w: Watch) => [...w.pageErrors, ...w.consoleErrors];

inEachEngine(() => {
  describe('dist/hub-embed-wechat.js (the WeChat add-on)', () => {
    let expected: string[];
    before(async () => {
      expected = (await simulatorList(e2e.harness)).map((table) => table.name);
    });

    it('after the WebView bundle it plugs in the WeChat transport: the widget opens its form through navigateTo and sends its events', async () => {
      const w = await e2e.openPage(
        '/wechat.html',
        miniProgramPage([WEBVIEW, ADDON], widget(e2e.harness, { bridge: 'auto' })),
      );
      await waitForReady(w.page);
      await waitFor(
        () => cardNames(w.page),
        (shown) => shown.length === expected.length,
        'the cards',
      );
      await w.page.locator('hub-embed [part="card"]').first().click();
      const after = await waitFor(
        () => heard(w),
        (seen) => (seen?.navigations.length ?? 0) > 0 && seen!.events.includes('form.opened'),
        'navigateTo and form.opened',
      );
      const [url] = after!.navigations;
      assert.ok(url!.startsWith(`${FORM_PAGE}?shortCode=`), url);
      assert.equal(new URL(url!, 'https://mp.example').searchParams.get('url')?.startsWith(e2e.harness.formUrl), true);
      assert.deepEqual(after!.opened[0].handledBy, 'host');
      for (const method of ['widget.ready', 'table.selected', 'form.opened'])
        assert.ok(after!.events.includes(method), `${method} in ${after!.events.join()}`);
      // The form opened in the mini-program, not in the page.
      assert.equal(await w.page.locator('hub-embed hub-form-frame').count(), 0);
      assert.deepEqual(errorsOf(w), [], 'nothing thrown, no console errors');
    });

    it("the add-on's errors are the WebView bundle's BridgeError: a request WeChat cannot answer keeps its code", async () => {
      const w = await e2e.openPage('/wechat-error.html', miniProgramPage([WEBVIEW, ADDON], ''));
      const outcome = await w.page.evaluate(async () => {
        // The module adds the two scripts once the mock host is in; they hold the page's load event.
        while (document.readyState !== 'complete') await new Promise((resolve) => setTimeout(resolve, 10));
        const { HubEmbed } = window as any;
        const bridge = HubEmbed.connectBridge({});
        const host = await bridge.ready;
        try {
          await bridge.request('auth.getToken', {});
          return { transport: host?.transport, code: 'none' };
        } catch (error) {
          return {
            transport: host?.transport,
            code: (error as { code?: unknown }).code,
            same: error instanceof HubEmbed.BridgeError,
          };
        } finally {
          bridge.close();
        }
      });
      assert.deepEqual(outcome, { transport: 'wechat', code: 'E_UNSUPPORTED', same: true });
      assert.deepEqual(errorsOf(w), []);
    });

    for (const [what, scripts] of [
      ['alone', [ADDON]],
      ['after the plain bundle, which has no bridge', ['/dist/hub-embed.iife.js', ADDON]],
    ] as const)
      it(`loaded ${what}, it fails loudly: one error, naming the WebView bundle`, async () => {
        const w = await e2e.openPage(`/wechat-${scripts.length}.html`, miniProgramPage([...scripts], ''));
        const errors = await waitFor(
          () => Promise.resolve(errorsOf(w)),
          (list) => list.length > 0,
          'the error',
        );
        assert.equal(errors.length, 1, errors.join('\n'));
        assert.match(errors[0]!, /hub-embed-wechat\.js: load dist\/hub-embed-webview\.iife\.js before it/);
      });
  });
});
