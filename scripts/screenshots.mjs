// Takes the README's screenshots of the demo page, light and dark: `node scripts/screenshots.mjs [url]`
// (starts the demo itself when no URL is given). Writes docs/demo-light.png and docs/demo-dark.png.
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

const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
try {
  for (const [theme, locale, file] of [
    ['light', 'zh-CN', 'docs/demo-light.png'],
    ['dark', 'en', 'docs/demo-dark.png'],
  ]) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 }, colorScheme: theme });
    page.on('console', (message) => message.type() === 'error' && console.error('page:', message.text()));
    await page.goto(`${url}/?theme=${theme}&locale=${locale}&open-mode=modal`);
    await page.locator('hub-embed hub-table-card').first().waitFor();
    await page.waitForTimeout(600); // icons and the points panel
    await page.screenshot({ path: file });
    console.log(`wrote ${file}`);
    await page.close();
  }
} finally {
  await browser.close();
  demo?.kill('SIGTERM');
}
