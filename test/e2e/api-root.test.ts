// The whole flow under the real deployment's API root, /api/v1/apihub (issue 43): the simulator serves its
// open API there only (apiPrefix), and every caller is given `…/api/v1/apihub` as its base URL: the built
// <script> bundle's <hub-embed base-url> in Chromium, the server client (token, points), the token handler
// with and without prefetch, the form with a JWT in its URL, and a webhook the form's Pay sends. No request
// the simulator receives may hold the prefix twice, and the tokens are JWTs end to end.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startSimulator, type RunningSimulator } from '../../packages/hub-embed-mock/src/index.js';
import {
  createServerClient,
  createTokenHandler,
  createWebhookHandler,
  toNodeListener,
  type BillingDeductEvent,
  type ServerClient,
} from '../../src/server/index.js';
import { DEPLOYMENT_API_PREFIX, JWT_SHAPE, WEBHOOK_TIMESTAMP_SHAPE } from '../fixtures/service-examples.js';
import { BUNDLE, DIST, launchBrowser, waitFor } from './harness.js';
import { onlyInChromium } from './engines/index.js';
import { firstViewWriter, pageTokens, sendPage, SERVER_FIRST_VIEWS } from './server-first-views.js';

const USER = 'user-alice';

let mock: RunningSimulator;
let client: ServerClient;
let server: Server;
let origin: string;
let browser: Browser;
const deducts: BillingDeductEvent[] = [];
/** Paths and queries of every request the simulator's API site received, in order. */
const received: string[] = [];

before(async () => {
  mock = await startSimulator({
    apiPrefix: DEPLOYMENT_API_PREFIX,
    onRequest: (entry) => {
      if (entry.site === 'api') received.push(`${entry.method} ${entry.path} ${entry.status}`);
    },
  });
  client = createServerClient({ apiKey: mock.apiKey, baseUrl: mock.apiUrl });
  const resolveClientUserId = () => USER;
  const plain = toNodeListener(createTokenHandler({ client, resolveClientUserId }));
  const prefetchingTokens = createTokenHandler({ client, resolveClientUserId, prefetch: true });
  const prefetching = toNodeListener(prefetchingTokens);
  // With HUB_FIRST_VIEW=server, the page comes with the server's first view (server-first-views.ts): drawn
  // through the prefetching route itself, which the page shares, or one of its own beside the plain route.
  const viewTokens = pageTokens({ apiKey: mock.apiKey, baseUrl: mock.apiUrl }, resolveClientUserId);
  const writeFirstViews = SERVER_FIRST_VIEWS
    ? firstViewWriter((endpoint) => (endpoint === '/token-prefetch' ? prefetchingTokens : viewTokens))
    : undefined;
  const receiver = createWebhookHandler({
    allowIps: ['127.0.0.1', '::1'],
    refunds: 'decline',
    onBillingDeduct: (event) => {
      deducts.push(event);
      return true;
    },
  });
  const webhooks = toNodeListener((request, info) => receiver(request, { remoteAddress: info.remoteAddress }));
  if (!existsSync(BUNDLE)) throw new Error(`${BUNDLE} is missing: run \`npm run build\` first.`);
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/token') return void plain(req, res);
    if (url.pathname === '/token-prefetch') return void prefetching(req, res);
    if (url.pathname === '/webhooks') return void webhooks(req, res);
    // The built bundle and the form half it loads on intent, beside it; plain file names only.
    const file = /^\/dist\/([\w.-]+\.js)$/.exec(url.pathname)?.[1];
    if (file && existsSync(join(DIST, file))) {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      return void res.end(readFileSync(join(DIST, file)));
    }
    if (url.pathname === '/') {
      const endpoint = url.searchParams.get('endpoint') === 'prefetch' ? '/token-prefetch' : '/token';
      const html = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script>window.__ready = 0; document.addEventListener('hub-ready', () => window.__ready++);</script>
<script src="/dist/hub-embed.iife.js"></script></head><body>
<hub-embed token-endpoint="${endpoint}" base-url="${mock.apiUrl}" form-url="${mock.formUrl}" locale="en"></hub-embed>
</body></html>`;
      return void sendPage(res, { html, headers: {} }, req, writeFirstViews);
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  mock.hub.setWebhooks([{ billing_url: `${origin}/webhooks` }]);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  await mock?.close();
});

interface Seen {
  page: Page;
  /** Every request the page made: method, URL and Authorization header. */
  requests: { method: string; url: string; authorization: string | undefined }[];
  /** The access tokens the page's token endpoint gave it. */
  tokens: string[];
}

/** A cold page in a fresh context, until hub-ready; closed whatever happens. */
async function withPage(endpoint: 'plain' | 'prefetch', check: (seen: Seen) => Promise<void>): Promise<void> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const seen: Seen = { page, requests: [], tokens: [] };
    page.on('request', (request) =>
      seen.requests.push({
        method: request.method(),
        url: request.url(),
        authorization: request.headers().authorization,
      }),
    );
    page.on('response', async (response) => {
      if (!/\/token(-prefetch)?$/.test(new URL(response.url()).pathname)) return;
      const body = (await response.json().catch(() => ({}))) as { access_token?: string };
      if (body.access_token) seen.tokens.push(body.access_token);
    });
    await page.goto(`${origin}/?endpoint=${endpoint}`);
    await waitFor(
      () => page.evaluate(() => (window as unknown as { __ready: number }).__ready),
      (count) => count === 1,
      'hub-ready',
    );
    await check(seen);
  } finally {
    await context.close();
  }
}

/** Names on the cards, in grid order. */
const cardNames = (page: Page) => page.locator('hub-embed [part="name"]').allTextContents();

/** No request the simulator received holds /api/v… twice, and every API call went under /api/v1/apihub. */
function assertNoDoubledPrefix(): void {
  const doubled = received.filter((line) => (line.match(/\/api\/v\d+\//g) ?? []).length > 1);
  assert.deepEqual(doubled, [], 'no URL the simulator received holds the prefix twice');
  const api = received.filter((line) => line.includes('/api/'));
  assert.ok(api.length > 0);
  const elsewhere = api.filter((line) => !line.split(' ')[1]!.startsWith('/api/v1/apihub/'));
  assert.deepEqual(elsewhere, [], 'every API request went under /api/v1/apihub');
  assert.deepEqual(
    received.filter((line) => line.endsWith(' 404')),
    [],
    'no request of the flow missed an endpoint',
  );
}

describe('base-url …/api/v1/apihub against the simulator served there', () => {
  it('the widget shows the cards, asks under the root with a JWT Bearer, and opens a form whose URL carries the JWT', async () => {
    await withPage('plain', async ({ page, requests, tokens }) => {
      const expected = (await client.publishedList((await client.exchangeToken(USER)).accessToken)) as {
        name: string;
      }[];
      await waitFor(
        () => cardNames(page),
        (names) => JSON.stringify(names) === JSON.stringify(expected.map((table) => table.name)),
        'the cards of the simulator answer',
      );
      const api = requests.filter((request) => request.url.startsWith(`${mock.baseUrl}/api/`));
      assert.ok(api.some((request) => request.url === `${mock.apiUrl}/projects/published-tags`));
      assert.ok(api.some((request) => request.url.startsWith(`${mock.apiUrl}/projects/published-list`)));
      const gets = api.filter((request) => request.method === 'GET');
      assert.ok(gets.length >= 2);
      assert.equal(tokens.length, 1);
      const [token] = tokens as [string];
      assert.match(token, JWT_SHAPE);
      assert.ok(token.length >= 280, `a token of a real length (${token.length})`);
      for (const request of gets) assert.equal(request.authorization, `Bearer ${token}`, request.url);

      // Open the first table's form: the iframe's URL carries the JWT, and the form site takes it.
      await page.locator('hub-embed [part="card"]').first().click();
      const iframe = page.locator('hub-embed hub-form-frame iframe');
      const src = await waitFor(
        () => iframe.getAttribute('src'),
        (value): value is string => typeof value === 'string' && value.startsWith(mock.formUrl),
        'the form iframe',
      );
      const formUrl = new URL(src);
      assert.equal(formUrl.searchParams.get('token'), token);
      assert.equal(formUrl.search, `?token=${token}`, 'the JWT needs no encoding: . - _ are unreserved');
      const frame = page.frameLocator('hub-embed hub-form-frame iframe');
      assert.equal(await frame.locator('#user').textContent(), USER);

      // A Pay sends billing_deduct to the developer's receiver, which takes it (timestamp +08:00).
      const before = deducts.length;
      const deliveriesBefore = mock.hub.deliveries.length;
      await frame.locator('button[part="pay"]').click();
      await waitFor(
        () => deducts.length,
        (count) => count > before,
        'the billing_deduct webhook',
      );
      const deduct = deducts.at(-1)!;
      assert.equal(deduct.clientUserId, USER);
      assert.match(deduct.timestampText, WEBHOOK_TIMESTAMP_SHAPE);
      assert.equal(deduct.timestampOffsetMinutes, 480);
      // The simulator records the delivery once the receiver's answer is in, a moment after its handler ran.
      const delivery = await waitFor(
        () => mock.hub.deliveries[deliveriesBefore],
        (recorded) => recorded !== undefined,
        "the simulator's record of the delivery",
      );
      assert.equal(delivery.outcome, 'delivered');
      assert.equal(delivery.ok, true);
    });
    assertNoDoubledPrefix();
  });

  it("the token handler's prefetch answers under the paths the widget asks for: no browser GET, the same cards", async () => {
    const before = received.length;
    await withPage('prefetch', async ({ page, requests }) => {
      const gets = requests.filter((request) => request.url.startsWith(`${mock.apiUrl}/projects/`));
      assert.deepEqual(gets, [], 'the prefetched answers were used');
      assert.ok((await cardNames(page)).length > 20);
    });
    // The handler did fetch them, server-side, under the root.
    const fetched = received.slice(before).map((line) => line.split(' ').slice(0, 2).join(' '));
    assert.ok(fetched.includes('GET /api/v1/apihub/projects/published-tags'), fetched.join('\n'));
    assert.ok(fetched.some((line) => line.startsWith('GET /api/v1/apihub/projects/published-list')));
    assertNoDoubledPrefix();
  });

  it('the server client: token, points balance, recharge and logs under the root', async () => {
    const before = received.length;
    assert.equal(client.apiRoot, mock.apiUrl);
    const { accessToken, expiresIn } = await client.exchangeToken(USER);
    assert.match(accessToken, JWT_SHAPE);
    assert.equal(expiresIn, 7200);
    const balance = await client.balance(USER);
    const recharged = await client.recharge({ clientUserId: USER, amountCents: 250, externalOrderId: 'apihub-e2e-1' });
    assert.equal(recharged.userBalanceCents, balance.balanceCents + 250);
    const logs = await client.logs(USER, { pageSize: 5 });
    assert.equal(logs.list[0]!.recordType, 'recharge');
    // Only the API's requests: a page of the tests before may still be loading its lazy icons (/static/).
    assert.deepEqual(
      received
        .slice(before)
        .map((line) => line.split(' ').slice(0, 2).join(' '))
        .filter((line) => line.includes(' /api/')),
      [
        'POST /api/v1/apihub/apikeys/token',
        'GET /api/v1/apihub/points/users/balance',
        'POST /api/v1/apihub/points/users/recharge',
        'GET /api/v1/apihub/points/users/logs',
      ],
    );
    assertNoDoubledPrefix();
  });

  it("the spec's /api/v1/hub is not served here, so a client that appended it would have failed loudly", async () => {
    const response = await fetch(`${mock.baseUrl}/api/v1/hub/projects/published-tags`);
    assert.equal(response.status, 404);
    assert.match(((await response.json()) as { message: string }).message, /under \/api\/v1\/apihub\//);
  });
});

onlyInChromium("the prefix is the same in every engine; this file reads Playwright's network log (docs/engines.md)");
