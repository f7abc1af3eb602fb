// Screenshots of the simulator's console for docs/: `node scripts/console-screenshots.mjs`. Starts the
// simulator from the sources with a webhook receiver of its own, does a few things in the console (a
// key, a top-up and a transfer, a test deduct) and writes docs/console-<page>-light.png and -dark.png
// for each of its eight pages.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';
import { chromium } from 'playwright-core';
import { PLAYWRIGHT_CHROMIUM_ARGS, CHROMIUM_MISSING, findChromium } from './chromium.mjs';

const executablePath = findChromium();
if (!executablePath) throw new Error(CHROMIUM_MISSING);

const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true}');
  });
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const hook = `http://127.0.0.1:${receiver.address().port}/hook`;

const sim = spawn(
  process.execPath,
  [
    '--import',
    './scripts/ts-register.mjs',
    'packages/hub-embed-mock/src/cli.ts',
    '--api-port',
    '0',
    '--form-port',
    '0',
    '--quiet',
    '--webhook-url',
    hook,
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const { baseUrl } = JSON.parse(
  await new Promise((resolve) => createInterface({ input: sim.stdout }).once('line', resolve)),
);

const browser = await chromium.launch({ executablePath, args: PLAYWRIGHT_CHROMIUM_ARGS });
try {
  // Every page; the test comes before points, deliveries and requests, so that those have something to
  // show (a charge to refund, a delivery, requests).
  const shots = ['keys', 'test', 'points', 'deliveries', 'requests', 'webhooks', 'tables', 'clock'];
  for (const theme of ['light', 'dark']) {
    const context = await browser.newContext({
      viewport: { width: 1100, height: 720 },
      colorScheme: theme,
      locale: theme === 'dark' ? 'zh-CN' : 'en-US',
    });
    const page = await context.newPage();
    page.on('console', (m) => m.type() === 'error' && console.error('page:', m.text()));
    for (const name of shots) {
      await page.goto(`${baseUrl}/console/#${name}`);
      await page.locator('main h1').waitFor();
      if (name === 'keys' && theme === 'light') await page.locator('hub-console-keys button.primary').click();
      if (name === 'keys') await page.locator('hub-console-keys tbody tr').first().waitFor();
      if (name === 'points') {
        await page.locator('#top-up input[name=yuan]').fill('12.50');
        await page.locator('#top-up button').click();
        await page.locator('#transfer input[name=user]').fill('user-bob');
        await page.locator('#transfer input[name=yuan]').fill('3.00');
        await page.locator('#transfer button').click();
        await page.locator('#transfers tbody tr').first().waitFor();
        // The test's charge, in Alice's log, with its Refund button; refunded once in the light shot.
        await page.locator('#users tr[data-user="user-alice"] button').click();
        const refund = page.locator('#user-log tbody tr').filter({ hasText: 'deduct' }).first().locator('button');
        if (theme === 'light') {
          await refund.click();
          await page.locator('#user-log button', { hasText: 'Refunded' }).first().waitFor();
        } else await refund.waitFor();
      }
      if (name === 'test') {
        await page.locator('#test select').selectOption('billing_deduct');
        await page.locator('#test input[name=amount]').waitFor();
        await page.locator('#test button.primary').click();
        await page.locator('#decision').waitFor();
      }
      await page.waitForTimeout(150);
      await page.screenshot({ path: `docs/console-${name}-${theme}.png`, fullPage: name === 'points' });
      console.log(`docs/console-${name}-${theme}.png`);
    }
    await context.close();
  }
} finally {
  await browser.close();
  sim.kill('SIGTERM');
  receiver.close();
}
