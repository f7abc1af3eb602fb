// The form page in real Chromium, framed by a page of another origin: it must tell that parent, and
// only that origin, about load / submit / charge, and its CSP must not block its own script.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAYWRIGHT_CHROMIUM_ARGS, CHROMIUM_MISSING, findTestChromium } from '../../scripts/chromium.mjs';
import { startSimulator, type RunningSimulator } from '../../packages/hub-embed-mock/src/node.js';

const executablePath = findTestChromium();
if (!executablePath && process.env.HUB_REQUIRE_BROWSER === '1') throw new Error(CHROMIUM_MISSING);

let browser: Browser;
let mock: RunningSimulator;
let parent: Server;
let parentOrigin: string;

beforeAll(async () => {
  if (!executablePath) return;
  mock = await startSimulator();
  // The parent page takes the iframe URL from its own query, so each test frames a different form.
  parent = createServer((req, res) => {
    const src = new URL(req.url ?? '/', 'http://x').searchParams.get('src') ?? '';
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(
      `<!doctype html><link rel="icon" href="data:,"><script>window.messages=[];addEventListener('message',e=>messages.push({origin:e.origin,data:e.data}));</script>` +
        `<iframe id="f" src="${src.replace(/"/g, '&quot;')}" width="600" height="500"></iframe>`,
    );
  });
  await new Promise<void>((r) => parent.listen(0, '127.0.0.1', () => r()));
  parentOrigin = `http://localhost:${(parent.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath, args: PLAYWRIGHT_CHROMIUM_ARGS });
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await mock?.close();
  await new Promise<void>((r) => (parent ? parent.close(() => r()) : r()));
});

async function token(user: string): Promise<string> {
  const res = await fetch(`${mock.baseUrl}/api/v1/hub/apikeys/token`, {
    method: 'POST',
    headers: { 'X-API-Key': mock.apiKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({ client_user_id: user }),
  });
  return (await res.json()).data.access_token;
}

async function framed(code: string, tok: string): Promise<Page> {
  const page = await browser.newPage();
  const src = `${mock.formUrl}/${encodeURIComponent(code)}?token=${encodeURIComponent(tok)}`;
  await page.goto(`${parentOrigin}/?src=${encodeURIComponent(src)}`);
  return page;
}

/**
 * The form's outcome messages, in order. Its height reports (type 'height', whenever its content resizes)
 * are left out: test/e2e/form-height.test.ts checks those.
 */
async function messages(page: Page, count: number): Promise<{ origin: string; data: any }[]> {
  await page.waitForFunction(
    (n) => (window as any).messages.filter((message: any) => message.data?.type !== 'height').length >= n,
    count,
    { timeout: 10_000 },
  );
  return page.evaluate(() => (window as any).messages.filter((message: any) => message.data?.type !== 'height'));
}

describe.skipIf(!executablePath)('form page in Chromium', () => {
  it('tag pills of Latin and CJK text put their text at the same height', async () => {
    if (!executablePath) return;
    const page = await browser.newPage();
    await page.goto(`${mock.formUrl}/Zq7m2L?token=${encodeURIComponent(await token('pills'))}`);
    const texts = await page.$$eval('.tags li', (items) =>
      items.map((item) => {
        const range = document.createRange();
        range.selectNodeContents(item);
        return { text: item.textContent, top: Math.round(range.getBoundingClientRect().top) };
      }),
    );
    expect(texts.map((text) => text.text)).toEqual(['renovation', '装修', 'interior']);
    // With line-height: normal each fallback font brought its own metrics: the Latin text sat 3px higher.
    for (const text of texts) expect(text.top, text.text ?? '').toBe(texts[1]!.top);
    await page.close();
  });

  it('posts load to the embedding origin with the decoded short code', async () => {
    const page = await framed('promo 2026/秋 ✨?#%+', await token('user-alice'));
    const [load] = await messages(page, 1);
    expect(load!.origin).toBe(mock.formUrl);
    expect(load!.data).toEqual({
      source: 'hub-form',
      type: 'load',
      shortCode: 'promo 2026/秋 ✨?#%+',
      ok: true,
      balanceCents: 5000,
    });
    await page.close();
  }, 30_000);

  it('posts submit and charge outcomes after the script-driven POSTs', async () => {
    const page = await framed('k3Xp9a', await token('user-bob'));
    await messages(page, 1);
    const frame = page.frameLocator('#f');
    await frame.locator('textarea').fill('hello 🙂');
    await frame.locator('form[data-action="submit"] button').click();
    await messages(page, 2);
    await frame.locator('form[data-action="charge"] button').click();
    const all = await messages(page, 3);
    expect(all[1]!.data).toMatchObject({ source: 'hub-form', type: 'submit', shortCode: 'k3Xp9a', ok: true });
    expect(all[2]!.data).toEqual({
      source: 'hub-form',
      type: 'charge',
      shortCode: 'k3Xp9a',
      ok: false,
      amountCents: 500,
      balanceCents: 0,
      reason: 'insufficient-points',
    });
    await expect.poll(() => frame.locator('#outcome').textContent()).toContain('not enough points');
    expect(mock.hub.submissions.at(-1)).toMatchObject({ clientUserId: 'user-bob', message: 'hello 🙂' });
    await page.close();
  }, 30_000);

  it('a bad token posts load with ok false and reason unauthorized', async () => {
    const page = await framed('k3Xp9a', 'at-bogus');
    const [load] = await messages(page, 1);
    expect(load!.data).toEqual({
      source: 'hub-form',
      type: 'load',
      shortCode: 'k3Xp9a',
      ok: false,
      reason: 'unauthorized',
    });
    await page.close();
  }, 30_000);

  it('opened top-level (not framed) it posts nothing and logs no CSP violations', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(`${mock.formUrl}/k3Xp9a?token=${encodeURIComponent(await token('user-alice'))}`);
    await expect.poll(() => page.locator('h1').textContent()).toBe('钢结构安装');
    expect(errors).toEqual([]);
    await page.close();
  }, 30_000);

  it('with a billing URL, the page text before and after a Pay names both balances: the app’s wallet paid, the points here stayed', async () => {
    // The developer's billing receiver: it takes every charge from its own wallet.
    const receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"ok":true}');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
    const billingUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/hub`;
    const setBillingUrls = (configs: object[]) =>
      fetch(`${mock.baseUrl}/console/webhooks`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ configs }),
      });
    expect((await setBillingUrls([{ billing_url: billingUrl }])).ok).toBe(true);
    try {
      const page = await framed('k3Xp9a', await token('user-alice'));
      await messages(page, 1);
      const frame = page.frames().find((f) => f.url().startsWith(mock.formUrl))!;
      const pointsLine = /Your points on this service: (¥[\d,.]+ \([\d,]+ points\))/;
      const before = await frame.locator('body').innerText();
      const points = pointsLine.exec(before)?.[1];
      expect(points, before).toBeDefined();
      expect(before).toContain(
        'Paid actions are charged by the app you came from, to its own wallet; your points here do not change.',
      );
      await frame.locator('form[data-action="charge"] button').click();
      await expect.poll(() => frame.locator('#outcome').textContent()).toMatch(/^Paid/);
      const after = await frame.locator('body').innerText();
      expect(after).toContain("Paid 5.00 yuan from the app's wallet; your points on this service did not change.");
      expect(pointsLine.exec(after)?.[1]).toBe(points);
      await page.close();
    } finally {
      await setBillingUrls([]);
      await new Promise<void>((r) => receiver.close(() => r()));
    }
  }, 30_000);

  it('framed, it follows the browser: dark and zh-CN with a dark zh-CN browser, light and English with a light en-US one', async () => {
    mock.hub.topUp({ yuan: 100 });
    mock.hub.transfer({ clientUserId: 'user-carol', amountCents: 1_000_000 });
    for (const [colorScheme, locale, lang] of [
      ['dark', 'zh-CN', 'zh-CN'],
      ['light', 'en-US', 'en'],
    ] as const) {
      const context = await browser.newContext({ colorScheme, locale });
      const page = await context.newPage();
      const src = `${mock.formUrl}/k3Xp9a?token=${encodeURIComponent(await token('user-carol'))}`;
      await page.goto(`${parentOrigin}/?src=${encodeURIComponent(src)}`);
      await messages(page, 1);
      const frame = page.frames().find((f) => f.url().startsWith(mock.formUrl))!;
      const look = await frame.evaluate(() => ({
        lang: document.documentElement.lang,
        background: getComputedStyle(document.body).backgroundColor,
      }));
      expect(look.lang).toBe(lang);
      // The background's brightness: Canvas is near black in dark, white in light.
      const [r = 0, g = 0, b = 0] = look.background.match(/\d+/g)!.map(Number);
      if (colorScheme === 'dark') expect(r + g + b).toBeLessThan(150);
      else expect(r + g + b).toBeGreaterThan(600);
      const balance = frame.locator('#balance');
      expect(await balance.textContent()).toBe(
        lang === 'zh-CN' ? '¥10,000.00（1,000,000 积分）' : '¥10,000.00 (1,000,000 points)',
      );
      // The page script writes the new balance in the page's language and format.
      await frame.locator('form[data-action="charge"] button').click();
      await expect
        .poll(() => balance.textContent())
        .toBe(lang === 'zh-CN' ? '¥9,995.00（999,500 积分）' : '¥9,995.00 (999,500 points)');
      expect(await frame.locator('#outcome').textContent()).toBe(
        lang === 'zh-CN' ? '已从你在本服务的积分支付 5.00 元。' : 'Paid 5.00 yuan from your points on this service.',
      );
      await context.close();
      mock.hub.transfer({ clientUserId: 'user-carol', amountCents: 500 });
    }
  }, 60_000);
});
