// No layout shift: from first paint through hub-ready, a tag selection, a form opened and closed, and a
// load that fails offline and comes back online, nothing the widget draws moves what is on screen. The
// built <script> bundle on a host page as real pages are, with content above and below the widget and
// the README's style rule for the tag, against the simulator, in Chromium (the Layout Instability API is
// Chromium's): every `layout-shift` entry is summed, those right after a click included, which Cumulative
// Layout Shift leaves out, and the sum must be 0. A proxy in front of the simulator delays the tags and
// the list by different amounts, in both orders, and the icons after both, as a phone's network does.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startSimulator, type RunningSimulator } from '../../packages/hub-embed-mock/src/index.js';
import { createServerClient, createTokenHandler, toNodeListener } from '../../src/server/index.js';
import { onlyInChromium } from './engines/index.js';
import { DIST, launchBrowser } from './harness.js';
import { ABOVE, BELOW, readmeStyle } from '../../bench/lib/host-page.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** How late each kind of request to the service is answered, in ms. */
interface Delays {
  tags: number;
  list: number;
  other: number;
}

let mock: RunningSimulator;
let proxy: Server;
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
  mock = await startSimulator({});
  proxy = delayingProxy(mock.baseUrl);
  const apiUrl = await listen(proxy);
  const client = createServerClient({ apiKey: mock.apiKey, baseUrl: mock.baseUrl });
  const tokens = toNodeListener(createTokenHandler({ client, resolveClientUserId: () => 'layout-shift-e2e' }));
  pages = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/api/hub-token') return void tokens(req, res);
    if (path === '/style.css') {
      res.writeHead(200, { 'content-type': 'text/css; charset=utf-8' });
      return void res.end(readmeStyle());
    }
    // The bundle and the form half it loads on intent, from dist/.
    if (/^\/hub-embed[\w.-]*\.js$/.test(path) && existsSync(join(DIST, path))) {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      return void res.end(readFileSync(join(DIST, path)));
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">
<title>Tables</title><link rel="stylesheet" href="/style.css">${OBSERVER}<script src="/hub-embed.iife.js" defer></script></head>
<body style="margin: 0 16px; font: 16px system-ui"><h1>Tables</h1>
${ABOVE}
<hub-embed token-endpoint="/api/hub-token" base-url="${apiUrl}" form-url="${mock.formUrl}" locale="en" theme="light"></hub-embed>
${BELOW}
</body></html>`);
  });
  pageUrl = await listen(pages);
  browser = await launchBrowser();
});
let pageUrl = '';

after(async () => {
  await browser?.close();
  for (const server of [pages, proxy]) {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  }
  await mock?.close();
});

/** Waits for a condition in the page. */
const until = (page: Page, condition: string) => page.waitForFunction(condition, undefined, { timeout: 15_000 });

/** The whole path, from navigation to the form's close, and what shifted on it. */
async function shiftsOnThePath(
  page: Page,
): Promise<{ value: number; at: number; afterInput: boolean; moved: string[] }[]> {
  await page.goto(pageUrl);
  await until(page, 'window.__ready === 1');
  // The icons too, lazy or not: a card must have had its size before they came.
  await page.waitForLoadState('load');
  await sleep(delays.other + 100);

  await page.locator('hub-embed hub-tag-filter').getByRole('button', { name: 'delivery', exact: true }).click();
  await page.locator('hub-embed [part="more"]').waitFor();
  await until(page, `!document.querySelector('hub-embed').shadowRoot.querySelector('hub-table-grid').loading`);
  await sleep(delays.other + 100);

  await page.locator('hub-embed hub-table-card [part~="card"]').first().click();
  await until(page, 'window.__opened === true').catch(async (error: Error) => {
    throw new Error(`${error.message}; events: ${String(await page.evaluate('window.__events.join(", ")'))}`);
  });
  await page.frameLocator('hub-embed hub-form-frame iframe').locator('#hub-form').waitFor();
  await page.keyboard.press('Escape');
  await until(page, 'window.__closed === true');

  // Offline, another tag fails with a network error; the browser's online event loads again.
  offline = true;
  await page.locator('hub-embed hub-tag-filter').getByRole('button', { name: 'delivery', exact: true }).click();
  await page.locator('hub-embed [part="error"]').waitFor();
  offline = false;
  await sleep(600);
  await page.evaluate(() => dispatchEvent(new Event('online')));
  await until(page, 'window.__ready === 2');
  await sleep(delays.other + 100);
  // Two frames after the last change: any shift it caused has been reported.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  return page.evaluate(() => (window as unknown as { __shifts: [] }).__shifts);
}

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
  for (const [device, viewport] of Object.entries(viewports))
    for (const [order, given] of Object.entries(orders))
      it(`with content above and below, the layout-shift entries sum to 0 from first paint through hub-ready, a tag selection, a form opened and closed, an offline error and the reload online (${device}, ${order})`, async () => {
        delays = given;
        const context = await browser.newContext({ viewport, colorScheme: 'light' });
        try {
          const page = await context.newPage();
          const shifts = await shiftsOnThePath(page);
          // The content below the widget was there to move, and the widget kept the README rule's box.
          assert.equal(await page.locator('#below').count(), 1);
          const box = await page.locator('hub-embed').boundingBox();
          assert.ok(box && box.height >= viewport.height, `the widget is a screen tall at least (${box?.height} px)`);
          const events = String(await page.evaluate('window.__events.join(", ")'));
          const total = shifts.reduce((sum, shift) => sum + shift.value, 0);
          assert.equal(
            total,
            0,
            `layout shifts (${total.toFixed(4)} in all):\n${shifts
              .map(
                (s) =>
                  `  ${s.value.toFixed(4)} at ${s.at}${s.afterInput ? ' (after input)' : ''}: ${s.moved.join('; ')}`,
              )
              .join('\n')}\nevents: ${events}`,
          );
        } finally {
          await context.close();
        }
      });
});
