// Prefetch with the token (issue 18) in real Chromium: the built <script> bundle on a page whose token
// endpoint is createTokenHandler({prefetch: true}) behind toNodeListener, against the simulator on
// another origin. The browser's requests are counted from Playwright's network log.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { publishedListPath } from '../../src/core/paths.js';
import { startSimulator, type RunningSimulator } from '../../packages/hub-embed-mock/src/index.js';
import { createServerClient, createTokenHandler, toNodeListener } from '../../src/server/index.js';
import { BUNDLE, launchBrowser, waitFor } from './harness.js';
import { onlyInChromium } from './engines/index.js';

/** How each token route bends the prefetching handler's answer. */
const VARIANTS: Record<string, (prefetched: Record<string, unknown>) => unknown> = {
  good: (prefetched) => prefetched,
  // The same answers filed under another selection's path, as if fetched for other tags.
  other: (prefetched) =>
    Object.fromEntries(
      Object.entries(prefetched).map(([path, list]) => [
        path === 'published-tags' ? path : publishedListPath({ tags: ['freight'] }),
        list,
      ]),
    ),
  malformed: (prefetched) => Object.fromEntries(Object.keys(prefetched).map((path) => [path, { list: 'nope' }])),
};

let mock: RunningSimulator;
let server: Server;
let origin: string;
let browser: Browser;

before(async () => {
  mock = await startSimulator({});
  const client = createServerClient({ apiKey: mock.apiKey, baseUrl: mock.baseUrl });
  const handler = createTokenHandler({ client, resolveClientUserId: () => 'prefetch-e2e', prefetch: true });
  const bundle = readFileSync(BUNDLE);
  const formHalf = readFileSync(join(dirname(BUNDLE), 'hub-embed.form.js'));
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const variant = /^\/token\/(\w+)$/.exec(url.pathname)?.[1];
    if (variant && VARIANTS[variant]) {
      const bend = VARIANTS[variant]!;
      return void toNodeListener(async (request) => {
        const answer = (await (await handler(request)).json()) as { prefetched?: Record<string, unknown> };
        if (answer.prefetched) answer.prefetched = bend(answer.prefetched) as Record<string, unknown>;
        return Response.json(answer, { headers: { 'cache-control': 'no-store' } });
      })(req, res);
    }
    // The bundle and the form half beside it, as a page serves them: a form half the page does not serve is
    // the page's setup error, shown in the cards' place once it is asked for (after hub-ready).
    if (url.pathname === '/hub-embed.iife.js' || url.pathname === '/hub-embed.form.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      return void res.end(url.pathname === '/hub-embed.form.js' ? formHalf : bundle);
    }
    if (url.pathname === '/') {
      const endpoint = `/token/${url.searchParams.get('variant') ?? 'good'}`;
      const tags = url.searchParams.get('tags') ?? '';
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return void res.end(`<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script>window.__ready = 0; document.addEventListener('hub-ready', () => window.__ready++);</script>
<script src="/hub-embed.iife.js"></script></head><body>
<hub-embed token-endpoint="${endpoint}" base-url="${mock.baseUrl}" form-url="${mock.formUrl}" tags="${tags}"></hub-embed>
</body></html>`);
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  await mock?.close();
});

/**
 * Opens the page in a fresh context (a cold widget), waits for hub-ready, runs `check` with the browser's
 * network log (method and URL of every request), and closes the context whatever happens.
 */
async function withWidget(
  variant: string,
  tags: string,
  check: (w: { page: Page; requests: string[] }) => Promise<void>,
): Promise<void> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(`${request.method()} ${request.url()}`));
    await page.goto(`${origin}/?variant=${variant}&tags=${encodeURIComponent(tags)}`);
    await waitFor(
      () => page.evaluate(() => (window as unknown as { __ready: number }).__ready),
      (count) => count === 1,
      'hub-ready',
    );
    await check({ page, requests });
  } finally {
    await context.close();
  }
}

const api = (requests: string[], name: string) => requests.filter((line) => line.includes(`/projects/${name}`));

const shownCount = (page: Page) => page.locator('hub-embed [part~="card"]').count();

describe('prefetch with the token, in Chromium', () => {
  it('a cold widget reaches hub-ready with no browser request to published-tags or published-list', async () => {
    await withWidget('good', '装修,delivery', async (w) => {
      assert.deepEqual(api(w.requests, 'published-tags'), []);
      assert.deepEqual(api(w.requests, 'published-list'), []);
      assert.equal(w.requests.filter((line) => line.includes('/token/')).length, 1);
      assert.ok((await shownCount(w.page)) > 0);
    });
  });

  it('a later tag change uses the network as usual, at the canonical URL', async () => {
    await withWidget('good', '', async (w) => {
      await w.page.evaluate(() => {
        document.querySelector('hub-embed')!.tags = ['urgent', 'delivery'];
      });
      const lists = await waitFor(
        () => api(w.requests, 'published-list'),
        (list) => list.length === 1,
        'the list request for the new tags',
      );
      assert.equal(new URL(lists[0]!.split(' ')[1]!).searchParams.get('tags'), 'delivery,urgent');
    });
  });

  it('prefetched data for another selection: the widget asks the network for its list', async () => {
    await withWidget('other', 'delivery', async (w) => {
      assert.equal(api(w.requests, 'published-list').length, 1);
      assert.deepEqual(api(w.requests, 'published-tags'), []);
      assert.ok((await shownCount(w.page)) > 0);
    });
  });

  it('malformed prefetched data: the widget loads normally from the network', async () => {
    await withWidget('malformed', '', async (w) => {
      assert.equal(api(w.requests, 'published-tags').length, 1);
      assert.equal(api(w.requests, 'published-list').length, 1);
      assert.ok((await shownCount(w.page)) > 0);
      assert.equal(await w.page.locator('hub-embed [role="alert"]').count(), 0);
    });
  });
});

onlyInChromium("counts requests from Playwright's network log, a Chrome DevTools Protocol view (docs/engines.md)");
