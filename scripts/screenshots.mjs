// Takes the README's screenshots of the demo page: `node scripts/screenshots.mjs [url]` (starts the demo
// itself when no URL is given). Writes docs/demo-light.png (desktop, after a paid action),
// docs/demo-dark.png (desktop, a form open in the side sheet after a declined one) and
// docs/demo-mobile.png (375 px wide).
import { spawn } from 'node:child_process';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_MISSING, findChromium } from './chromium.mjs';

const executablePath = findChromium();
if (!executablePath) throw new Error(CHROMIUM_MISSING);

let url = process.argv[2];
let demo;
if (!url) {
  demo = spawn('node', ['--import', './scripts/ts-register.mjs', 'demo/serve.ts'], {
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  url = await new Promise((resolve, reject) => {
    let out = '';
    demo.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /hub-embed demo:\s+(\S+)/.exec(out);
      if (match) resolve(match[1].replace(/\/$/, ''));
    });
    demo.on('exit', () => reject(new Error(`demo exited:\n${out}`)));
  });
}

/** Opens the demo as `user` (each shot its own wallet), with the given settings, and waits for the grid. */
async function open(browser, { user, theme, locale, viewport }) {
  const context = await browser.newContext({ viewport, colorScheme: theme });
  const page = await context.newPage();
  page.on('console', (message) => message.type() === 'error' && console.error('page:', message.text()));
  await page.goto(`${url}/?theme=${theme}&locale=${locale}&open-mode=modal`);
  await page.locator('hub-embed hub-table-card').first().waitFor();
  if ((await page.locator('#user').inputValue()) !== user) {
    await Promise.all([page.waitForEvent('load'), page.locator('#user').selectOption(user)]);
    await page.locator('hub-embed hub-table-card').first().waitFor();
  }
  return { context, page };
}

/** Presses Pay on the table named `name` and waits until the points panel has told the outcome. */
async function pay(page, name) {
  await page.locator('hub-embed hub-table-card', { hasText: name }).locator('[part~="card"]').click();
  const form = page.frameLocator('hub-embed hub-form-frame iframe');
  await form.locator('form[data-action="charge"] button').click();
  await page.locator('#points-status', { hasText: 'Pay:' }).waitFor();
}

const settle = (page) => page.waitForTimeout(800); // icons and the next events poll

const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
try {
  {
    const { context, page } = await open(browser, {
      user: 'alice',
      theme: 'light',
      locale: 'zh-CN',
      viewport: { width: 1280, height: 860 },
    });
    await pay(page, 'Same-day City Delivery');
    await page.locator('hub-embed [part~="close"]').click();
    await settle(page);
    await page.screenshot({ path: 'docs/demo-light.png' });
    console.log('wrote docs/demo-light.png');
    await context.close();
  }
  {
    const { context, page } = await open(browser, {
      user: 'bob',
      theme: 'dark',
      locale: 'en',
      viewport: { width: 1280, height: 860 },
    });
    await pay(page, 'Home Nursing Care');
    await settle(page);
    await page.screenshot({ path: 'docs/demo-dark.png' });
    console.log('wrote docs/demo-dark.png');
    await context.close();
  }
  {
    const { context, page } = await open(browser, {
      user: 'carol',
      theme: 'light',
      locale: 'en',
      viewport: { width: 375, height: 812 },
    });
    await settle(page);
    await page.screenshot({ path: 'docs/demo-mobile.png' });
    console.log('wrote docs/demo-mobile.png');
    await context.close();
  }
} finally {
  await browser.close();
  demo?.kill('SIGTERM');
}
