// A server-rendered first view taken over by the built <script> bundle (issue 80, item 2), in each engine:
// the page holds renderFirstView's HTML and loads dist/hub-embed.iife.js after it (`defer`); every frame
// from the first that shows a card to a second after hub-ready shows one, hub-ready fires once, and then
// only the element's own view is left, its cards the server's.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { renderFirstView } from '../../src/first-view/render-first-view.js';
import { createServerClient, createTokenHandler } from '../../src/server/index.js';
import { events, pageHtml, SCRIPT, useHarness, waitFor, waitForReady } from './harness.js';
import { inEachEngine, type EnginePage } from './engines/index.js';

const e2e = useHarness();

/**
 * Counts, in each frame once a card has shown, the frames with no card on screen: the view's while it is
 * there, else the element's own. Inline in the head, so that it runs before the body is parsed.
 */
const FRAMES = `<script>
window.__frames = { seen: 0, without: 0 };
(function tick() {
  var root = document.querySelector('hub-embed') && document.querySelector('hub-embed').shadowRoot;
  var view = root && root.querySelector('[data-first-view]');
  var grid = view ? view.children[1] : root && root.querySelector('hub-table-grid');
  var cards = grid && grid.shadowRoot ? grid.shadowRoot.querySelectorAll('[part~="card"]').length : 0;
  if (cards || window.__frames.seen) {
    window.__frames.seen++;
    if (!cards) window.__frames.without++;
  }
  requestAnimationFrame(tick);
})();
</script>`;

/** A page as a server renders it: the element with its first view, for a signed-in user. */
async function serverPage(
  script: 'defer' | 'none' | 'sync' = 'defer',
  limit = 12,
): Promise<{ html: string; names: string[] }> {
  const { harness } = e2e;
  const client = createServerClient({ apiKey: harness.mock.apiKey, baseUrl: harness.mock.baseUrl });
  const tokens = createTokenHandler({
    client,
    resolveClientUserId: () => 'first-view-takeover',
    prefetch: { cacheMs: 60_000 },
  });
  const view = await renderFirstView({
    tokens,
    request: new Request(harness.baseUrl),
    element: { tokenEndpoint: '/api/hub-token', baseUrl: harness.baseUrl, formUrl: harness.formUrl, limit },
    locale: 'en',
  });
  assert.match(view, /data-first-view/, 'the server wrote a first view');
  // As the browser reads them: the server escapes text as HTML (first-view/markup-tag.ts).
  const text = (html: string) =>
    html
      .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&');
  const names = [...view.matchAll(/<span part="name">([^<]*)<\/span>/g)].map((match) => text(match[1]!));
  const tags = { defer: '<script src="/dist/hub-embed.iife.js" defer></script>', none: '', sync: SCRIPT };
  const head = `${FRAMES}${tags[script]}`;
  return { html: pageHtml(head, view), names };
}

/** Runs the built bundle on a page served without it, as a late script would. */
function runBundle(page: EnginePage): Promise<void> {
  return page.evaluate(() => {
    const script = document.createElement('script');
    script.src = '/dist/hub-embed.iife.js';
    document.head.append(script);
  });
}

inEachEngine(() => {
  describe('a server first view taken over by the script bundle', () => {
    let page: { html: string; names: string[] };
    before(async () => {
      page = await serverPage();
    });

    it('a card in every frame until a second after hub-ready, which fires once; then the element’s own cards, the same tables', async () => {
      const w = await e2e.openPage('/first-view-takeover.html', page.html);
      await waitForReady(w.page);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const frames = await w.page.evaluate(
        () => (window as unknown as { __frames: { seen: number; without: number } }).__frames,
      );
      assert.ok(frames.seen > 5, `frames counted: ${frames.seen}`);
      assert.equal(frames.without, 0, 'frames without a card');
      assert.equal((await events(w.page, 'hub-ready')).length, 1);
      const after = await w.page.evaluate(() => {
        const root = document.querySelector('hub-embed')!.shadowRoot!;
        const grid = root.querySelector('hub-table-grid')!;
        return {
          views: root.querySelectorAll('[data-first-view]').length,
          bodies: root.querySelectorAll('[part~="body"]').length,
          names: [...grid.shadowRoot!.querySelectorAll('[part~="name"]')].map((name) => name.textContent),
        };
      });
      assert.deepEqual({ views: after.views, bodies: after.bodies }, { views: 0, bodies: 1 });
      assert.deepEqual(after.names.slice(0, page.names.length), page.names);
      await waitFor(
        () => events(w.page, 'hub-error'),
        (list) => list.length === 0,
        'no hub-error',
      );
    });

    it('a script in the head, before the view: the element renders as it does without one, with no error but the dropped view', async () => {
      const { html, names } = await serverPage('sync');
      const w = await e2e.openPage('/first-view-sync.html', html);
      await waitForReady(w.page);
      const shown = await w.page.evaluate(() => {
        const root = document.querySelector('hub-embed')!.shadowRoot!;
        const grid = root.querySelector('hub-table-grid')!;
        return {
          views: root.querySelectorAll('[data-first-view]').length,
          names: [...grid.shadowRoot!.querySelectorAll('[part~="name"]')].map((name) => name.textContent),
        };
      });
      assert.equal(shown.views, 0);
      assert.deepEqual(shown.names.slice(0, names.length), names);
      assert.deepEqual(await events(w.page, 'hub-error'), []);
      // What docs/frameworks.md says of such a page: the browser drops the view, and Chromium says so (the
      // other engines' drivers read no console, or theirs says nothing).
      const others = w.consoleErrors.filter(
        (text) => !text.startsWith('A second declarative shadow root cannot be created'),
      );
      assert.deepEqual(others, []);
    });

    it('a card clicked before the script has run opens its form once the element has taken the view over, once', async () => {
      const { html, names } = await serverPage('none');
      const w = await e2e.openPage('/first-view-click.html', html);
      // A real press on the server's third card, with no script on the page yet: nothing listens.
      await w.page.locator('hub-embed [part~="card"]', { hasText: names[2]! }).click();
      assert.equal((await events(w.page)).length, 0);
      await runBundle(w.page);
      const opened = await waitFor(
        () => events(w.page, 'hub-form-open'),
        (list) => list.length > 0,
        'the form to open',
      );
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal((await events(w.page, 'hub-form-open')).length, 1, 'opened once');
      const label = await w.page.evaluate(() =>
        document.querySelector('hub-embed')!.shadowRoot!.querySelector('dialog')!.getAttribute('aria-label'),
      );
      assert.equal(label, names[2]);
      assert.ok(opened[0]!.detail.shortCode);
    });

    it('a card far down the view, scrolled to and clicked before the script ran, opens its form: the view waits until the element has drawn as many cards', async () => {
      const { html, names } = await serverPage('none', 26);
      const w = await e2e.openPage('/first-view-deep-click.html', html);
      // A short window: the element's own first screen, measured by the window, holds fewer cards than the
      // server's view, which draws a large screen's.
      await w.page.setViewportSize({ width: 480, height: 520 });
      const last = names.at(-1)!;
      await w.page.evaluate((name) => {
        const view = document.querySelector('hub-embed')!.shadowRoot!.querySelector('[data-first-view]')!;
        const cards = [...view.children[1]!.shadowRoot!.querySelectorAll<HTMLElement>('[part~="card"]')];
        cards.find((card) => card.textContent!.includes(name))!.scrollIntoView({ block: 'center' });
      }, last);
      await w.page.locator('hub-embed [part~="card"]', { hasText: last }).click();
      await runBundle(w.page);
      await waitFor(
        () => events(w.page, 'hub-form-open'),
        (list) => list.length > 0,
        'the form to open',
      );
      const label = await w.page.evaluate(() =>
        document.querySelector('hub-embed')!.shadowRoot!.querySelector('dialog')!.getAttribute('aria-label'),
      );
      assert.equal(label, last);
    });

    it('a card focused with the keyboard before the script ran keeps the focus, and the view its scroll, opening nothing', async () => {
      const { html } = await serverPage('none', 26);
      const w = await e2e.openPage('/first-view-focus.html', html);
      /** The chip or card focused inside the element (the view's or its own), and its text. */
      const focused = () =>
        w.page.evaluate(() => {
          const active = document.querySelector('hub-embed')!.shadowRoot!.activeElement?.shadowRoot?.activeElement;
          return active
            ? { part: active.getAttribute('part'), text: active.textContent!.replace(/\s+/g, ' ').trim() }
            : undefined;
        });
      // Tab from the page's start: the filter's chip, then the grid's first card.
      for (let presses = 0; presses < 4 && !(await focused())?.part?.includes('card'); presses++)
        await w.page.keyboard.press('Tab');
      const before = await focused();
      assert.ok(before?.part?.includes('card'), `focused: ${JSON.stringify(before)}`);
      const scroll = await w.page.evaluate(() => {
        const view = document.querySelector('hub-embed')!.shadowRoot!.querySelector<HTMLElement>('[data-first-view]')!;
        view.scrollTop = 60;
        return view.scrollTop;
      });
      assert.ok(scroll > 0, 'the view scrolls');
      await runBundle(w.page);
      await waitForReady(w.page);
      const after = await w.page.evaluate(() => {
        const root = document.querySelector('hub-embed')!.shadowRoot!;
        return {
          views: root.querySelectorAll('[data-first-view]').length,
          scroll: root.querySelector<HTMLElement>('[part~="body"]')!.scrollTop,
        };
      });
      assert.deepEqual(after, { views: 0, scroll });
      assert.deepEqual(await focused(), before);
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.deepEqual(await events(w.page, 'hub-form-open'), []);
    });
  });
});
