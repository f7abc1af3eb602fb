// No layout shift: from first paint through hub-ready, a tag selection, a form opened and closed, and a
// load that fails offline and comes back online, nothing the widget draws moves what is on screen. The
// built <script> bundle on a host page as real pages are, with content above and below the widget and
// the README's style rule for the tag, against the simulator, in Chromium (the Layout Instability API is
// Chromium's): every `layout-shift` entry is summed, those right after a click included, which Cumulative
// Layout Shift leaves out, and the sum must be 0. A proxy in front of the simulator delays the tags and
// the list by different amounts, in both orders, and the icons after both, as a phone's network does.
// Each layout the README names is a case: the widget in the flow of the text (the reservation sizes it),
// in a fixed-height panel (the filter stays and the cards scroll inside), the same panel with a `display`
// the page gives the element (block, inline-block, a grid or a flex item), over a two-table catalogue (it
// shows whole, nothing to scroll), and on Slow 3G; and the default box shows two rows of cards.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startSimulator, type RunningSimulator } from '../../packages/hub-embed-mock/src/index.js';
import { SLOW_3G } from '../../bench/slow-network.js';
import { createServerClient, createTokenHandler, toNodeListener, type TokenHandler } from '../../src/server/index.js';
import { onlyInChromium } from './engines/index.js';
import { firstViewWriter, pageTokens, sendPage, SERVER_FIRST_VIEWS } from './server-first-views.js';
import { PLAYWRIGHT_CHROMIUM_ARGS } from '../../scripts/chromium.mjs';
import { DIST, requireChromium } from './harness.js';
import { PANEL_HEIGHT, hostBody, readmeStyle, twoTableSeed, type HostLayout } from '../../bench/lib/host-page.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** How late each kind of request to the service is answered, in ms. */
interface Delays {
  tags: number;
  list: number;
  other: number;
}

/** The catalogue a page lists: the simulator's default (26 published tables), or its first two tables. */
type Catalogue = 'default' | 'two tables';

/** One simulator per catalogue, each behind its own delaying proxy. */
const services = new Map<Catalogue, { mock: RunningSimulator; proxy: Server; apiUrl: string }>();
let pages: Server;
let browser: Browser;
let delays: Delays = { tags: 0, list: 0, other: 0 };
/** While set, the proxy drops the connection of each list request: the browser sees a network error. */
let offline = false;

const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );

/** The service behind a delay that depends on the request: the tags, the list, anything else (icons). */
function delayingProxy(target: string): Server {
  const upstream = new URL(target);
  return createServer((req, res) => {
    const path = req.url ?? '/';
    const wait = path.includes('published-tags')
      ? delays.tags
      : path.includes('published-list')
        ? delays.list
        : delays.other;
    if (offline && req.method !== 'OPTIONS' && path.includes('published-')) return void req.socket.destroy();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void sleep(req.method === 'OPTIONS' ? 0 : wait).then(() => {
        const forward = httpRequest(
          {
            host: upstream.hostname,
            port: upstream.port,
            method: req.method,
            path,
            headers: { ...req.headers, host: upstream.host },
          },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        forward.on('error', () => res.writeHead(502).end());
        forward.end(Buffer.concat(chunks));
      });
    });
  });
}

/** Before any widget script: every layout-shift entry, with what moved. */
const OBSERVER = `<script>
  window.__shifts = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      window.__shifts.push({
        value: entry.value,
        at: Math.round(entry.startTime),
        afterInput: entry.hadRecentInput,
        moved: entry.sources.map((s) => {
          const node = s.node;
          const name = node ? (node.nodeType === 1 ? node.localName + (node.getAttribute('part') ? '[part=' + node.getAttribute('part') + ']' : '') : '#text') : '?';
          return name + ' ' + JSON.stringify([s.previousRect.y, s.currentRect.y, s.previousRect.height, s.currentRect.height]);
        }),
      });
  }).observe({ type: 'layout-shift', buffered: true });
  window.__ready = 0;
  document.addEventListener('hub-ready', () => window.__ready++);
  document.addEventListener('hub-form-open', () => (window.__opened = true));
  document.addEventListener('hub-form-close', () => (window.__closed = true));
  window.__events = [];
  for (const type of ['hub-ready', 'hub-error', 'hub-table-select', 'hub-form-open', 'hub-form-close'])
    document.addEventListener(type, (e) => window.__events.push(type + (e.detail && e.detail.error ? ': ' + e.detail.error.message : '') + ' at ' + Math.round(performance.now())));
  for (const type of ['click', 'keydown'])
    document.addEventListener(type, () => window.__events.push(type + ' at ' + Math.round(performance.now())), true);
</script>`;

before(async () => {
  const tokenRoutes = new Map<string, ReturnType<typeof toNodeListener>>();
  const viewTokens = new Map<string, TokenHandler>();
  for (const [catalogue, seed] of [
    ['default', undefined],
    ['two tables', twoTableSeed()],
  ] as const) {
    const mock = await startSimulator(seed ? { seed } : {});
    const proxy = delayingProxy(mock.baseUrl);
    services.set(catalogue, { mock, proxy, apiUrl: await listen(proxy) });
    const client = createServerClient({ apiKey: mock.apiKey, baseUrl: mock.baseUrl });
    const route = toNodeListener(createTokenHandler({ client, resolveClientUserId: () => 'layout-shift-e2e' }));
    tokenRoutes.set(`/api/hub-token/${encodeURIComponent(catalogue)}`, route);
    viewTokens.set(
      `/api/hub-token/${encodeURIComponent(catalogue)}`,
      pageTokens(mock, () => 'layout-shift-e2e'),
    );
  }
  // With HUB_FIRST_VIEW=server, each page comes with the server's first view (server-first-views.ts).
  const writeFirstViews = SERVER_FIRST_VIEWS ? firstViewWriter((endpoint) => viewTokens.get(endpoint)) : undefined;
  pages = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const tokens = tokenRoutes.get(url.pathname);
    if (tokens) return void tokens(req, res);
    if (url.pathname === '/style.css') {
      res.writeHead(200, { 'content-type': 'text/css; charset=utf-8' });
      return void res.end(readmeStyle());
    }
    // The bundle and the form half it loads on intent, from dist/.
    if (/^\/hub-embed[\w.-]*\.js$/.test(url.pathname) && existsSync(join(DIST, url.pathname))) {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      return void res.end(readFileSync(join(DIST, url.pathname)));
    }
    const catalogue = (url.searchParams.get('catalogue') ?? 'default') as Catalogue;
    const layout = (url.searchParams.get('layout') ?? 'flow') as HostLayout;
    const { mock, apiUrl } = services.get(catalogue)!;
    const tag = `<hub-embed token-endpoint="/api/hub-token/${encodeURIComponent(catalogue)}" base-url="${apiUrl}" form-url="${mock.formUrl}" locale="en" theme="light"></hub-embed>`;
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">
<title>Tables</title><link rel="stylesheet" href="/style.css">${OBSERVER}<script src="/hub-embed.iife.js" defer></script></head>
<body style="margin: 0 16px; font: 16px system-ui"><h1>Tables</h1>
${hostBody(tag, layout)}
</body></html>`;
    void sendPage(res, { html, headers: {} }, req, writeFirstViews);
  });
  pageUrl = await listen(pages);
  // With the scrollbars a desktop draws, which headless Playwright hides: a scrollbar that comes and goes
  // narrows the cards' room and moves them.
  browser = await chromium.launch({
    executablePath: requireChromium(),
    args: PLAYWRIGHT_CHROMIUM_ARGS,
    ignoreDefaultArgs: ['--hide-scrollbars'],
  });
});
let pageUrl = '';

after(async () => {
  await browser?.close();
  for (const server of [pages, ...[...services.values()].map(({ proxy }) => proxy)]) {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  }
  for (const { mock } of services.values()) await mock.close();
});

/** Waits for a condition in the page; Slow 3G's answers take seconds each. */
const until = (page: Page, condition: string, timeout = 15_000) =>
  page.waitForFunction(condition, undefined, { timeout });

type Shift = { value: number; at: number; afterInput: boolean; moved: string[] };

/** How far a case goes: the whole path, or the load and a tag selection (on Slow 3G, where each answer takes seconds). */
type Path = 'whole' | 'load and a tag';

/**
 * From navigation to the form's close (or to the tag's list), and what shifted on it. `tag` is a tag of
 * the catalogue shown whose list has tables that match and tables the service added.
 */
async function shiftsOnThePath(page: Page, url: string, tag: string, path: Path, timeout: number): Promise<Shift[]> {
  await page.goto(url, { timeout });
  await until(page, 'window.__ready === 1', timeout);
  // The icons too, lazy or not: a card must have had its size before they came.
  await page.waitForLoadState('load', { timeout });
  await sleep(delays.other + 100);

  const chip = page.locator('hub-embed hub-tag-filter').getByRole('button', { name: tag, exact: true });
  await chip.click();
  await page.locator('hub-embed [part="more"]').waitFor({ timeout });
  await until(page, `!document.querySelector('hub-embed').shadowRoot.querySelector('hub-table-grid').loading`, timeout);
  await sleep(delays.other + 100);

  if (path === 'whole') {
    await page.locator('hub-embed [part~="card"]').first().click();
    await until(page, 'window.__opened === true').catch(async (error: Error) => {
      throw new Error(`${error.message}; events: ${String(await page.evaluate('window.__events.join(", ")'))}`);
    });
    await page.frameLocator('hub-embed hub-form-frame iframe').locator('#hub-form').waitFor();
    await page.keyboard.press('Escape');
    await until(page, 'window.__closed === true');

    // Offline, the tag again (the whole list) fails with a network error; the browser's online event loads again.
    offline = true;
    await chip.click();
    await page.locator('hub-embed [part="error"]').waitFor();
    offline = false;
    await sleep(600);
    await page.evaluate(() => dispatchEvent(new Event('online')));
    await until(page, 'window.__ready === 2');
    await sleep(delays.other + 100);
  }
  // Two frames after the last change: any shift it caused has been reported.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  return page.evaluate(() => (window as unknown as { __shifts: Shift[] }).__shifts);
}

/** The widget's box, its body's, the filter's and the last card's, in the page as the user left it. */
async function boxes(page: Page) {
  return page.evaluate(() => {
    const embed = document.querySelector('hub-embed')!;
    const root = embed.shadowRoot!;
    const body = root.querySelector<HTMLElement>('[part~="body"]')!;
    const rect = (element: Element | null | undefined) => {
      const { top, bottom, height } = element!.getBoundingClientRect();
      return { top, bottom, height };
    };
    const cards = root.querySelector('hub-table-grid')!.shadowRoot!.querySelectorAll('[role="listitem"]');
    return {
      embed: rect(embed),
      body: { ...rect(body), scrolls: body.scrollHeight > body.clientHeight },
      filter: rect(root.querySelector('hub-tag-filter')),
      lastCard: rect(cards[cards.length - 1]),
      pageScrolls: document.documentElement.scrollHeight > innerHeight,
    };
  });
}

const report = (shifts: readonly Shift[], events: string) => {
  const total = shifts.reduce((sum, shift) => sum + shift.value, 0);
  return `layout shifts (${total.toFixed(4)} in all):\n${shifts
    .map((s) => `  ${s.value.toFixed(4)} at ${s.at}${s.afterInput ? ' (after input)' : ''}: ${s.moved.join('; ')}`)
    .join('\n')}\nevents: ${events}`;
};

/** The reservation the README's rule gives the tag before its script arrives, in px; the element's own default is the same. */
const RESERVED = Number(/--hub-reserved-height,\s*(\d+)px/.exec(readmeStyle())?.[1]);

onlyInChromium("the Layout Instability API (layout-shift entries) is Chromium's");

describe('no layout shift (the <script> page against the simulator, Chromium)', () => {
  const viewports = {
    mobile: { width: 412, height: 823 },
    desktop: { width: 1350, height: 940 },
  };
  const orders: Record<string, Delays> = {
    'tags before the list': { tags: 60, list: 400, other: 250 },
    'the list before the tags': { tags: 400, list: 60, other: 250 },
  };
  /** The layouts the README names, each with a tag of its catalogue that has matches and added tables. */
  const layouts: Record<string, { layout: HostLayout; catalogue: Catalogue; tag: string }> = {
    'with content above and below': { layout: 'flow', catalogue: 'default', tag: 'delivery' },
    'in a fixed-height panel': { layout: 'panel', catalogue: 'default', tag: 'delivery' },
    'over a two-table catalogue': { layout: 'flow', catalogue: 'two tables', tag: 'renovation' },
    // A panel whose box the page styles as custom elements are commonly styled: the cards scroll inside
    // it whatever `display` the page gives the element (one order of answers each: the box is the point).
    'in a panel the page gives display: block': {
      layout: 'panel, display block',
      catalogue: 'default',
      tag: 'delivery',
    },
    'in a panel the page gives display: inline-block': {
      layout: 'panel, inline-block',
      catalogue: 'default',
      tag: 'delivery',
    },
    'as a grid item of a panel': { layout: 'grid item', catalogue: 'default', tag: 'delivery' },
    'as a flex item of a panel': { layout: 'flex item', catalogue: 'default', tag: 'delivery' },
  };

  it('the README rule reserves a height in px, which the layouts below check the box against', () => {
    assert.ok(RESERVED > 0, `README's rule gives --hub-reserved-height a px default (${RESERVED})`);
  });

  for (const [device, viewport] of Object.entries(viewports))
    it(`the default box shows at least two rows of cards, whole, under the filter and the count (${device})`, async () => {
      delays = { tags: 0, list: 0, other: 0 };
      const context = await browser.newContext({ viewport, colorScheme: 'light' });
      try {
        const page = await context.newPage();
        await page.goto(`${pageUrl}/?layout=flow`);
        await until(page, 'window.__ready === 1');
        const { rows, box } = await page.evaluate(() => {
          const root = document.querySelector('hub-embed')!.shadowRoot!;
          const body = root.querySelector('[part~="body"]')!.getBoundingClientRect();
          const cards = root.querySelector('hub-table-grid')!.shadowRoot!.querySelectorAll('[role="listitem"]');
          // A row counts when a card of it is wholly inside the box before any scrolling.
          const whole = [...cards]
            .map((card) => card.getBoundingClientRect())
            .filter((rect) => rect.top >= body.top && rect.bottom <= body.bottom + 0.5);
          return { rows: new Set(whole.map((rect) => Math.round(rect.top))).size, box: Math.round(body.height) };
        });
        assert.ok(rows >= 2, `the default box (${box} px) shows ${rows} whole row(s) of cards on ${device}, not two`);
      } finally {
        await context.close();
      }
    });

  for (const [where, { layout, catalogue, tag }] of Object.entries(layouts))
    for (const [device, viewport] of Object.entries(viewports))
      for (const [order, given] of Object.entries(orders).slice(0, layout === 'flow' || layout === 'panel' ? 2 : 1))
        it(`${where}, the layout-shift entries sum to 0 from first paint through hub-ready, a tag selection, a form opened and closed, an offline error and the reload online, and the box holds (${device}, ${order})`, async () => {
          delays = given;
          const context = await browser.newContext({ viewport, colorScheme: 'light' });
          try {
            const page = await context.newPage();
            const url = `${pageUrl}/?layout=${layout}&catalogue=${encodeURIComponent(catalogue)}`;
            const shifts = await shiftsOnThePath(page, url, tag, 'whole', 15_000);
            // The content below the widget was there to move.
            assert.equal(await page.locator('#below').count(), 1);
            const events = String(await page.evaluate('window.__events.join(", ")'));
            const total = shifts.reduce((sum, shift) => sum + shift.value, 0);
            assert.equal(total, 0, report(shifts, events));

            const box = await boxes(page);
            if (layout !== 'flow') {
              // The panel's height, not a screen's; the filter stays put while the cards scroll inside it.
              assert.equal(box.embed.height, PANEL_HEIGHT);
              assert.ok(box.body.scrolls, 'the default catalogue is longer than the panel: its cards scroll inside');
              assert.ok(box.body.bottom <= box.embed.bottom, 'the body stays inside the panel');
              await page.evaluate(() => {
                const body = document.querySelector('hub-embed')!.shadowRoot!.querySelector('[part~="body"]')!;
                body.scrollTop = body.scrollHeight;
              });
              const scrolled = await boxes(page);
              assert.equal(scrolled.filter.top, box.filter.top, 'the filter stays put while the cards scroll');
              assert.ok(scrolled.lastCard.bottom <= scrolled.embed.bottom + 1, 'the last card scrolls into the panel');
              assert.ok(!scrolled.pageScrolls, 'the page itself does not scroll: no blank below the panel');
            } else {
              // The reservation, not a screen: the box neither grew with the list nor shrank to it.
              assert.equal(box.embed.height, RESERVED);
            }
            if (catalogue === 'two tables') {
              // The short list shows whole in the default box: nothing to scroll to, the last card inside.
              assert.ok(!box.body.scrolls, 'a two-table list scrolls inside the default box');
              assert.ok(box.lastCard.bottom <= box.embed.bottom, 'the last card of the short list is inside the box');
            }
          } finally {
            await context.close();
          }
        });

  for (const [device, viewport] of Object.entries(viewports))
    it(`on Slow 3G with content above and below, the layout-shift entries sum to 0 from first paint through hub-ready and a tag selection, and the box holds (${device})`, async () => {
      delays = { tags: 0, list: 0, other: 0 };
      const context = await browser.newContext({ viewport, colorScheme: 'light' });
      try {
        const page = await context.newPage();
        // Every request of the page (the page, its style, its script, the token, the lists, the icons).
        const cdp = await context.newCDPSession(page);
        await cdp.send('Network.enable');
        await cdp.send('Network.emulateNetworkConditions', SLOW_3G);
        const shifts = await shiftsOnThePath(page, `${pageUrl}/?layout=flow`, 'delivery', 'load and a tag', 120_000);
        const events = String(await page.evaluate('window.__events.join(", ")'));
        assert.equal(
          shifts.reduce((sum, shift) => sum + shift.value, 0),
          0,
          report(shifts, events),
        );
        assert.equal((await boxes(page)).embed.height, RESERVED);
      } finally {
        await context.close();
      }
    });
});
