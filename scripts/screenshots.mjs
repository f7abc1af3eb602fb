// Takes the screenshots of the demo page: `npm run screenshots [-- url]` (starts the demo itself when no
// URL is given). Writes the README's docs/demo-light.png (desktop, after a paid action),
// docs/demo-dark.png (desktop, a form open in the side sheet after a declined one) and
// docs/demo-mobile.png (375 px wide), all in Chromium; then the same page in each engine, light and
// dark, at 1280 and 375 px, side by side in docs/engines/demo-<engine>-<theme>-<width>.png
// (docs/engines.md). SHOTS=readme or SHOTS=engines takes one set only.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { PLAYWRIGHT_CHROMIUM_ARGS, CHROMIUM_MISSING, findChromium } from './chromium.mjs';
import { LAUNCH } from '../test/e2e/engines/drivers.js';
import { EnginePage } from '../test/e2e/engines/page.js';

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
  await page.locator('hub-embed [part~="card"]').first().waitFor();
  if ((await page.locator('#user').inputValue()) !== user) {
    await Promise.all([page.waitForEvent('load'), page.locator('#user').selectOption(user)]);
    await page.locator('hub-embed [part~="card"]').first().waitFor();
  }
  return { context, page };
}

/** Presses Pay on the table named `name` and waits until the points panel has told the outcome. */
async function pay(page, name) {
  await page.locator('hub-embed [part~="card"]', { hasText: name }).click();
  const form = page.frameLocator('hub-embed hub-form-frame iframe');
  await form.locator('form[data-action="charge"] button').click();
  await page.locator('#points-status', { hasText: 'Pay:' }).waitFor();
}

const settle = (page) => page.waitForTimeout(800); // icons and the next events poll

/** Selects the tag chip `tag` and waits until the grid shows where the matching tables end. */
async function selectTag(page, tag) {
  await page.locator('hub-embed hub-tag-filter').getByRole('button', { name: tag, exact: true }).click();
  await page.locator('hub-embed [part="more"]').waitFor();
}

const desktop = { width: 1280, height: 860 };
const SHOTS = [
  {
    // The README's first picture: a tag selected (matching tables, the divider, the fill-ins) after a paid action.
    file: 'docs/demo-light.png',
    look: { user: 'alice', theme: 'light', locale: 'zh-CN', viewport: desktop },
    async act(page) {
      await pay(page, 'Same-day City Delivery');
      await page.locator('hub-embed [part~="close"]').click();
      await selectTag(page, 'delivery');
    },
  },
  {
    file: 'docs/demo-dark.png',
    look: { user: 'bob', theme: 'dark', locale: 'en', viewport: desktop },
    act: (page) => pay(page, 'Home Nursing Care'),
  },
  {
    file: 'docs/demo-mobile.png',
    look: { user: 'carol', theme: 'light', locale: 'en', viewport: { width: 375, height: 812 } },
    act: (page) => selectTag(page, 'delivery'),
  },
];

const sets = process.env.SHOTS ?? 'all';

async function readmeShots() {
  const browser = await chromium.launch({ executablePath, args: PLAYWRIGHT_CHROMIUM_ARGS });
  try {
    for (const { file, look, act } of SHOTS) {
      const { context, page } = await open(browser, look);
      await act(page);
      await settle(page);
      await page.screenshot({ path: file });
      console.log(`wrote ${file}`);
      await context.close();
    }
  } finally {
    await browser.close();
  }
}

/**
 * The demo with the delivery tag selected, in each engine, light and dark, 1280 and 375 px wide. WebKit's
 * MiniBrowser window cannot be 375 px wide (docs/engines.md#narrow-viewport): there the page is shown
 * in a 375 px frame of the same origin, which gives its layout a 375 px viewport, and only the frame is kept.
 */
async function engineShots() {
  mkdirSync('docs/engines', { recursive: true });
  for (const engine of (process.env.HUB_ENGINES || 'chromium,webkit,firefox').split(',')) {
    const browser = await LAUNCH[engine]();
    console.log(`engine: ${browser.version}`);
    try {
      for (const theme of ['light', 'dark']) {
        for (const width of [1280, 375]) {
          const height = width === 375 ? 812 : 860;
          const framed = engine === 'webkit' && width < 500;
          const page = new EnginePage(
            await browser.newPage(({ kind, text }) => kind !== 'warning' && console.error(`${engine} page: ${text}`), {
              viewport: framed ? { width: 800, height: height + 40 } : { width, height },
            }),
          );
          const path = `/?theme=${theme}&locale=en&open-mode=modal`;
          await page.goto(
            framed
              ? `${url}/__hub_engine__/narrow.html?width=${width}&height=${height}&src=${encodeURIComponent(path)}`
              : url + path,
          );
          const scope = framed ? page.frameLocator('#narrow') : page;
          await scope.locator('hub-embed [part~="card"]').first().waitFor();
          await scope
            .locator('hub-embed hub-tag-filter')
            .getByRole('button', { name: 'delivery', exact: true })
            .click();
          await scope.locator('hub-embed [part="more"]').waitFor();
          await new Promise((resolve) => setTimeout(resolve, 800)); // icons
          await scope.evaluate(() => scrollTo(0, 0)); // the chip's click may have scrolled: every shot from the top
          const file = `docs/engines/demo-${engine}-${theme}-${width}.png`;
          await page.screenshot({ path: file, ...(framed ? { selector: '#narrow' } : {}) });
          console.log(`wrote ${file}`);
          await page.close();
        }
      }
    } finally {
      await browser.close();
    }
  }
}

try {
  if (sets !== 'engines') await readmeShots();
  if (sets !== 'readme') await engineShots();
} finally {
  demo?.kill('SIGTERM');
}
