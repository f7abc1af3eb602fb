// The widget's languages and direction on a real page: the built <script> bundle against the simulator,
// in Chromium. A page in another language than English loads the later half (which holds every table but
// English's) as the element connects, beside its token request, and shows nothing in English on the way to
// its cards; a page in English loads nothing more before hub-ready. With dir="rtl" the layout mirrors.
// Screenshots of each direction are written to test-results/ for a person to look at.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startSimulator, type RunningSimulator } from '../../packages/hub-embed-mock/src/index.js';
import { createServerClient, createTokenHandler, toNodeListener } from '../../src/server/index.js';
import { otherLocales } from '../../src/components/locales/other-locales.js';
import { stringsFor } from '../../src/components/strings.js';
import { PLAYWRIGHT_CHROMIUM_ARGS } from '../../scripts/chromium.mjs';
import { onlyInChromium } from './engines/index.js';
import { firstViewWriter, pageTokens, sendPage, SERVER_FIRST_VIEWS, withoutFirstView } from './server-first-views.js';
import { DIST, ROOT, requireChromium } from './harness.js';
import { readmeStyle } from '../../bench/lib/host-page.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const SHOTS = join(ROOT, 'test-results');

let mock: RunningSimulator;
let server: Server;
let origin = '';
let browser: Browser;
/** How late the later half's file is answered, in ms: long enough that the token's request goes out meanwhile. */
let chunkDelay = 0;
/** What the page's server saw, in order: the token request, and the later half asked for and sent. */
let seen: string[] = [];

/** Before the bundle: every text the widget shows, each frame, and the layout shifts. */
const WATCH = `<script>
  window.__texts = []; window.__shifts = 0; window.__ready = false;
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__shifts += e.value; })
    .observe({ type: 'layout-shift', buffered: true });
  const texts = (node, into) => {
    if (node.nodeType === 3 && node.textContent.trim()) into.push(node.textContent.trim());
    if (node.nodeType === 1) {
      for (const name of ['aria-label', 'title']) if (node.hasAttribute(name)) into.push(node.getAttribute(name));
      if (node.shadowRoot) texts(node.shadowRoot, into);
    }
    for (const child of node.childNodes) texts(child, into);
    return into;
  };
  const frame = () => {
    const el = document.querySelector('hub-embed');
    if (el) window.__texts.push(...texts(el, []));
    if (!window.__ready) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  // Whether the bundle had added the later half's script by hub-ready (its loader adds it to the head).
  document.addEventListener('hub-ready', () => {
    window.__laterBeforeReady = !!document.querySelector('script[src$="hub-embed.form.js"]');
    window.__ready = true;
  });
</script>`;

function pageFor(params: URLSearchParams): string {
  const lang = params.get('lang') ?? 'en';
  const dir = params.get('dir') ?? 'ltr';
  const attrs = params.get('element') ?? '';
  const tag = `<hub-embed token-endpoint="/api/hub-token" base-url="${mock.apiUrl}" form-url="${mock.formUrl}" theme="light" ${attrs}></hub-embed>`;
  return `<!doctype html><html lang="${lang}" dir="${dir}"><head><meta charset="utf-8"><link rel="icon" href="data:,">
<title>Tables</title><style>${readmeStyle()}</style>${WATCH}<script src="/hub-embed.iife.js" defer></script></head>
<body style="margin: 16px; font: 16px system-ui"><div style="width: 600px">${tag}</div><p>Below the widget.</p></body></html>`;
}

before(async () => {
  mock = await startSimulator();
  const client = createServerClient({ apiKey: mock.apiKey, baseUrl: mock.baseUrl });
  const tokens = toNodeListener(createTokenHandler({ client, resolveClientUserId: () => 'locales-e2e' }));
  // With HUB_FIRST_VIEW=server, each page comes with the server's first view (server-first-views.ts).
  const viewTokens = pageTokens(mock, () => 'locales-e2e');
  const writeFirstViews = SERVER_FIRST_VIEWS
    ? firstViewWriter((endpoint) => (endpoint === '/api/hub-token' ? viewTokens : undefined))
    : undefined;
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/api/hub-token') {
      seen.push('token requested');
      return void tokens(req, res);
    }
    if (/^\/hub-embed[\w.-]*\.js$/.test(url.pathname) && existsSync(join(DIST, url.pathname))) {
      const later = url.pathname.endsWith('.form.js');
      if (later) seen.push('later half requested');
      void sleep(later ? chunkDelay : 0).then(() => {
        if (later) seen.push('later half sent');
        res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'access-control-allow-origin': '*' });
        res.end(readFileSync(join(DIST, url.pathname)));
      });
      return;
    }
    void sendPage(res, { html: pageFor(url.searchParams), headers: {} }, req, writeFirstViews);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  browser = await chromium.launch({ executablePath: requireChromium(), args: PLAYWRIGHT_CHROMIUM_ARGS });
});

after(async () => {
  await browser?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await mock?.close();
});

/** A fresh page at `query`, once hub-ready is out; `seen` then holds this page's requests only. */
async function load(query: string): Promise<Page> {
  seen = [];
  const page = await browser.newPage({ viewport: { width: 700, height: 500 } });
  await page.goto(`${origin}/?${query}`);
  await page.waitForFunction('window.__ready === true', undefined, { timeout: 15_000 });
  return page;
}

const english = stringsFor('en');
const ENGLISH = [english.all, english.filter, english.tables, english.loading, 'results', 'matching'];

onlyInChromium('one engine shows the loading order and the mirrored layout; the component tests run the rules in two');

describe('locales on a <script> page (Chromium)', () => {
  it('a page in Japanese loads the later half as the element connects, beside its token request, and shows no English before its Japanese cards, with no layout shift', async () => {
    chunkDelay = 800;
    const page = await load('lang=ja');
    try {
      // The later half was asked for, and the token's request went out before it came: neither waited for the other.
      assert.ok(seen.indexOf('later half requested') >= 0, seen.join(', '));
      assert.ok(seen.indexOf('token requested') < seen.indexOf('later half sent'), seen.join(', '));
      assert.equal(await page.evaluate('window.__laterBeforeReady'), true);
      const shown: string[] = await page.evaluate('window.__texts');
      assert.deepEqual(
        shown.filter((text) => ENGLISH.some((word) => text.includes(word))),
        [],
      );
      const count = await page.locator('hub-embed [part="count"]').textContent();
      assert.match(count ?? '', /^\d+ 件の結果$/);
      assert.equal(await page.locator('hub-embed [part~="chip-all"]').textContent(), otherLocales.ja.all);
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      assert.equal(await page.evaluate('window.__shifts'), 0);
    } finally {
      chunkDelay = 0;
      await page.close();
    }
  });

  // Three tables: a list longer than the first screen loads the later half before hub-ready for the rest's
  // draw schedule (hub-table-grid.ts), in any language; a short one shows what the texts alone would load.
  it(
    'English pages load nothing more: with a first screen that holds every card, the later half is asked for only after hub-ready',
    { skip: withoutFirstView('over a view the later half loads at once, to hand the view over') },
    async () => {
      const page = await load(`lang=en&element=${encodeURIComponent('limit="3"')}`);
      try {
        assert.equal(await page.evaluate('window.__laterBeforeReady'), false);
        assert.equal(await page.locator('hub-embed [part~="chip-all"]').textContent(), english.all);
      } finally {
        await page.close();
      }
    },
  );

  /** The mean x, from 0 to 1 across the card, of the card's pixels in the icon placeholder's and the tags' surface colour. */
  async function surfaceCentre(page: Page): Promise<number> {
    const card = page.locator('hub-embed [part~="card"]').first();
    const shot = (await card.screenshot()).toString('base64');
    return page.evaluate(async (data) => {
      const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const context = canvas.getContext('2d')!;
      context.drawImage(bitmap, 0, 0);
      const { data: pixels, width, height } = context.getImageData(0, 0, bitmap.width, bitmap.height);
      let sum = 0;
      let count = 0;
      // The light theme's surface, #f6f8fa: the icon placeholder and the tags are drawn in it, the card is white.
      for (let y = 0; y < height; y++)
        for (let x = 0; x < width; x++) {
          const i = (y * width + x) * 4;
          if (pixels[i] === 0xf6 && pixels[i + 1] === 0xf8 && pixels[i + 2] === 0xfa) {
            sum += x;
            count++;
          }
        }
      return sum / count / width;
    }, shot);
  }

  /** Where the chips and the first card's icon and name sit, and a screenshot of the widget for a person to look at. */
  async function layout(query: string, name: string) {
    const page = await load(query);
    try {
      mkdirSync(SHOTS, { recursive: true });
      writeFileSync(join(SHOTS, `locales-${name}.png`), await page.locator('hub-embed').screenshot());
      const x = async (selector: string) => (await page.locator(selector).first().boundingBox())!.x;
      return {
        allChip: await x('hub-embed [part~="chip-all"]'),
        secondChip: await x('hub-embed [part~="chip"]:not([part~="chip-all"])'),
        icon: await x('hub-embed [part~="card"] [part~="icon-placeholder"], hub-embed [part~="card"] [part~="icon"]'),
        name: await x('hub-embed [part~="card"] [part~="name"]'),
        surface: await surfaceCentre(page),
      };
    } finally {
      await page.close();
    }
  }

  it('dir="rtl" mirrors the layout: chips run right to left and each card has its icon right of its text, on the page or on the element (screenshots)', async () => {
    const ltr = await layout('lang=en', 'ltr');
    assert.ok(ltr.allChip < ltr.secondChip, JSON.stringify(ltr));
    assert.ok(ltr.icon < ltr.name, JSON.stringify(ltr));
    assert.ok(ltr.surface < 0.5, JSON.stringify(ltr));
    for (const [query, name] of [
      ['lang=en&dir=rtl', 'rtl-page'],
      ['lang=en&element=dir%3D%22rtl%22', 'rtl-element'],
    ] as const) {
      const rtl = await layout(query, name);
      assert.ok(rtl.allChip > rtl.secondChip, `${name}: ${JSON.stringify(rtl)}`);
      assert.ok(rtl.icon > rtl.name, `${name}: ${JSON.stringify(rtl)}`);
      // From the pixels: the surface-coloured icon and tags sit in the card's right half.
      assert.ok(rtl.surface > 0.5, `${name}: ${JSON.stringify(rtl)}`);
    }
  });
});
