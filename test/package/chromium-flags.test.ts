// The flags every Playwright launch of Chromium gets (scripts/chromium.mjs): Chromium reads only the last
// --disable-features of its command line, so ours must hold every feature Playwright turns off too, and
// the omnibox's WebUI popup, which costs each browser context a renderer, must not load. And the headless
// shell the tests drive is the same build as the full browser the benchmarks measure.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHROMIUM_MISSING,
  PLAYWRIGHT_CHROMIUM_ARGS,
  UNSEEN_UI_FEATURES,
  findChromium,
  findTestChromium,
} from '../../scripts/chromium.mjs';

const executablePath = findChromium();
const testChromium = findTestChromium();
if (!executablePath && process.env.HUB_REQUIRE_BROWSER === '1') throw new Error(CHROMIUM_MISSING);

let browser: Browser;

beforeAll(async () => {
  if (executablePath) browser = await chromium.launch({ executablePath, args: PLAYWRIGHT_CHROMIUM_ARGS });
}, 30_000);

afterAll(async () => {
  await browser?.close();
});

/** The command line of the browser process this test started: a child of this process that Playwright drives over a pipe. */
function browserCommandLine(): string[] {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const parent = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1];
      if (Number(parent) !== process.pid) continue;
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (args.includes('--remote-debugging-pipe')) return args;
    } catch {
      // A process that ended while it was read.
    }
  }
  throw new Error(`no Chromium child of process ${process.pid} found in /proc`);
}

describe.skipIf(!executablePath || process.platform !== 'linux')('Chromium flags (scripts/chromium.mjs)', () => {
  it("Chromium reads one --disable-features, the last: it keeps every feature Playwright turns off, and the unseen UI's", () => {
    const lists = browserCommandLine()
      .filter((arg) => arg.startsWith('--disable-features='))
      .map((arg) => arg.slice('--disable-features='.length).split(','));
    // Playwright's own list, then ours: without ours last, this would test Playwright's alone.
    expect(lists.length).toBeGreaterThanOrEqual(2);
    const effective = lists.at(-1)!;
    for (const feature of [...lists.flat(), ...UNSEEN_UI_FEATURES]) expect(effective).toContain(feature);
  });

  it('a new browser context loads no omnibox popup (no browser_ui target beside the page)', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto('data:text/html,<h1>one page</h1>');
    const session = await browser.newBrowserCDPSession();
    // An empty filter entry lists every target type, the browser's own UI included.
    const { targetInfos } = await session.send('Target.getTargets', { filter: [{}] });
    await session.detach();
    await context.close();
    expect(targetInfos.filter((target) => target.type !== 'page' && target.type !== 'tab')).toEqual([]);
  });

  it('the tests drive the build the benchmarks measure: findTestChromium is the full browser’s version', () => {
    const build = (path: string) =>
      /\d+\.\d+\.\d+\.\d+/.exec(execFileSync(path, ['--version'], { encoding: 'utf8' }))?.[0];
    const full = build(executablePath!);
    expect(full).toBeDefined();
    expect(build(testChromium!)).toBe(full);
  });
});
