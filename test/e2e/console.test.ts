// The simulator's web console in real Chromium: each page loads under its strict CSP with no errors
// and axe finds nothing (light and dark, en and zh-CN); each page's main action is checked through the
// open API; keyboard users reach every page; and a page on another origin cannot drive the console.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { PAGES } from '../../packages/hub-embed-mock/src/console-ui/app.js';
import { startSimulator, type RunningSimulator } from '../../packages/hub-embed-mock/src/index.js';
import { ROOT, launchBrowser, waitFor } from './harness.js';
import { onlyInChromium } from './engines/index.js';

/** Waits until `probe` is true (a wait, never a speed assertion). */
function until(probe: () => Promise<boolean> | boolean, what = 'the console to show the outcome') {
  return waitFor(probe, (value) => value === true, what);
}

const AXE = readFileSync(`${ROOT}node_modules/axe-core/axe.min.js`, 'utf8');

let browser: Browser;
let mock: RunningSimulator;
let receiver: Server;
let hookUrl: string;
let answer = '{"ok":true}';
const received: { event: string; body: unknown }[] = [];
/** Serves the attacker's page for the cross-site test, on an origin of its own. */
let attackerOrigin: string;
let attackPage = '';

before(async () => {
  receiver = createServer((req, res) => {
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(attackPage);
      return;
    }
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      const body = JSON.parse(text) as { event: string };
      received.push({ event: body.event, body });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(answer);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  attackerOrigin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  hookUrl = `${attackerOrigin}/hook`;
  mock = await startSimulator({});
  mock.hub.setWebhooks([{ notification_url: hookUrl, billing_url: hookUrl }]);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await mock?.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

interface Opened {
  page: Page;
  context: BrowserContext;
  errors: string[];
}

async function open(name: string, options: { colorScheme?: 'light' | 'dark'; locale?: string } = {}): Promise<Opened> {
  const context = await browser.newContext({
    colorScheme: options.colorScheme ?? 'light',
    locale: options.locale ?? 'en-US',
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      console.error(`CSP: ${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  await page.goto(`${mock.baseUrl}/console/#${name}`);
  await page.locator('main h1').waitFor();
  await page.locator(`hub-console-${name} .status`).waitFor();
  return { page, context, errors };
}

async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern.
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const result = await (
      window as unknown as { axe: { run(): Promise<{ violations: { id: string; nodes: { target: unknown }[] }[] }> } }
    ).axe.run();
    return result.violations.map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
  });
}

async function consoleJson<T>(path: string, body?: unknown): Promise<T> {
  const res = await fetch(
    `${mock.baseUrl}${path}`,
    body === undefined
      ? {}
      : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) },
  );
  return ((await res.json()) as { data: T }).data;
}

async function openApi(path: string, init: RequestInit = {}) {
  const res = await fetch(`${mock.baseUrl}/api/v1/hub${path}`, init);
  return { status: res.status, body: (await res.json()) as { data: any } };
}

describe('simulator console in Chromium', () => {
  it('the page is served with a strict CSP that forbids inline script and framing', async () => {
    const res = await fetch(`${mock.baseUrl}/console/`);
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'self'/);
    assert.match(csp, /script-src 'self';/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.doesNotMatch(csp, /unsafe/);
    const redirect = await fetch(`${mock.baseUrl}/console`, { redirect: 'manual' });
    assert.equal(redirect.status, 308);
  });

  for (const [colorScheme, locale] of [
    ['light', 'en-US'],
    ['dark', 'zh-CN'],
  ] as const) {
    it(`every page loads without errors or CSP violations and axe finds nothing (${colorScheme}, ${locale})`, async () => {
      for (const name of PAGES) {
        const { page, context, errors } = await open(name, { colorScheme, locale });
        assert.equal(await page.evaluate(() => document.documentElement.lang), locale === 'zh-CN' ? 'zh-CN' : 'en');
        assert.deepEqual(await axeViolations(page), [], `axe on ${name}`);
        assert.deepEqual(errors, [], `errors on ${name}`);
        await context.close();
      }
    });
  }

  it('API keys: a key created in the console exchanges a token; disabled in the console, it is refused', async () => {
    const { page, context } = await open('keys');
    await page.getByRole('button', { name: 'Create key' }).click();
    const output = page.locator('#new-key');
    await output.waitFor();
    const key = (await output.textContent())!.trim();
    const id = (await output.getAttribute('data-key-id'))!;
    const exchange = () =>
      openApi('/apikeys/token', {
        method: 'POST',
        headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
        body: '{"client_user_id":"console-user"}',
      });
    assert.equal((await exchange()).status, 200);
    const row = page.locator(`tr[data-key-id="${id}"]`);
    assert.match((await row.textContent())!, new RegExp(`${key.slice(0, 8)}…${key.slice(-4)}`));
    assert.doesNotMatch((await page.locator('table').textContent())!, new RegExp(key));
    await page.getByRole('button', { name: `Disable ${id}` }).click();
    await until(async () => (await row.textContent())!.includes('disabled'));
    assert.equal((await exchange()).status, 401);
    await context.close();
  });

  it('Points: a top-up then a transfer moves exactly the points (pool and user, through the open API)', async () => {
    const pool0 = (await consoleJson<{ pool_cents: number }>('/console/points')).pool_cents;
    const { page, context } = await open('points');
    await page.locator('#top-up input[name=yuan]').fill('12.34');
    await page.locator('#top-up button').click();
    await until(async () =>
      (await page.locator('#pool').textContent())!.includes((pool0 + 1234).toLocaleString('en-US')),
    );
    await page.locator('#transfer input[name=user]').fill('user-carol');
    await page.locator('#transfer input[name=yuan]').fill('2.50');
    await page.locator('#transfer button').click();
    await page.locator('tr[data-user="user-carol"]').waitFor();
    assert.equal((await consoleJson<{ pool_cents: number }>('/console/points')).pool_cents, pool0 + 1234 - 250);
    const balance = await openApi('/points/users/balance?client_user_id=user-carol', {
      headers: { 'X-API-Key': mock.apiKey },
    });
    assert.equal(balance.body.data.balance_cents, 250);
    assert.match(
      (await page.locator('#transfers tbody tr').first().textContent())!,
      /user-carol.*¥2\.50 \(250 points\)/s,
    );
    await page.getByRole('button', { name: 'Show log user-carol' }).click();
    await page.locator('#user-log tbody tr').first().waitFor();
    assert.match((await page.locator('#user-log').textContent())!, /recharge/);
    assert.equal(mock.hub.ledger().balanced, true);
    await context.close();
  });

  it('Interface test: a deduct sent to a local receiver shows its request, its answer and the log record', async () => {
    answer = '{"ok":true}';
    const { page, context } = await open('test');
    await page.getByLabel('Event').selectOption('billing_deduct');
    await page.locator('#test input[name=amount]').waitFor();
    await page.locator('#test input[name=amount]').fill('1.50');
    await page.getByRole('button', { name: 'Send' }).click();
    const decision = page.locator('#decision');
    await decision.waitFor();
    const text = (await decision.textContent())!;
    assert.match(text, /Charged/);
    const recordId = Number(/#(\d+)/.exec(text)![1]);
    assert.match((await page.locator('#result pre.answer').textContent())!, /HTTP 200[\s\S]*\{"ok":true\}/);
    assert.match(
      (await page.locator('#result pre.request').textContent())!,
      /X-Webhook-Event: billing_deduct[\s\S]*"amount": "1\.50"/,
    );
    const logs = await openApi('/points/users/logs?client_user_id=user-alice', {
      headers: { 'X-API-Key': mock.apiKey },
    });
    assert.equal(logs.body.data.list[0].id, recordId);
    assert.match(logs.body.data.list[0].reason, /150 cents/);
    assert.equal(received.at(-1)!.event, 'billing_deduct');
    assert.deepEqual(await axeViolations(page), [], 'axe with a result shown');
    await context.close();
  });

  it('Webhooks: saved configurations are called in order; the outbound IPs are shown', async () => {
    const { page, context } = await open('webhooks');
    assert.match((await page.locator('#outbound-ips').textContent())!, /127\.0\.0\.1/);
    await page.getByRole('button', { name: 'Add configuration' }).click();
    await page.locator('fieldset').nth(1).getByLabel('Notification URL').fill(`${hookUrl}?second`);
    await page.getByRole('button', { name: 'Save' }).click();
    await until(async () => (await consoleJson<{ configs: unknown[] }>('/console/webhooks')).configs.length === 2);
    const before = received.length;
    await consoleJson('/console/trigger', { event: 'order_matched' });
    assert.equal(received.length, before + 2);
    mock.hub.setWebhooks([{ notification_url: hookUrl, billing_url: hookUrl }]);
    await context.close();
  });

  it('Deliveries: resend sends one again; Requests: the filter narrows the log', async () => {
    await consoleJson('/console/trigger', { event: 'order_grabbed' });
    const { page, context } = await open('deliveries');
    const before = received.length;
    const lastId = mock.hub.deliveries.at(-1)!.id;
    await page.getByRole('button', { name: `Resend ${lastId}` }).click();
    await until(() => received.length === before + 1);
    await page.locator(`tr[data-delivery-id="${lastId + 1}"]`).waitFor();
    await page.locator(`tr[data-delivery-id="${lastId + 1}"] summary`).click();
    assert.match(
      (await page.locator(`tr[data-delivery-id="${lastId + 1}"] pre.request`).textContent())!,
      /order_grabbed/,
    );
    assert.deepEqual(await axeViolations(page), [], 'axe with deliveries listed and one opened');
    await page.goto(`${mock.baseUrl}/console/#requests`);
    await page.locator('#filter input[name=status]').fill('401');
    await page.locator('#filter button').click();
    await until(async () => {
      const rows = await page.locator('#requests tbody tr').allTextContents();
      return rows.length > 0 && rows.every((r) => r.includes('401'));
    });
    await context.close();
  });

  it('Tables, clock and reset: unpublish, add, advance time (tokens expire), reset to the seed', async () => {
    const token = (
      await openApi('/apikeys/token', {
        method: 'POST',
        headers: { 'X-API-Key': mock.apiKey, 'Content-Type': 'application/json' },
        body: '{"client_user_id":"u"}',
      })
    ).body.data.access_token;
    const { page, context } = await open('tables');
    await page.getByRole('button', { name: 'Unpublish k3Xp9a' }).click();
    await page.getByRole('button', { name: 'Publish k3Xp9a' }).waitFor();
    await page.locator('#add-table input[name=short_code]').fill('console-added');
    await page.locator('#add-table input[name=name]').fill('Added in the console');
    await page.locator('#add-table input[name=industry]').fill('Testing');
    await page.locator('#add-table input[name=tags]').fill('console-zeta, 控制台');
    await page.locator('#add-table input[name=price]').fill('1.20');
    await page.getByRole('button', { name: 'Add a table' }).click();
    await until(async () => {
      const found = await openApi('/projects/published-list?tags=console-zeta&limit=1', {
        headers: { Authorization: `Bearer ${token}` },
      });
      return found.body.data.list[0]?.short_code === 'console-added';
    }, 'the added table in published-list');
    const list = await openApi('/projects/published-list', { headers: { Authorization: `Bearer ${token}` } });
    assert.equal(
      list.body.data.list.some((t: { short_code: string }) => t.short_code === 'k3Xp9a'),
      false,
    );
    await page.goto(`${mock.baseUrl}/console/#clock`);
    await page.getByRole('button', { name: 'Advance 1 d' }).click();
    await until(
      async () =>
        (await openApi('/projects/published-tags', { headers: { Authorization: `Bearer ${token}` } })).status === 401,
    );
    await page.locator('#reset').click();
    await until(async () => (await consoleJson<{ pool_cents: number }>('/console/points')).pool_cents === 1_000_000);
    assert.equal(mock.hub.tables(1, 100).list.find((t) => t.short_code === 'k3Xp9a')!.published, true);
    mock.hub.setWebhooks([{ notification_url: hookUrl, billing_url: hookUrl }]);
    mock.hub.clock.resume();
    await context.close();
  });

  it('keyboard: Tab reaches the nav, Enter opens the page and focus lands on its heading', async () => {
    const { page, context } = await open('keys');
    let found = false;
    for (let i = 0; i < 12 && !found; i++) {
      await page.keyboard.press('Tab');
      found = await page.evaluate(
        () => document.querySelector('hub-console')!.shadowRoot!.activeElement?.textContent?.trim() === 'Points',
      );
    }
    assert.ok(found, 'Tab reaches the Points link');
    await page.keyboard.press('Enter');
    await page.locator('hub-console-points').waitFor();
    await until(() =>
      page.evaluate(() => document.querySelector('hub-console')!.shadowRoot!.activeElement?.tagName === 'H1'),
    );
    await context.close();
  });

  it('a page on another origin cannot drive the console (cors, no-cors and form posts are refused; nothing changes)', async () => {
    const before = JSON.stringify([mock.hub.points(), mock.hub.keys()]);
    const base = mock.baseUrl;
    attackPage = `<!doctype html><html><body>
<form id="f" method="post" action="${base}/console/pool/top-up" enctype="text/plain" target="sink"><input name='{"yuan":1,"x":"' value='"}'></form>
<iframe name="sink"></iframe>
<script>
  window.results = [];
  const go = async () => {
    for (const init of [
      { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' },
      { method: 'POST', mode: 'no-cors', headers: { 'Content-Type': 'text/plain' }, body: '{}' },
    ]) {
      try { const r = await fetch('${base}/console/reset', init); results.push(r.type + ' ' + r.status); }
      catch (e) { results.push('blocked'); }
    }
    try { const r = await fetch('${base}/console/seed'); results.push('read ' + r.status); } catch (e) { results.push('read blocked'); }
    document.getElementById('f').submit();
    results.push('done');
  };
  go();
</script></body></html>`;
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${attackerOrigin}/attack`);
    await until(() => page.evaluate(() => (window as unknown as { results: string[] }).results.includes('done')));
    const results = await page.evaluate(() => (window as unknown as { results: string[] }).results);
    assert.deepEqual(results.slice(0, 3), ['blocked', 'opaque 0', 'read blocked']);
    await until(() => mock.hub.requestLog.some((e) => e.path === '/console/pool/top-up' && e.status === 403));
    const refused = mock.hub.requestLog.filter(
      (e) => e.path.startsWith('/console/') && e.method !== 'GET' && e.status >= 400,
    );
    assert.ok(refused.length >= 2);
    assert.equal(JSON.stringify([mock.hub.points(), mock.hub.keys()]), before);
    await context.close();
  });
});

onlyInChromium(
  "the simulator's own console pages are tooling, not the widget; they stay on Chromium (docs/engines.md)",
);
