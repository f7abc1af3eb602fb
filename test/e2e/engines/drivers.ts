// The three drivers behind the layer, each reduced to the same few primitives: open a page, evaluate an
// expression in a frame, click at a point, press a key, type text, size the viewport, take a
// screenshot, set and read cookies. Everything else (selectors, waiting, actionability) is written
// once in page.ts on top of these, so a difference between engines is the engine's, not the layer's.
//   Chromium: playwright-core over CDP, as the suite always ran.
//   Firefox:  puppeteer-core over WebDriver BiDi (Debian's firefox-esr).
//   WebKit:   W3C WebDriver classic over HTTP to WebKitWebDriver, which starts WebKitGTK's MiniBrowser
//             under Xvfb (Debian's webkit2gtk-driver, xvfb).
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, statSync } from 'node:fs';
import { cp, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium as playwrightChromium, type Browser as PwBrowser, type Frame as PwFrame } from 'playwright-core';
import type { Browser as PpBrowser, Frame as PpFrame } from 'puppeteer-core';
import { PLAYWRIGHT_CHROMIUM_ARGS, CHROMIUM_MISSING, findTestChromium } from '../../../scripts/chromium.mjs';
import { freePort } from '../../free-port.js';
import { startProxy, type PageReport, type RecordingProxy } from './proxy.js';

export type EngineName = 'chromium' | 'firefox' | 'webkit';

export interface CookieInit {
  name: string;
  value: string;
  url: string;
  httpOnly?: boolean;
  sameSite?: 'Strict' | 'Lax' | 'None';
}

export interface NewPageOptions {
  viewport?: { width: number; height: number };
  colorScheme?: 'light' | 'dark';
  /**
   * The browser's language for this page (`navigator.language`), e.g. 'zh-CN'. Chromium and Firefox
   * only: WebDriver classic cannot set it (docs/engines.md#browser-locale).
   */
  locale?: string;
}

export interface DriverPage {
  goto(url: string): Promise<void>;
  url(): Promise<string>;
  /**
   * Evaluates `expression` in the frame reached through `frames` (each an expression that returns an
   * <iframe> element in the frame before it) and returns its JSON value.
   */
  evaluate(frames: string[], expression: string): Promise<unknown>;
  /** A mouse click at (x, y) of the top-level viewport. */
  click(x: number, y: number): Promise<void>;
  /**
   * Moves the mouse to (x, y) of the top-level viewport through a few points on the way, as a hand
   * would: the engine fires the pointer events of every element crossed, shadow boundaries included.
   */
  move(x: number, y: number): Promise<void>;
  /** A key press, Playwright key names ('Escape', 'Enter', 'Tab'). */
  press(key: string): Promise<void>;
  /** Types `text` into the focused element. */
  type(text: string): Promise<void>;
  /** Empties the field `element` (an expression in the frame reached through `frames`) and types `text` into it. */
  fill(frames: string[], element: string, text: string): Promise<void>;
  setViewport(width: number, height: number): Promise<void>;
  /** The viewport, or only the element `element` (an expression in the top frame) returns. */
  screenshot(element?: string): Promise<Buffer>;
  setCookie(cookie: CookieInit): Promise<void>;
  cookies(url: string): Promise<{ name: string; value: string }[]>;
  close(): Promise<void>;
}

export interface DriverBrowser {
  readonly engine: EngineName;
  /** Product and version, as the engine reports it. */
  readonly version: string;
  /** Every request of every page passes through it. */
  readonly proxy: RecordingProxy;
  /** A fresh page in a fresh profile or context (no cookies, no storage), reporting console and errors to `report`. */
  newPage(report: (report: PageReport) => void, options?: NewPageOptions): Promise<DriverPage>;
  close(): Promise<void>;
}

export const DEFAULT_VIEWPORT = { width: 1280, height: 720 };

/** The points a mouse move passes through on its way (one a frame, in the WebDriver engine). */
const MOVE_STEPS = 10;

// ---------------------------------------------------------------------------------------------------
// Chromium through playwright-core

async function frameAt<F>(root: F, frames: string[], step: (frame: F, expression: string) => Promise<F | null>) {
  let frame = root;
  for (const expression of frames) {
    const next = await step(frame, expression);
    if (!next) throw new Error(`no frame at ${expression.slice(0, 80)}`);
    frame = next;
  }
  return frame;
}

async function launchChromium(): Promise<DriverBrowser> {
  const executablePath = findTestChromium();
  if (!executablePath) throw new Error(CHROMIUM_MISSING);
  const proxy = await startProxy({ injectRecorder: false });
  let browser: PwBrowser;
  try {
    // Playwright sends loopback through the proxy too (it adds <-loopback> to the bypass list).
    browser = await playwrightChromium.launch({
      executablePath,
      args: PLAYWRIGHT_CHROMIUM_ARGS,
      proxy: { server: `http://127.0.0.1:${proxy.port}` },
    });
  } catch (error) {
    await proxy.close();
    throw error;
  }
  return {
    engine: 'chromium',
    version: `Chromium ${browser.version()}`,
    proxy,
    async newPage(report, options = {}) {
      const context = await browser.newContext({
        viewport: options.viewport ?? DEFAULT_VIEWPORT,
        ...(options.colorScheme ? { colorScheme: options.colorScheme } : {}),
        // navigator.language and Accept-Language both.
        ...(options.locale ? { locale: options.locale } : {}),
      });
      const page = await context.newPage();
      page.on('console', (message) => {
        const type = message.type();
        if (type === 'error' || type === 'warning')
          report({ kind: type, text: message.text(), where: message.location()?.url ?? '' });
      });
      page.on('pageerror', (error) => report({ kind: 'pageerror', text: error.message, where: page.url() }));
      const step = async (frame: PwFrame, expression: string) => {
        const handle = await frame.evaluateHandle(expression);
        const element = handle.asElement() as import('playwright-core').ElementHandle | null;
        const next = element ? await element.contentFrame() : null;
        await handle.dispose();
        return next;
      };
      return {
        goto: async (url) => void (await page.goto(url)),
        url: async () => page.url(),
        evaluate: async (frames, expression) => (await frameAt(page.mainFrame(), frames, step)).evaluate(expression),
        click: (x, y) => page.mouse.click(x, y),
        move: (x, y) => page.mouse.move(x, y, { steps: MOVE_STEPS }),
        press: (key) => page.keyboard.press(key),
        type: (text) => page.keyboard.insertText(text),
        async fill(frames, element, text) {
          const handle = (await (await frameAt(page.mainFrame(), frames, step)).evaluateHandle(element)).asElement();
          if (!handle) throw new Error(`no element at ${element.slice(0, 80)}`);
          await (handle as import('playwright-core').ElementHandle).fill(text);
        },
        setViewport: (width, height) => page.setViewportSize({ width, height }),
        async screenshot(element) {
          if (!element) return page.screenshot();
          const handle = (await page.mainFrame().evaluateHandle(element)).asElement();
          if (!handle) throw new Error(`no element at ${element.slice(0, 80)}`);
          return (handle as import('playwright-core').ElementHandle).screenshot();
        },
        setCookie: (cookie) => context.addCookies([cookie]),
        cookies: async (url) => (await context.cookies(url)).map(({ name, value }) => ({ name, value })),
        close: () => context.close(),
      };
    },
    async close() {
      await browser.close();
      await proxy.close();
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Firefox through puppeteer-core over WebDriver BiDi

export const FIREFOX_PATHS = ['/usr/bin/firefox-esr', '/usr/bin/firefox'];
export const FIREFOX_MISSING =
  'No Firefox found. Install one (Debian: `sudo apt-get install -y firefox-esr`) or set FIREFOX_PATH.';

/**
 * The oldest Firefox the suites run in. ESR 140 (Debian bookworm's main archive; the security archive has
 * 153) fails most of them: it has no Trusted Types, and its WebDriver BiDi knows neither
 * emulation.setScreenOrientationOverride (puppeteer's setViewport sends it) nor emulation.setLocaleOverride.
 */
export const FIREFOX_OLDEST = 153;
export const FIREFOX_TOO_OLD = (version: string) =>
  `${version} is too old for the end-to-end suites, which need Firefox ${FIREFOX_OLDEST} or later. Install it (Debian: \`sudo apt-get update && sudo apt-get install -y firefox-esr\`) or set FIREFOX_PATH.`;

export function findFirefox(env = process.env): string | undefined {
  if (env.FIREFOX_PATH) return existsSync(env.FIREFOX_PATH) ? env.FIREFOX_PATH : undefined;
  return FIREFOX_PATHS.find((path) => existsSync(path));
}

/** The part of puppeteer's BiDi browsing context that reaches its session (puppeteer-core 24). */
interface BidiContext {
  userContext: { id: string; browser: { session: { send(method: string, params: object): Promise<unknown> } } };
}

type Puppeteer = (typeof import('puppeteer-core'))['default'];

/** Starts Firefox headless on the profile at `userDataDir`, with its requests sent through `proxyPort`. */
function startFirefox(puppeteer: Puppeteer, executablePath: string, userDataDir: string, proxyPort: number) {
  return puppeteer.launch({
    browser: 'firefox',
    executablePath,
    userDataDir,
    headless: true,
    defaultViewport: DEFAULT_VIEWPORT,
    extraPrefsFirefox: {
      'network.proxy.type': 1,
      'network.proxy.http': '127.0.0.1',
      'network.proxy.http_port': proxyPort,
      'network.proxy.no_proxies_on': '',
      // Without this Firefox never sends 127.0.0.1 through a proxy.
      'network.proxy.allow_hijacking_localhost': true,
    },
  });
}

/**
 * A profile for one launch: a copy of a profile this Firefox has started once before. A new profile's
 * first start builds its caches and databases (a launch took 4.2 s on a new profile and 2.8 s on a copy,
 * on a quiet 2-core machine), and each end-to-end file launches Firefox again. The started profile is
 * kept in the temporary directory, one per Firefox build (path, size and time of the binary); puppeteer
 * writes this launch's preferences (the proxy port) into the copy. The caller removes the copy.
 */
async function firefoxProfile(puppeteer: Puppeteer, executablePath: string): Promise<string> {
  const { size, mtimeMs } = statSync(executablePath);
  const stamp = `${executablePath}-${size}-${Math.round(mtimeMs)}`.replace(/[^\w.-]/g, '_');
  const started = join(tmpdir(), `hub-embed-firefox-profile-${stamp}`);
  if (!existsSync(started)) {
    const fresh = await mkdtemp(join(tmpdir(), 'hub-embed-firefox-first-'));
    // Port 9 (discard): this start only builds the profile and loads no page.
    await (await startFirefox(puppeteer, executablePath, fresh, 9)).close();
    // Another process may have made it meanwhile; either copy serves.
    await rename(fresh, started).catch(() => rm(fresh, { recursive: true, force: true }));
  }
  const copy = await mkdtemp(join(tmpdir(), 'hub-embed-firefox-'));
  await cp(started, copy, { recursive: true });
  return copy;
}

async function launchFirefox(): Promise<DriverBrowser> {
  const executablePath = findFirefox();
  if (!executablePath) throw new Error(FIREFOX_MISSING);
  const { default: puppeteer } = await import('puppeteer-core');
  const proxy = await startProxy({ injectRecorder: false });
  let browser: PpBrowser;
  let profile: string | undefined;
  const removeProfile = () => (profile ? rm(profile, { recursive: true, force: true }) : undefined);
  try {
    profile = await firefoxProfile(puppeteer, executablePath);
    browser = await startFirefox(puppeteer, executablePath, profile, proxy.port);
  } catch (error) {
    await proxy.close();
    await removeProfile();
    throw error;
  }
  const version = (await browser.version()).replace('firefox/', 'Firefox ');
  if (Number.parseInt(version.replace(/^\D+/, ''), 10) < FIREFOX_OLDEST) {
    await browser.close();
    await proxy.close();
    await removeProfile();
    throw new Error(FIREFOX_TOO_OLD(version));
  }
  return {
    engine: 'firefox',
    version,
    proxy,
    async newPage(report, options = {}) {
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      await page.setViewport(options.viewport ?? DEFAULT_VIEWPORT);
      if (options.colorScheme)
        await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: options.colorScheme }]);
      if (options.locale) {
        // WebDriver BiDi's emulation.setLocaleOverride (navigator.language, Intl), for every frame of this
        // context; puppeteer has no method for it, so the command goes through its BiDi session.
        const { userContext } = (page.mainFrame() as unknown as { browsingContext: BidiContext }).browsingContext;
        await userContext.browser.session.send('emulation.setLocaleOverride', {
          locale: options.locale,
          userContexts: [userContext.id],
        });
      }
      page.on('console', (message) => {
        const type = message.type();
        if (type === 'error' || type === 'warn')
          report({
            kind: type === 'warn' ? 'warning' : 'error',
            text: message.text(),
            where: message.location()?.url ?? '',
          });
      });
      page.on('pageerror', (error) =>
        report({ kind: 'pageerror', text: error instanceof Error ? error.message : String(error), where: page.url() }),
      );
      const step = async (frame: PpFrame, expression: string) => {
        const handle = await frame.evaluateHandle(expression);
        const element = handle.asElement();
        const next = element ? await element.contentFrame() : null;
        await handle.dispose();
        return next;
      };
      return {
        goto: async (url) => void (await page.goto(url)),
        url: async () => page.url(),
        evaluate: async (frames, expression) => (await frameAt(page.mainFrame(), frames, step)).evaluate(expression),
        click: (x, y) => page.mouse.click(x, y),
        move: (x, y) => page.mouse.move(x, y, { steps: MOVE_STEPS }),
        press: (key) => page.keyboard.press(key as never),
        type: (text) => page.keyboard.type(text),
        async fill(frames, element, text) {
          const handle = (await (await frameAt(page.mainFrame(), frames, step)).evaluateHandle(element)).asElement();
          if (!handle) throw new Error(`no element at ${element.slice(0, 80)}`);
          await handle.evaluate((field) => {
            (field as HTMLInputElement).value = '';
            field.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
          });
          await handle.type(text);
        },
        setViewport: (width, height) => page.setViewport({ width, height }),
        async screenshot(element) {
          if (!element) return Buffer.from(await page.screenshot());
          const handle = (await page.mainFrame().evaluateHandle(element)).asElement();
          if (!handle) throw new Error(`no element at ${element.slice(0, 80)}`);
          return Buffer.from(await handle.screenshot());
        },
        setCookie: ({ url, ...cookie }) => context.setCookie({ ...cookie, domain: new URL(url).hostname, path: '/' }),
        cookies: async (url) =>
          (await context.cookies())
            .filter((cookie) => cookie.domain.replace(/^\./, '') === new URL(url).hostname)
            .map(({ name, value }) => ({ name, value })),
        close: () => context.close(),
      };
    },
    async close() {
      await browser.close();
      await proxy.close();
      await removeProfile();
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// WebKit through WebKitWebDriver (W3C WebDriver classic)

export const WEBKIT_DRIVER = '/usr/bin/WebKitWebDriver';
export const MINIBROWSER = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
export const XVFB_RUN = '/usr/bin/xvfb-run';
/**
 * xvfb-run's own screen, plus -noreset. By default Xvfb resets when its last client disconnects, and a
 * client that connects during the reset is refused. MiniBrowser is the only client: each page's session
 * ends with its MiniBrowser and the next one starts at once, so now and then the new MiniBrowser got
 * "cannot open display" and exited, and WebKitWebDriver, which does not notice, never answered the New
 * Session (docs/engines.md#webkit-hang).
 */
export const XVFB_ARGS = '-screen 0 1280x1024x24 -noreset';
/** What GTK prints when MiniBrowser (or its web process) cannot reach the X server. */
const X_DISPLAY_REFUSED = /cannot open display/;
/**
 * WebKitGTK without accelerated compositing. Xvfb has no GPU, so composited layers are drawn through
 * Mesa's llvmpipe, which compiles its shaders with LLVM in every new web process, and every page here
 * is a new MiniBrowser: the composited path cost a WebKit pass of widget.test.ts 46 to 75 s of CPU
 * against 38 to 42 s without it (2 cores, docs/engines.md, Driver workarounds). What the suites check
 * (the DOM, layout, events, frames, messages) does not depend on it, and iOS composites with Core
 * Animation, which neither path is.
 */
export const WEBKIT_ENV = { WEBKIT_DISABLE_COMPOSITING_MODE: '1' };
export const WEBKIT_MISSING =
  'No WebKitGTK WebDriver found. Install it (Debian: `sudo apt-get install -y webkit2gtk-driver xvfb`).';

export function findWebKit(): string | undefined {
  return [WEBKIT_DRIVER, MINIBROWSER, XVFB_RUN].every((path) => existsSync(path)) ? WEBKIT_DRIVER : undefined;
}

export const WEBKIT_NO_LOCALE =
  "a page's language cannot be set: WebDriver classic has no command for it, and WebKitGTK takes it from the driver's environment (LANGUAGE) at launch (docs/engines.md#browser-locale)";

const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';

/** The focused element of the top document, through shadow roots, kept on the window for RESTORE_FOCUS. */
const REMEMBER_FOCUS = `let active = document.activeElement;
  while (active && active.shadowRoot && active.shadowRoot.activeElement) active = active.shadowRoot.activeElement;
  window.__hubEngineFocus = active;`;
const RESTORE_FOCUS = `const wanted = window.__hubEngineFocus;
  delete window.__hubEngineFocus;
  let active = document.activeElement;
  while (active && active.shadowRoot && active.shadowRoot.activeElement) active = active.shadowRoot.activeElement;
  // A focused <iframe> keeps its frame's focus; otherwise the top document takes the focus back.
  if (!wanted || wanted.tagName !== 'IFRAME') window.focus();
  if (wanted && wanted.isConnected && active !== wanted && wanted.focus) wanted.focus({ preventScroll: true });`;

/** WebDriver's code points for the keys the tests press. */
const KEYS: Record<string, string> = {
  Escape: '\uE00C',
  Enter: '\uE007',
  Tab: '\uE004',
  Backspace: '\uE003',
  Space: ' ',
  ArrowLeft: '\uE012',
  ArrowUp: '\uE013',
  ArrowRight: '\uE014',
  ArrowDown: '\uE015',
  Home: '\uE011',
  End: '\uE010',
};

/**
 * HUB_WEBDRIVER_LOG=<file> appends every WebDriver command to <file> when it is sent and when it is
 * answered, with the time it took (docs/engines.md#webkit-hang: how the hang was found).
 */
const WEBDRIVER_LOG = process.env.HUB_WEBDRIVER_LOG;
function trace(line: string): void {
  if (WEBDRIVER_LOG) appendFileSync(WEBDRIVER_LOG, `${new Date().toISOString()} [${process.pid}] ${line}\n`);
}
/** The first characters of a command's body, enough to tell commands apart in the log. */
function summary(body: unknown): string {
  if (body === undefined) return '';
  const text = JSON.stringify(body);
  return ' ' + (text.length > 160 ? `${text.slice(0, 160)}…` : text);
}

async function launchWebKit(): Promise<DriverBrowser> {
  if (!findWebKit()) throw new Error(WEBKIT_MISSING);
  const proxy = await startProxy({ injectRecorder: true });
  const port = await freePort();
  // Its own process group, so that closing ends xvfb-run, Xvfb, the driver and MiniBrowser together.
  const child: ChildProcess = spawn(XVFB_RUN, ['-a', '-s', XVFB_ARGS, WEBKIT_DRIVER, `--port=${port}`], {
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
    env: { ...process.env, ...WEBKIT_ENV },
  });
  let stderr = '';
  // Aborts the New Session in flight when its browser cannot start (see X_DISPLAY_REFUSED).
  let starting: AbortController | undefined;
  child.stderr!.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    stderr += text;
    trace(`stderr: ${text.trimEnd()}`);
    if (starting && X_DISPLAY_REFUSED.test(text))
      starting.abort(new Error(`MiniBrowser could not start: ${text.trim()} (docs/engines.md#webkit-hang)`));
  });
  const base = `http://127.0.0.1:${port}`;
  // A test process that is killed or crashes must not leave Xvfb, the driver and MiniBrowser behind.
  const orphanGuard = () => kill();
  process.once('exit', orphanGuard);

  const call = async (method: string, path: string, body?: unknown, retried = false): Promise<any> => {
    const started = performance.now();
    const newSession = method === 'POST' && path === '/session';
    if (newSession) starting = new AbortController();
    const signals = [AbortSignal.timeout(90_000), ...(newSession ? [starting!.signal] : [])];
    const what = `${method} ${path.replace(/^\/session\/([0-9a-f]{8})[0-9a-f-]*/, '/session/$1')}${summary(body)}`;
    trace(`-> ${what}`);
    let res: Response;
    try {
      res = await fetch(base + path, {
        method,
        headers: { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        // A command that hangs (a browser that stopped answering) fails the test instead of the run.
        signal: AbortSignal.any(signals),
      });
    } catch (error) {
      // The driver closes idle keep-alive connections; a request sent on one never reached it: send it again.
      const code = (error as { cause?: { code?: string } }).cause?.code;
      if (!retried && (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET')) return call(method, path, body, true);
      if (newSession && starting?.signal.aborted) throw starting.signal.reason;
      const ms = Math.round(performance.now() - started);
      trace(`<- ${what} FAILED after ${ms} ms: ${String(error)}`);
      // Name the command: "aborted due to timeout" alone does not say which one stopped answering.
      throw new Error(`WebDriver ${what} got no answer in ${ms} ms: ${String(error)}`, { cause: error });
    }
    if (newSession) starting = undefined;
    const json = (await res.json()) as { value: any };
    trace(`<- ${what} ${res.status} in ${Math.round(performance.now() - started)} ms`);
    if (!res.ok) throw new Error(`WebDriver ${method} ${path}: ${json.value?.error}: ${json.value?.message}`);
    return json.value;
  };
  const kill = () => {
    if (child.pid && child.exitCode === null) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
    }
  };

  const capabilities = {
    alwaysMatch: {
      proxy: { proxyType: 'manual', httpProxy: `127.0.0.1:${proxy.port}` },
      // A page that never finishes loading fails its test in 30 s (the default waits five minutes).
      timeouts: { pageLoad: 30_000, script: 30_000, implicit: 0 },
      'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
    },
  };
  const newSession = async () =>
    (await call('POST', '/session', { capabilities })) as { sessionId: string; capabilities: any };

  let version: string;
  try {
    for (let tries = 0; ; tries++) {
      try {
        const probe = await newSession();
        version = `WebKitGTK ${probe.capabilities.browserVersion} (MiniBrowser)`;
        await call('DELETE', `/session/${probe.sessionId}`);
        break;
      } catch (error) {
        if (tries > 100 || child.exitCode !== null)
          throw new Error(`WebKitWebDriver did not start: ${String(error)}\n${stderr}`, { cause: error });
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  } catch (error) {
    kill();
    await proxy.close();
    throw error;
  }

  return {
    engine: 'webkit',
    version,
    proxy,
    async newPage(_report, options = {}) {
      if (options.locale) throw new Error(`WebKit: ${WEBKIT_NO_LOCALE}`);
      // A session per page: WebDriver classic has no contexts, and a fresh MiniBrowser has no cookies or storage.
      const { sessionId } = await newSession();
      const session = (method: string, path: string, body?: unknown) =>
        call(method, `/session/${sessionId}${path}`, body);
      // The browsing context the driver's commands go to is the top one until a frame switch: a switch to
      // the top when already there is a round trip of about 20 ms (483 of a widget.test.ts pass's 1,127
      // commands were frame switches), so it is made only when the last switch went into a frame.
      let inFrame = false;
      const top = async () => {
        if (!inFrame) return;
        await session('POST', '/frame', { id: null });
        inFrame = false;
      };
      const actions = (list: unknown[]) => session('POST', '/actions', { actions: list });
      const keys = (values: string[]) =>
        actions([
          {
            type: 'key',
            id: 'keyboard',
            actions: values.flatMap((value) => [
              { type: 'keyDown', value },
              { type: 'keyUp', value },
            ]),
          },
        ]);
      const setViewport = async (width: number, height: number) => {
        // WebDriver sizes the window; the toolbar and borders take the rest, measured once and added.
        await top();
        await session('POST', '/window/rect', { width, height });
        const inner = (await session('POST', '/execute/sync', {
          script: 'return [innerWidth, innerHeight]',
          args: [],
        })) as [number, number];
        if (inner[0] !== width || inner[1] !== height)
          await session('POST', '/window/rect', { width: 2 * width - inner[0], height: 2 * height - inner[1] });
      };
      const evaluateIn = async (frames: string[], expression: string) => {
        for (const frame of frames) {
          const element = await session('POST', '/execute/sync', { script: `return (${frame});`, args: [] });
          if (!element || !element[ELEMENT]) throw new Error(`no frame at ${frame.slice(0, 80)}`);
          inFrame = true;
          await session('POST', '/frame', { id: element });
        }
        const result = (await session('POST', '/execute/async', {
          script: `const done = arguments[arguments.length - 1];
            const focused = document.activeElement;
            Promise.resolve().then(() => (${expression})).then(
              (value) => done({ ok: true, value, focusMoved: document.activeElement !== focused }),
              (error) => done({ ok: false, error: String((error && error.stack) || error) }));`,
          args: [],
        })) as { ok: boolean; value?: unknown; error?: string; focusMoved?: boolean };
        if (!result.ok) throw new Error(result.error);
        return result;
      };
      const page: DriverPage = {
        async goto(url) {
          await session('POST', '/url', { url });
          // Navigate To leaves the driver in the top-level browsing context (WebDriver, Navigate To).
          inFrame = false;
        },
        url: () => session('GET', '/url'),
        async evaluate(frames, expression) {
          await top();
          // WebKitWebDriver's "switch to frame" focuses that frame, which a user looking into a frame
          // would not do: remember what had focus and give it back afterwards (docs/engines.md#frame-focus).
          // Unless the expression itself moved the focus in that frame (a test focusing a field there).
          if (frames.length) await session('POST', '/execute/sync', { script: REMEMBER_FOCUS, args: [] });
          let focusMoved = false;
          try {
            const result = await evaluateIn(frames, expression);
            focusMoved = result.focusMoved === true;
            return result.value;
          } finally {
            if (frames.length && !focusMoved) {
              await top();
              await session('POST', '/execute/sync', { script: RESTORE_FOCUS, args: [] });
            }
          }
        },
        async click(x, y) {
          await top();
          await actions([
            {
              type: 'pointer',
              id: 'mouse',
              parameters: { pointerType: 'mouse' },
              actions: [
                { type: 'pointerMove', duration: 0, origin: 'viewport', x: Math.round(x), y: Math.round(y) },
                { type: 'pointerDown', button: 0 },
                { type: 'pointerUp', button: 0 },
              ],
            },
          ]);
        },
        async move(x, y) {
          await top();
          // With a duration, the driver moves the pointer through the points in between.
          await actions([
            {
              type: 'pointer',
              id: 'mouse',
              parameters: { pointerType: 'mouse' },
              actions: [
                {
                  type: 'pointerMove',
                  duration: MOVE_STEPS * 16,
                  origin: 'viewport',
                  x: Math.round(x),
                  y: Math.round(y),
                },
              ],
            },
          ]);
        },
        // Keys go to the focused element of the current frame; switching frames first would move the
        // focus (see evaluate), so keys stay where the last evaluation left the driver.
        press: async (key) => void (await keys([KEYS[key] ?? key])),
        type: async (text) => void (await keys(Array.from(text))),
        async fill(frames, element, text) {
          // WebKitWebDriver refuses Element Send Keys on a field inside a frame in a <dialog> ("not
          // focusable"), and key actions go to the top frame's focus: the field gets its value the way
          // a paste would, with an input event (docs/engines.md#webkit-typing).
          await evaluateIn(
            frames,
            `((field, text) => { field.focus(); field.value = text;
              field.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertFromPaste', data: text }));
              field.dispatchEvent(new Event('change', { bubbles: true })); })(${element}, ${JSON.stringify(text)})`,
          );
        },
        setViewport,
        async screenshot(element) {
          await top();
          if (!element) return Buffer.from((await session('GET', '/screenshot')) as string, 'base64');
          const found = await session('POST', '/execute/sync', { script: `return (${element});`, args: [] });
          if (!found || !found[ELEMENT]) throw new Error(`no element at ${element.slice(0, 80)}`);
          return Buffer.from((await session('GET', `/element/${found[ELEMENT]}/screenshot`)) as string, 'base64');
        },
        async setCookie({ name, value, url, httpOnly, sameSite }) {
          // WebDriver adds cookies to the current document's site only: go there first.
          if (new URL(await page.url()).origin !== new URL(url).origin)
            await page.goto(new URL('/favicon.ico', url).href);
          await session('POST', '/cookie', {
            cookie: { name, value, path: '/', ...(httpOnly ? { httpOnly } : {}), ...(sameSite ? { sameSite } : {}) },
          });
        },
        async cookies(url) {
          if (new URL(await page.url()).origin !== new URL(url).origin) await page.goto(url);
          return ((await session('GET', '/cookie')) as { name: string; value: string }[]).map(({ name, value }) => ({
            name,
            value,
          }));
        },
        close: async () => void (await call('DELETE', `/session/${sessionId}`).catch(() => undefined)),
      };
      const viewport = options.viewport ?? DEFAULT_VIEWPORT;
      await setViewport(viewport.width, viewport.height);
      return page;
    },
    async close() {
      process.off('exit', orphanGuard);
      kill();
      await proxy.close();
    },
  };
}

export const LAUNCH: Record<EngineName, () => Promise<DriverBrowser>> = {
  chromium: launchChromium,
  firefox: launchFirefox,
  webkit: launchWebKit,
};

/** Why `engine` cannot run here, or undefined when it can. */
export function missing(engine: EngineName): string | undefined {
  if (engine === 'chromium') return findTestChromium() ? undefined : CHROMIUM_MISSING;
  if (engine === 'firefox') return findFirefox() ? undefined : FIREFOX_MISSING;
  return findWebKit() ? undefined : WEBKIT_MISSING;
}
