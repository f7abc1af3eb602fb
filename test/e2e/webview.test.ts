// demo/webview.html in Chromium, WebKit and Firefox (engines/): the host simulator embeds the widget page (parent-frame
// transport), supplies the token, opens forms in its native sheet, relays host-to-page requests, and
// hears the widget's events, including the form page's messages relayed as form.message.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import { describe, it } from 'node:test';
import { useDemo, waitFor, watchPage, type Watch } from './harness.js';
import { inEachEngine, type EnginePage as Page, type FrameLocator } from './engines/index.js';
import { XVFB_ARGS, XVFB_RUN } from './engines/drivers.js';

const e2e = useDemo();

const log = (page: Page) => page.locator('#log li').allTextContents();
const logHas = (page: Page, text: string, what = text) =>
  waitFor(
    () => log(page),
    (lines) => lines.some((line) => line.includes(text)),
    what,
  );
const widget = (page: Page): FrameLocator => page.frameLocator('#webview');
const status = (page: Page) => page.locator('#host-status').textContent();
const statusSays = (page: Page, text: string, what: string) =>
  waitFor(
    () => status(page),
    (line) => line === text,
    what,
  );

/**
 * Opens the host simulator for `test`, then checks what every page must hold (no API key leaked to the
 * browser, nothing thrown) and closes it, whatever the test did.
 */
async function withHost(test: (page: Page, watch: Watch) => Promise<void>): Promise<void> {
  const watch = await watchPage();
  try {
    await watch.page.goto(`${e2e.demo.url}/webview.html`);
    await test(watch.page, watch);
    assert.deepEqual(watch.leaks, [], 'no request carried the API key');
    assert.deepEqual(watch.pageErrors, [], 'nothing thrown');
  } finally {
    await watch.close();
  }
}

async function clickFirstCard(page: Page): Promise<void> {
  // Playwright's CSS engine pierces open shadow roots: hub-embed > hub-table-grid > each card's control.
  await widget(page).locator('[part~="card"]').first().click();
}

inEachEngine(() => {
  describe('demo/webview.html (host simulator)', () => {
    it('handshake over the parent frame; the token comes from the host, never from the widget page', async () => {
      await withHost(async (page, watch) => {
        await logHas(page, 'req bridge.hello');
        await logHas(page, 'platform":"demo-host');
        await logHas(page, 'req auth.getToken');
        await logHas(page, 'evt widget.ready');
        await waitFor(
          () => widget(page).locator('[part~="card"]').count(),
          (n) => n > 0,
          'cards in the widget',
        );
        const tokenRequests = watch.requests.filter((r) => r.url.endsWith('/api/hub-token'));
        // Only the host page (one fetch per auth.getToken) asks the backend for a token.
        assert.ok(tokenRequests.length >= 1);
        const child = await widget(page).evaluate(() => ({
          url: location.href,
          tokenFetches: performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/hub-token'))
            .length,
        }));
        assert.ok(child.url.endsWith('/webview-child.html'), 'the widget page is framed');
        assert.equal(child.tokenFetches, 0);
      });
    });

    it('form.open handled by the host: the form opens in the native sheet, not in the widget', async () => {
      await withHost(async (page) => {
        await logHas(page, 'evt widget.ready');
        await clickFirstCard(page);
        await logHas(page, 'evt table.selected');
        await logHas(page, '"handledBy":"host"', 'form.opened handled by the host');
        const src = await waitFor(
          () => page.locator('#sheet[open] #sheet-body iframe').getAttribute('src'),
          (value) => !!value,
          'the sheet iframe',
        );
        // The token only ever goes to the form site's origin.
        assert.equal(new URL(src!).origin, new URL(e2e.demo.formUrl).origin);
        assert.ok(new URL(src!).searchParams.get('token'));
        assert.equal(await widget(page).locator('hub-form-frame').count(), 0);
        // The form page reports to its parent, which here is the native app.
        await page.frameLocator('#sheet-body iframe').locator('#hub-form').waitFor();
        await logHas(page, 'sheet form:', 'a message from the form in the sheet');
        await page.locator('#sheet-close').click();
        await waitFor(
          () => page.locator('#sheet').getAttribute('open'),
          (open) => open === null,
          'the sheet to close',
        );
      });
    });

    it('host declines form.open: the widget opens the form; form.message relayed; form.close and widget.refresh from the host', async () => {
      await withHost(async (page) => {
        await logHas(page, 'evt widget.ready');
        await page.locator('input[name="native"]').uncheck();
        await clickFirstCard(page);
        await logHas(page, '"handledBy":"page"', 'form.opened handled by the page');
        await waitFor(
          () => widget(page).locator('hub-form-frame iframe').count(),
          (n) => n === 1,
          'the widget form frame',
        );
        // The form page inside the widget posts to the widget; the widget relays it, the host never hears the iframe itself.
        await logHas(page, 'evt form.message', 'the relayed form message');
        assert.equal(await page.locator('#sheet').getAttribute('open'), null);
        await page.locator('#close-form').click();
        await statusSays(page, 'form.close: ok {"closed":true}', 'form.close answered');
        await logHas(page, 'evt form.closed');
        await waitFor(
          () => widget(page).locator('hub-form-frame').count(),
          (n) => n === 0,
          'the widget form to close',
        );
        await page.locator('#refresh').click();
        await statusSays(page, 'widget.refresh: ok {}', 'widget.refresh answered');
        const tag = (await widget(page)
          .locator('hub-tag-filter [part~="chip"]:not([part~="chip-all"])')
          .first()
          .textContent())!.trim();
        await page.locator('#set-tags input').fill(tag);
        await page.locator('#set-tags button').click();
        await statusSays(page, 'widget.setTags: ok {}', 'widget.setTags answered');
        await waitFor(
          () => widget(page).locator('hub-tag-filter [aria-pressed="true"]').allTextContents(),
          (texts) => texts.map((t) => t.trim()).join() === tag,
          'the host-set tag pressed',
        );
      });
    });

    it('the native sheet is titled with the table name, not its short code', async () => {
      await withHost(async (page) => {
        await logHas(page, 'evt widget.ready');
        const name = (await widget(page).locator('[part~="name"]').first().textContent())!.trim();
        await clickFirstCard(page);
        await page.locator('#sheet[open]').waitFor();
        assert.equal(await page.locator('#sheet-title').textContent(), name);
        assert.equal(await page.locator('#sheet-body iframe').getAttribute('title'), `Form: ${name}`);
      });
    });

    it('the status line shows an answer the way the log does: {} where the log says {}, never null', async () => {
      await withHost(async (page) => {
        await logHas(page, 'evt widget.ready');
        await page.locator('#refresh').click();
        await statusSays(page, 'widget.refresh: ok {}', 'widget.refresh answered');
        const answer = (await log(page)).find((line) => /^← res ok #h\d+ \{\}$/.test(line));
        assert.ok(answer, 'the log shows the same answer as {}');
      });
    });

    it('the message log has room for numbers from 10 on, and the tags input room for a list of tags', async () => {
      await withHost(async (page) => {
        await logHas(page, 'evt widget.ready');
        for (let i = 0; i < 6; i++) await page.locator('#refresh').click();
        await waitFor(
          () => log(page),
          (lines) => lines.length >= 12,
          'a dozen log lines',
        );
        const room = await page.evaluate(() => {
          const list = document.getElementById('log')!;
          // The widest marker a 200-line log shows, in the list's own font.
          const probe = document.createElement('span');
          probe.textContent = '200. ';
          probe.style.font = getComputedStyle(list).font;
          probe.style.position = 'absolute';
          document.body.append(probe);
          const needed = probe.getBoundingClientRect().width;
          probe.remove();
          return { padding: parseFloat(getComputedStyle(list).paddingLeft), needed };
        });
        assert.ok(room.padding >= room.needed, `the list has ${room.padding}px for markers ${room.needed}px wide`);
        const input = await page.locator('#set-tags input').boundingBox();
        assert.ok(input!.width >= 200, `the tags input is ${input!.width}px wide`);
      });
    });
  });
});

// The WebKitWebDriver hang (docs/engines.md#webkit-hang): Xvfb, by default, resets when its last client
// leaves and refuses a client that connects meanwhile. In WebKit each page's MiniBrowser is the only
// client and the next one connects right after, so a refused MiniBrowser exited and the New Session
// never got an answer. This connects to the X server the WebKit layer starts (XVFB_ARGS) as a MiniBrowser
// would, again and again, each connection the only one; every one must be let in.
describe('the X server under WebKitWebDriver', () => {
  const skip =
    existsSync(XVFB_RUN) || process.env.HUB_REQUIRE_BROWSER ? false : 'needs xvfb-run (apt-get install xvfb)';

  it(
    'lets in a client that connects as the last one leaves (Xvfb -noreset): no "cannot open display"',
    { skip },
    async () => {
      const xvfb = spawn(
        XVFB_RUN,
        ['-a', '-s', XVFB_ARGS, '/bin/sh', '-c', 'echo "$DISPLAY $XAUTHORITY"; exec sleep 300'],
        {
          stdio: ['ignore', 'pipe', 'inherit'],
          detached: true,
        },
      );
      try {
        // The first line the command under xvfb-run prints: its display and its Xauthority file.
        const [line] = (await once(createInterface({ input: xvfb.stdout! }), 'line')) as [string];
        const [display, authority] = line.split(' ');
        const number = display!.replace(/^:/, '');
        const cookie = mitCookie(readFileSync(authority!), number);
        let refused = 0;
        const tries = 300;
        for (let i = 0; i < tries; i++) if (!(await opens(`/tmp/.X11-unix/X${number}`, cookie))) refused++;
        assert.equal(refused, 0, `${refused} of ${tries} connections to ${display} refused`);
      } finally {
        process.kill(-xvfb.pid!, 'SIGTERM');
      }
    },
  );
});

/** The MIT-MAGIC-COOKIE-1 for display `number` in an Xauthority file (entries of length-prefixed fields). */
function mitCookie(file: Buffer, number: string): Buffer {
  let at = 0;
  const field = () => {
    const length = file.readUInt16BE(at);
    const value = file.subarray(at + 2, at + 2 + length);
    at += 2 + length;
    return value;
  };
  while (at < file.length) {
    at += 2; // family
    field(); // address
    const entry = field().toString();
    const name = field().toString();
    const data = field();
    if (entry === number && name === 'MIT-MAGIC-COOKIE-1') return data;
  }
  throw new Error(`no MIT-MAGIC-COOKIE-1 for display ${number}`);
}

/** Sends an X11 connection setup (little-endian, protocol 11.0) and says whether the server accepted it. */
function opens(socket: string, cookie: Buffer): Promise<boolean> {
  const name = Buffer.from('MIT-MAGIC-COOKIE-1');
  const pad = (n: number) => (4 - (n % 4)) % 4;
  const setup = Buffer.alloc(12 + name.length + pad(name.length) + cookie.length + pad(cookie.length));
  setup.write('l', 0);
  setup.writeUInt16LE(11, 2);
  setup.writeUInt16LE(name.length, 6);
  setup.writeUInt16LE(cookie.length, 8);
  name.copy(setup, 12);
  cookie.copy(setup, 12 + name.length + pad(name.length));
  return new Promise((resolve) => {
    const client = connect(socket, () => client.write(setup));
    // The first byte of the answer: 1 is Success; 0 (Failed), 2 (Authenticate) or no answer is a refusal.
    client.once('data', (answer) => {
      client.destroy();
      resolve(answer[0] === 1);
    });
    client.once('error', () => resolve(false));
    client.once('close', () => resolve(false));
  });
}
