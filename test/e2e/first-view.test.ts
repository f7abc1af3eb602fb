// renderFirstView's HTML in real Chromium with JavaScript disabled (issue 80, item 1): the declarative shadow
// DOM alone paints the filter and the cards, with no script of ours or the page's.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { startSimulator, type RunningSimulator } from '../../packages/hub-embed-mock/src/index.js';
import { createServerClient, createTokenHandler } from '../../src/server/index.js';
import { firstViewPage } from '../../examples/node-http/first-view.js';
import { launchBrowser } from './harness.js';
import { onlyInChromium } from './engines/index.js';

let mock: RunningSimulator;
let server: Server;
let origin: string;
let browser: Browser;
let token = '';

before(async () => {
  mock = await startSimulator({});
  // The page's token route; its lists are fetched with the page user's token, which the test reads as it goes out.
  const tokens = createTokenHandler({
    client: createServerClient({
      apiKey: mock.apiKey,
      baseUrl: mock.baseUrl,
      fetch: (input, init) => {
        token = new Headers(init?.headers).get('authorization')?.replace('Bearer ', '') ?? token;
        return fetch(input, init);
      },
    }),
    resolveClientUserId: () => 'first-view-e2e',
    prefetch: { cacheMs: 60_000 },
  });
  // docs/frameworks.md's node:http page, as written; its script is never run here.
  server = createServer(
    firstViewPage({
      tokens,
      element: { tokenEndpoint: '/api/hub-token', baseUrl: mock.baseUrl, formUrl: mock.formUrl, limit: 8 },
      script: '/hub-embed.iife.js',
    }),
  );
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

describe('the first view from the server, in Chromium with JavaScript disabled', () => {
  it('a page holding renderFirstView HTML paints the filter and the cards from declarative shadow DOM', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(origin);
      const cards = page.locator('hub-embed [part~="card"]');
      assert.equal(await cards.count(), 8);
      // Painted: laid out with a size, inside the viewport, styled by the element's own sheet (40px icons).
      const box = await cards.first().boundingBox();
      assert.ok(box && box.width > 0 && box.height > 0, 'the first card has a box');
      const icon = await page.locator('hub-embed [part~="icon"]').first().boundingBox();
      assert.equal(Math.round(icon!.width), 40);
      assert.ok((await page.locator('hub-embed [part~="chip"]').count()) > 1);
      assert.match((await page.locator('hub-embed [part~="count"]').textContent()) ?? '', /results/);
      assert.ok(!(await page.content()).includes(token), 'the token is not in the page');
    } finally {
      await context.close();
    }
  });
});

onlyInChromium('turns JavaScript off through a Playwright context, a Chrome DevTools Protocol setting');
