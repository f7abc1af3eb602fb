// The engines the end-to-end suites run in, and what each one cannot do. A test file runs its tests in
// each engine in turn (`inEachEngine`), one browser at a time, so the 2-core CI machine never holds
// two. HUB_ENGINES=chromium,webkit picks some (default: all three); with HUB_REQUIRE_BROWSER=1 (CI) an
// engine that is not installed fails instead of being skipped. A skip always names its reason.
import { after, before, describe } from 'node:test';
import { LAUNCH, missing, WEBKIT_NO_LOCALE, type DriverBrowser, type EngineName } from './drivers.js';

export { EnginePage, FrameLocator, Locator } from './page.js';
export type { DriverBrowser, EngineName } from './drivers.js';

export const ENGINES: readonly EngineName[] = ['chromium', 'webkit', 'firefox'];

export const ENGINE_LABEL: Record<EngineName, string> = {
  chromium: 'Chromium (playwright-core, CDP)',
  webkit: 'WebKit (WebKitGTK MiniBrowser, WebDriver classic)',
  firefox: 'Firefox (firefox-esr, WebDriver BiDi)',
};

/**
 * What an engine (or its driver) cannot do, each written up in docs/engines.md under the same name.
 * A test that needs one of these is skipped in the engines that lack it, with this text as the reason.
 */
export const LIMITS = {
  /**
   * Messages the browser itself logs (a Subresource Integrity refusal) reach Playwright through CDP's
   * Log domain. WebDriver classic has no console at all (the layer's recorder sees the page's own
   * console calls and errors), and WebDriver BiDi's log.entryAdded carries console calls and script
   * errors only.
   */
  'browser-console': {
    engines: ['webkit', 'firefox'] as EngineName[],
    reason:
      "the browser's own console messages (such as a Subresource Integrity refusal) cannot be read: WebDriver classic has no console, WebDriver BiDi's log.entryAdded carries only console calls and script errors (docs/engines.md#browser-console)",
  },
  /** MiniBrowser's window has a toolbar, and GTK will not make the window narrower than it. */
  'narrow-viewport': {
    engines: ['webkit'] as EngineName[],
    reason:
      "MiniBrowser's window cannot be narrower than its toolbar (447 px of viewport), so a 375 px phone viewport cannot be had (docs/engines.md#narrow-viewport)",
  },
  /** Scrollbars drawn over the content take no room, so there are no scrollbar pixels of their own to read. */
  'overlay-scrollbars': {
    engines: ['chromium', 'webkit'] as EngineName[],
    reason:
      'this engine draws overlay scrollbars in the tag toolbar, which take no room and show only while scrolling: no scrollbar pixels to read (docs/engines.md#overlay-scrollbars)',
  },
  /** WebDriver classic cannot set a page's language; WebKitGTK reads it from its environment at launch. */
  'browser-locale': {
    engines: ['webkit'] as EngineName[],
    reason: WEBKIT_NO_LOCALE,
  },
  /** puppeteer's emulateMediaFeatures is a DevTools Protocol call, which Firefox over WebDriver BiDi refuses. */
  'page-color-scheme': {
    engines: ['firefox'] as EngineName[],
    reason:
      "a page's colour scheme cannot be emulated: puppeteer's emulateMediaFeatures needs the DevTools Protocol, which Firefox over WebDriver BiDi does not speak (docs/engines.md#page-color-scheme)",
  },
  /** WebKit knows COEP require-corp only: a page that sends credentialless is not cross-origin isolated. */
  'coep-credentialless': {
    engines: ['webkit'] as EngineName[],
    reason:
      'WebKit has no Cross-Origin-Embedder-Policy: credentialless, so a page that sends it is not cross-origin isolated (docs/engines.md#coep-credentialless)',
  },
  'cdp-heap-profiler': {
    engines: ['webkit', 'firefox'] as EngineName[],
    reason: 'the heap profiler is a Chrome DevTools Protocol domain (docs/engines.md#cdp-heap-profiler)',
  },
} as const;

export type Limit = keyof typeof LIMITS;

/** The reason `engine` skips a test that needs what `limit` names, or false when it can run it. */
export function lacks(engine: EngineName, limit: Limit): string | false {
  const entry = LIMITS[limit];
  return (entry.engines as readonly EngineName[]).includes(engine) ? `${engine}: ${entry.reason}` : false;
}

/** The engines HUB_ENGINES selects (all by default). */
export function selectedEngines(env = process.env): EngineName[] {
  const wanted = (env.HUB_ENGINES ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = wanted.filter((name) => !ENGINES.includes(name as EngineName));
  if (unknown.length)
    throw new Error(`HUB_ENGINES names unknown engines: ${unknown.join(', ')} (known: ${ENGINES.join(', ')})`);
  return wanted.length ? (wanted as EngineName[]) : [...ENGINES];
}

let current: { engine: EngineName; browser: DriverBrowser } | undefined;

interface EngineFixture {
  setUp(): Promise<void>;
  tearDown(): Promise<void>;
}
const fixtures: EngineFixture[] = [];

/**
 * Something a file needs fresh in each engine (a simulator, the demo with its wallets): set up after
 * the engine's browser starts, torn down before it closes, so no engine sees another's leftovers.
 * Call it at the top of the file, before inEachEngine.
 */
export function perEngine(fixture: EngineFixture): void {
  fixtures.push(fixture);
}

/** The browser of the engine whose tests are running now. */
export function currentBrowser(): DriverBrowser {
  if (!current) throw new Error('No engine is running: call this inside inEachEngine(...)');
  return current.browser;
}

/**
 * Declares the tests of `body` once per engine, each engine in its own `describe('in <engine>')`
 * that starts the browser before its tests and closes it after. Engines HUB_ENGINES leaves out are
 * skipped by name; a missing one too, unless HUB_REQUIRE_BROWSER=1 makes that a failure.
 */
export function inEachEngine(
  body: (engine: EngineName) => void,
  options: { only?: readonly EngineName[]; why?: string } = {},
): void {
  const chosen = selectedEngines();
  for (const engine of ENGINES) {
    const absent = missing(engine);
    const skip = !chosen.includes(engine)
      ? `${engine}: not in HUB_ENGINES=${process.env.HUB_ENGINES}`
      : options.only && !options.only.includes(engine)
        ? `${engine}: ${options.why ?? 'this file runs in ' + options.only.join(', ') + ' only'}`
        : absent && process.env.HUB_REQUIRE_BROWSER !== '1'
          ? `${engine}: ${absent}`
          : false;
    describe(`in ${engine}`, { skip }, () => {
      before(async () => {
        const browser = await LAUNCH[engine]();
        current = { engine, browser };
        console.log(`# engine: ${browser.version} — ${ENGINE_LABEL[engine]}`);
        for (const fixture of fixtures) await fixture.setUp();
      });
      after(async () => {
        for (const fixture of [...fixtures].reverse()) await fixture.tearDown();
        const running = current;
        current = undefined;
        await running?.browser.close();
      });
      body(engine);
    });
  }
}

/**
 * For a file that stays on Chromium on purpose: says so in the output, once per other engine, with
 * the reason (a skip is never silent).
 */
export function onlyInChromium(why: string): void {
  for (const engine of ENGINES.filter((name) => name !== 'chromium'))
    describe(`in ${engine}`, { skip: `${engine}: ${why}` }, () => undefined);
}
