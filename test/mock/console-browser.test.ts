// Console details in real Chromium (issue 29 item 9): a Refund button in a user's points log, webhook URL
// fields that show a whole URL, yuan with thousands separators, and key ids whose gaps are explained.
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
let receiver: Server;
let hook = '';
const received: { event: string; amount: string }[] = [];

beforeAll(async () => {
  if (!executablePath) return;
  // The developer's billing receiver: confirms every deduct and records what arrives.
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const event = JSON.parse(body);
      received.push({ event: event.event, amount: event.billing?.amount });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/hub-billing-and-notifications`;
  mock = await startSimulator();
  mock.hub.setWebhooks([{ notification_url: hook, billing_url: hook }]);
  browser = await chromium.launch({ executablePath, args: PLAYWRIGHT_CHROMIUM_ARGS });
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await mock?.close();
  await new Promise<void>((r) => (receiver ? receiver.close(() => r()) : r()));
});

async function open(name: string, locale = 'en-US'): Promise<Page> {
  const context = await browser.newContext({ locale, viewport: { width: 1100, height: 720 } });
  const page = await context.newPage();
  await page.goto(`${mock.baseUrl}/console/#${name}`);
  await page.locator('main h1').waitFor();
  return page;
}

describe.skipIf(!executablePath)('console details in Chromium', () => {
  it('a charge in a user’s points log has a Refund button: it refunds once, sends billing_refund, then shows Refunded', async () => {
    const charge = await mock.hub.trigger({ event: 'billing_deduct', clientUserId: 'user-alice', shortCode: 'k3Xp9a' });
    const logId = charge.decision!.record.id;
    const page = await open('points');
    await page.locator('#users tr[data-user="user-alice"] button').click();
    const row = page.locator('#user-log tbody tr').filter({ has: page.locator(`td:text-is("${logId}")`) });
    const refund = row.getByRole('button', { name: `Refund ${logId}` });
    await expect.poll(() => refund.isEnabled()).toBe(true);
    const before = received.length;
    await refund.click();
    await expect
      .poll(() => page.locator('hub-console-points [role=status]').textContent())
      .toMatch(new RegExp(`Refunded record ${logId}; billing_refund sent to 1 URL`));
    expect(received.slice(before)).toEqual([{ event: 'billing_refund', amount: '5.00' }]);
    const done = row.getByRole('button', { name: `Refunded ${logId}` });
    expect(await done.isDisabled()).toBe(true);
    expect(await page.locator('#user-log tbody tr').filter({ hasText: 'refund' }).count()).toBeGreaterThan(0);
    await page.context().close();
  }, 30_000);

  it('webhook URL fields show the whole URL, and stay inside a narrow page', async () => {
    const page = await open('webhooks');
    const input = page.locator('#webhooks input[name=billing_url]');
    await expect.poll(() => input.inputValue()).toBe(hook);
    const fits = (p: Page) =>
      p.$$eval('#webhooks input[type=url]', (inputs) =>
        inputs.map((i) => ({ scroll: i.scrollWidth, client: i.clientWidth, right: i.getBoundingClientRect().right })),
      );
    for (const field of await fits(page)) expect(field.scroll).toBeLessThanOrEqual(field.client);
    // A phone-sized page: each field then takes the page's width (the URL scrolls inside it), no more.
    await page.setViewportSize({ width: 420, height: 720 });
    const overflow = () =>
      page
        .locator('#webhooks input[type=url]')
        .evaluateAll((inputs) =>
          Math.max(...inputs.map((i) => i.getBoundingClientRect().right - document.documentElement.clientWidth)),
        );
    await expect.poll(overflow).toBeLessThanOrEqual(0);
    await page.context().close();
  }, 30_000);

  it('yuan have thousands separators beside the points, in English and Chinese', async () => {
    for (const [locale, pattern] of [
      ['en-US', /^¥\d{1,3}(,\d{3})+\.\d{2} \(\d{1,3}(,\d{3})+ points\)$/],
      ['zh-CN', /^¥\d{1,3}(,\d{3})+\.\d{2}（\d{1,3}(,\d{3})+ 积分）$/],
    ] as const) {
      const page = await open('points', locale);
      const pool = page.locator('#pool');
      await expect.poll(() => pool.textContent()).toMatch(pattern);
      await page.context().close();
    }
  }, 30_000);

  it('key ids that skip a number say why (another account’s key)', async () => {
    mock.hub.createApiKey();
    const page = await open('keys');
    await page.locator('hub-console-keys tbody tr[data-key-id="k5"]').waitFor();
    expect(await page.locator('#key-id-gap').textContent()).toMatch(/k4 belongs to another account/);
    await page.context().close();
  }, 30_000);
});
