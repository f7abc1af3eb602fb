// The end-to-end stack, all on free loopback ports: the service simulator (API site + form site), the
// demo developer backend, and a static server for the test pages, the BUILT dist/ and the backend
// routes. Pages live on their own origin, so every call to the simulator is a real cross-origin one.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readFileSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import { afterEach } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { PLAYWRIGHT_CHROMIUM_ARGS, CHROMIUM_MISSING, findTestChromium } from '../../scripts/chromium.mjs';
import { currentBrowser, EnginePage, perEngine, type DriverBrowser } from './engines/index.js';
import type { NewPageOptions } from './engines/drivers.js';
import {
  defaultSeed,
  startSimulator,
  type MockSeed,
  type RunningSimulator,
  type SeedTable,
} from '../../packages/hub-embed-mock/src/index.js';
import { toNodeListener } from '../../src/server/index.js';
import { createDemoBackend, demoUserOf, type DemoBackend } from '../../demo/backend.js';
import type { DemoServer } from '../../demo/serve.js';
import { firstViewWriter, pageTokens, SERVER_FIRST_VIEWS } from './server-first-views.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const DIST = join(ROOT, 'dist');
export const BUNDLE = join(DIST, 'hub-embed.iife.js');

/** Every table the suite adds carries this tag, so a filter can pick exactly them. */
export const ENCODING_TAG = 'e2e encoding';
/** A tag that itself needs encoding in the `tags` query. */
export const AWKWARD_TAG = 'C# & .NET +1 100%';

/**
 * Short codes that only survive the trip browser -> form URL -> form site when every part is encoded
 * exactly once: path separators, query and fragment starters, percent signs (also one that looks like
 * an escape already), plus signs, spaces, CJK and emoji (astral plane, surrogate pairs in JS strings).
 */
export const AWKWARD_CODES = [
  'with space',
  'slash/inside/it',
  'what?token=forged&x=1',
  'hash#fragment',
  '100%real',
  'looks%2Fescaped',
  'plus+sign',
  '中文短码',
  'emoji🍂🚀',
  ' ?#%+/中🍂 all',
] as const;

export const ENCODING_TABLES: SeedTable[] = AWKWARD_CODES.map((code, i) => ({
  project_id: 9001 + i,
  short_code: code,
  name: `E2E table ${String.fromCharCode(65 + i)}`,
  industry: 'Testing',
  icon: 'retail',
  tags: i === 0 ? [ENCODING_TAG, AWKWARD_TAG] : [ENCODING_TAG],
  type: 'A',
  published: true,
  price_cents: 100,
}));

/** The default seed plus the tables above. */
export function e2eSeed(): MockSeed {
  const seed = structuredClone(defaultSeed);
  seed.tables.push(...structuredClone(ENCODING_TABLES));
  return seed;
}

export interface PageOptions {
  /** Sent as the page's Content-Security-Policy header. */
  csp?: string;
  /** Other headers of the page (Cross-Origin-Opener-Policy, Cross-Origin-Embedder-Policy, …). */
  headers?: Record<string, string>;
}

export interface Harness {
  mock: RunningSimulator;
  backend: DemoBackend;
  /** Origin of the pages, dist/ and the backend routes. */
  origin: string;
  baseUrl: string;
  formUrl: string;
  /** Serves `html` at `path` (e.g. `/csp.html`). */
  addPage(path: string, html: string, options?: PageOptions): string;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.sri': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** A favicon from 'self', so that strict pages need no data: in img-src and Chromium logs no 404. */
const FAVICON =
  '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect width="16" height="16" fill="#2563eb"/></svg>';

/**
 * Records, from before any widget script runs, what the tests assert on: CSP violations and every
 * hub-* event (details made JSON-safe). A file, not inline, so that it runs under `script-src 'self'`.
 */
const RECORDER = `(function () {
  'use strict';
  var log = (window.__e2e = { violations: [], events: [] });
  document.addEventListener('securitypolicyviolation', function (e) {
    log.violations.push({ directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample });
  });
  function safe(detail) {
    if (detail && detail.error) return { error: { kind: detail.error.kind, message: String(detail.error.message) } };
    try { return JSON.parse(JSON.stringify(detail)); } catch (err) { return String(detail); }
  }
  ['hub-ready', 'hub-error', 'hub-form-open', 'hub-form-close', 'hub-form-message', 'hub-table-select', 'hub-tags-change'].forEach(function (type) {
    document.addEventListener(type, function (e) { log.events.push({ type: type, detail: safe(e.detail) }); }, true);
  });
})();
`;

/** A frame of the page's own origin that posts a message shaped exactly like the form page's. */
const FORGER = `<!doctype html><meta charset="utf-8"><title>forger</title><link rel="icon" href="/favicon.svg">
<script src="/e2e/forger.js"></script>`;
const FORGER_JS = `(function () {
  var code = decodeURIComponent(location.hash.slice(1));
  parent.postMessage({ source: 'hub-form', type: 'charge', shortCode: code, ok: true, amountCents: 1, forged: 'sibling' }, '*');
})();
`;

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

export interface HarnessOptions {
  /** How long the simulator's access tokens live. */
  tokenTtlSeconds?: number;
  /** The simulator's service profile (a name of its PROFILES). */
  profile?: string;
}

/** The harness's first-view writer: a prefetching route beside the demo backend's, for its signed-in user. */
function harnessViewWriter(mock: RunningSimulator) {
  const viewTokens = pageTokens(mock, (request) => demoUserOf(request)?.clientUserId ?? null);
  return firstViewWriter((tokenEndpoint) => (tokenEndpoint === '/api/hub-token' ? viewTokens : undefined));
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  if (!existsSync(BUNDLE))
    throw new Error(`${BUNDLE} is missing: run \`npm run build\` first (npm run ci -- e2e does).`);
  const mock = await startSimulator({
    seed: e2eSeed(),
    ...(options.tokenTtlSeconds ? { tokenTtlSeconds: options.tokenTtlSeconds } : {}),
    ...(options.profile ? { profile: options.profile } : {}),
  });
  // The backend only answers POSTs from the pages' origin, known once the server below listens.
  let backend: DemoBackend | undefined;
  const backendListener = toNodeListener(
    async (request, info) =>
      (await backend!.handle(request, info.remoteAddress)) ?? new Response('Not found', { status: 404 }),
  );
  const pages = new Map<string, { html: string; headers: Record<string, string> }>();
  // With HUB_FIRST_VIEW=server, each page's elements come with a server's first view (server-first-views.ts),
  // drawn for those that ask the demo backend's token route, as the signed-in demo user.
  const writeFirstViews = SERVER_FIRST_VIEWS ? harnessViewWriter(mock) : undefined;

  const send = (
    res: ServerResponse,
    status: number,
    type: string,
    body: string | Buffer,
    headers: Record<string, string> = {},
  ) => {
    res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers });
    res.end(body);
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path.startsWith('/api/') || path.startsWith('/webhooks/')) return void backendListener(req, res);
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain', 'GET only');
    if (path === '/favicon.svg' || path === '/favicon.ico') return send(res, 200, 'image/svg+xml', FAVICON);
    if (path === '/e2e/record.js') return send(res, 200, TYPES['.js']!, RECORDER);
    if (path === '/e2e/forger.js') return send(res, 200, TYPES['.js']!, FORGER_JS);
    if (path === '/e2e/forger.html') return send(res, 200, 'text/html; charset=utf-8', FORGER);
    const page = pages.get(path);
    if (page && writeFirstViews)
      return void writeFirstViews(page, req).then(
        (served) => send(res, 200, 'text/html; charset=utf-8', served.html, served.headers),
        (error: unknown) => send(res, 500, 'text/plain', String(error)),
      );
    if (page) return send(res, 200, 'text/html; charset=utf-8', page.html, page.headers);
    // /dist-tampered/ serves dist/ too, but with the form chunk changed by one byte after the build, as a
    // hostile CDN might: its integrity value must refuse it.
    const tampered = path.startsWith('/dist-tampered/');
    // /dist-no-form/ serves dist/ without its form halves, as a deployment that copied only the first file.
    const noForm = path.startsWith('/dist-no-form/');
    if (path.startsWith('/dist/') || tampered || noForm) {
      // Only files inside dist/: a `..` in the path must not reach the rest of the disk.
      const file = normalize(join(DIST, decodeURIComponent(path.slice(path.indexOf('/', 1) + 1))));
      if (!file.startsWith(DIST + sep) || !existsSync(file) || (noForm && file.endsWith('.form.js')))
        return send(res, 404, 'text/html; charset=utf-8', '<!doctype html><title>Not found</title><h1>Not found</h1>');
      const body = readFileSync(file);
      const served = tampered && file.endsWith('.form.js') ? Buffer.concat([body, Buffer.from(';')]) : body;
      return send(res, 200, TYPES[extname(file)] ?? 'application/octet-stream', served);
    }
    send(res, 404, 'text/plain', 'Not found');
  });
  const port = await listen(server);
  // The simulator delivers webhooks to the demo backend, as the demo does.
  const origin = `http://127.0.0.1:${port}`;
  backend = createDemoBackend({ apiKey: mock.apiKey, baseUrl: mock.baseUrl, formUrl: mock.formUrl, origins: [origin] });
  mock.hub.setWebhooks([{ notification_url: `${origin}/webhooks/hub`, billing_url: `${origin}/webhooks/hub` }]);

  return {
    mock,
    backend,
    origin,
    baseUrl: mock.baseUrl,
    formUrl: mock.formUrl,
    addPage(path, html, pageOptions = {}) {
      const headers = {
        ...pageOptions.headers,
        ...(pageOptions.csp ? { 'content-security-policy': pageOptions.csp } : {}),
      };
      pages.set(path, { html, headers });
      return origin + path;
    },
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await mock.close();
    },
  };
}

const escapeAttr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** `<hub-embed>` markup for this harness; `attrs` adds or overrides attributes. */
export function widget(h: Harness, attrs: Record<string, string> = {}): string {
  const all: Record<string, string> = {
    'token-endpoint': '/api/hub-token',
    'base-url': h.baseUrl,
    'form-url': h.formUrl,
    locale: 'en',
    ...attrs,
  };
  return `<hub-embed ${Object.entries(all)
    .map(([k, v]) => `${k}="${escapeAttr(v)}"`)
    .join(' ')}></hub-embed>`;
}

export const SCRIPT = '<script src="/dist/hub-embed.iife.js"></script>';
export const RECORD = '<script src="/e2e/record.js"></script>';

/** A whole page: the recorder first (so it sees everything), then `head`, then `body`. */
export function pageHtml(head: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>hub-embed e2e</title><link rel="icon" href="/favicon.svg">${RECORD}${head}</head><body>${body}</body></html>`;
}

export interface WidgetPageOptions {
  /** Attributes of the page's one `<hub-embed>` (see widget). */
  attrs?: Record<string, string>;
  /** What the head loads; the script bundle unless given. */
  head?: string;
}

/** A page (see pageHtml) that loads the script bundle and holds one `<hub-embed>` for this harness. */
export function widgetPage(h: Harness, options: WidgetPageOptions = {}): string {
  return pageHtml(options.head ?? SCRIPT, widget(h, options.attrs));
}

// ---------------------------------------------------------------------------------------------------
// Browser side

export function requireChromium(): string {
  const path = findTestChromium();
  if (!path) throw new Error(`The end-to-end suite needs Chromium. ${CHROMIUM_MISSING}`);
  return path;
}

/**
 * Chromium through playwright-core, for the files that stay Chromium-only on purpose (the simulator's
 * console, the prefetch timing); the cross-engine suites get their browser from inEachEngine.
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: requireChromium(), args: PLAYWRIGHT_CHROMIUM_ARGS });
}

export interface Watch {
  page: EnginePage;
  /** The engine's browser the page belongs to. */
  browser: DriverBrowser;
  /** Every request the browser made, with the headers it sent (seen by the engine layer's proxy). */
  requests: { url: string; method: string; headers: Record<string, string> }[];
  /** Requests that carried X-API-Key or went to the key-for-token exchange. */
  leaks: string[];
  consoleErrors: string[];
  consoleWarnings: string[];
  pageErrors: string[];
  /** Access tokens the page received from its token endpoint, in order. */
  issuedTokens: string[];
  close(): Promise<void>;
}

/** The demo backend's session cookie: the browser is signed in as `user` on `origin`. */
export function signIn(page: EnginePage, origin: string, user = 'alice'): Promise<void> {
  return page.driver.setCookie({ name: 'hub_demo_user', value: user, url: origin, httpOnly: true, sameSite: 'Strict' });
}

/**
 * WebKit's and Chromium's notice, as an error event with no error, that a ResizeObserver's notifications
 * went to the next frame: no script failed, and the form page's height message is sent then. It is kept
 * with the warnings, where a test can still look for it.
 */
export const RESIZE_LOOP_NOTICE = 'ResizeObserver loop completed with undelivered notifications.';

export interface WatchOptions extends NewPageOptions {
  /** Signs the demo user in on this origin first (the backend has no fallback user). */
  signedInAt?: string;
}

/**
 * A fresh page in a fresh context of the running engine (see engines/), whose every request is seen
 * on the wire and checked: the API key must never leave the developer's server, so no browser request
 * may carry X-API-Key or call /apikeys/token.
 */
export async function watchPage(browser: DriverBrowser = currentBrowser(), options: WatchOptions = {}): Promise<Watch> {
  const { signedInAt, ...pageOptions } = options;
  const lists = {
    requests: [] as Watch['requests'],
    leaks: [] as string[],
    consoleErrors: [] as string[],
    consoleWarnings: [] as string[],
    pageErrors: [] as string[],
    issuedTokens: [] as string[],
  };
  const report = ({ kind, text, where }: { kind: string; text: string; where: string }) => {
    if (kind === 'error') lists.consoleErrors.push(`${text} (${where})`);
    else if (kind === 'warning' || text === RESIZE_LOOP_NOTICE) lists.consoleWarnings.push(text);
    else lists.pageErrors.push(text);
  };
  const stopListening = browser.proxy.listen({
    request(request) {
      lists.requests.push(request);
      if ('x-api-key' in request.headers || request.url.includes('apikeys/token'))
        lists.leaks.push(`${request.method} ${request.url}`);
    },
    tokenResponse(body) {
      try {
        const token = (JSON.parse(body) as { access_token?: unknown }).access_token;
        if (typeof token === 'string') lists.issuedTokens.push(token);
      } catch {
        // Not JSON: no token to record.
      }
    },
    report,
  });
  const page = new EnginePage(await browser.newPage(report, pageOptions));
  if (signedInAt) await signIn(page, signedInAt);
  return {
    page,
    browser,
    ...lists,
    async close() {
      stopListening();
      await page.close();
    },
  };
}

/** What a use* hook started, once its `before` has run. */
function started<T>(value: T | undefined, what: string): T {
  if (value === undefined)
    throw new Error(`${what} is not up yet: use it in tests, or in a before hook inside a describe (see useHarness)`);
  return value;
}

export interface UseHarnessOptions extends HarnessOptions {
  /** Whether every watched page must also end its test with no uncaught errors (default true). */
  checkPageErrors?: boolean;
}

export interface HarnessInUse {
  /** The running stack; there from the file's `before` on. */
  readonly harness: Harness;
  /** The running engine's browser (see engines/inEachEngine). */
  readonly browser: DriverBrowser;
  /** A fresh watched page (see watchPage), signed in as Alice, not navigated yet; closed and checked after the test. */
  watchPage(): Promise<Watch>;
  /** Serves `html` at `path` and opens it in a watched page; closed and checked after the test. */
  openPage(path: string, html: string, options?: PageOptions): Promise<Watch>;
  /** Serves a widgetPage at `path` and opens it, as openPage does. */
  openWidget(path: string, options?: WidgetPageOptions & PageOptions): Promise<Watch>;
}

/**
 * Starts a fresh harness in each engine of the calling file (see engines/inEachEngine, which also
 * starts that engine's browser) and stops it after that engine's tests. Every page
 * opened through `watchPage`/`openPage` is closed after its test and checked there, so that every test
 * doubles as a check of the key boundary (the API key must never reach the browser: no request may
 * carry X-API-Key or call /apikeys/token) and, unless `checkPageErrors` is false, of a clean console
 * (no uncaught errors in the page). Call it once, at the top of the file; setup of the file's own that
 * needs the harness goes in a `before` inside a `describe`, since top-level `before` hooks all start
 * at once (the harness is not up yet when a second one runs).
 */
export function useHarness(options: UseHarnessOptions = {}): HarnessInUse {
  const { checkPageErrors = true, ...harnessOptions } = options;
  let harness: Harness | undefined;
  let thisTestsPages: Watch[] = [];

  // A fresh stack in each engine: no engine sees the tokens, wallets or webhooks another one left.
  perEngine({
    async setUp() {
      harness = await startHarness(harnessOptions);
    },
    async tearDown() {
      await harness?.close();
      harness = undefined;
    },
  });
  afterEach(async () => {
    const pages = thisTestsPages;
    thisTestsPages = [];
    await Promise.all(pages.map((w) => w.close()));
    for (const w of pages) {
      assert.deepEqual(w.leaks, [], 'no browser request may carry X-API-Key or call /apikeys/token');
      if (checkPageErrors) assert.deepEqual(w.pageErrors, [], 'no uncaught errors in the page');
    }
  });

  const inUse: HarnessInUse = {
    get harness() {
      return started(harness, 'The harness');
    },
    get browser() {
      return currentBrowser();
    },
    async watchPage() {
      const w = await watchPage(inUse.browser, { signedInAt: inUse.harness.origin });
      thisTestsPages.push(w);
      return w;
    },
    async openPage(path, html, pageOptions) {
      const url = inUse.harness.addPage(path, html, pageOptions);
      const w = await inUse.watchPage();
      await w.page.goto(url);
      return w;
    },
    openWidget(path, { attrs, head, ...pageOptions } = {}) {
      return inUse.openPage(path, widgetPage(inUse.harness, { attrs, head }), pageOptions);
    },
  };
  return inUse;
}

export interface DemoInUse {
  /** The demo as `npm run demo` serves it, on a free port; there from the file's `before` on. */
  readonly demo: DemoServer;
  /** The running engine's browser (see engines/inEachEngine). */
  readonly browser: DriverBrowser;
}

/**
 * Starts the demo (its own simulator and backend, not the harness) fresh in each engine of the calling
 * file (see engines/inEachEngine) and stops it after that engine's tests. Call it once, at the top of the file.
 */
export function useDemo(): DemoInUse {
  let demo: DemoServer | undefined;
  perEngine({
    async setUp() {
      // Loaded here, not at the top: the demo server pulls in Vite, which the other e2e files never need.
      const { startDemo } = await import('../../demo/serve.js');
      demo = await startDemo({ port: 0 });
    },
    async tearDown() {
      await demo?.close();
      demo = undefined;
    },
  });
  return {
    get demo() {
      return started(demo, 'The demo');
    },
    get browser() {
      return currentBrowser();
    },
  };
}

/**
 * Polls `probe` until `accept` holds; fails with the last value seen. A wait, never a speed assertion.
 * When `accept` is a type guard (`(token) => token !== undefined`), the value it lets through has the guarded type.
 */
export async function waitFor<T, Accepted extends T>(
  probe: () => Promise<T> | T,
  accept: (value: T) => value is Accepted,
  what: string,
  timeoutMs?: number,
): Promise<Accepted>;
export async function waitFor<T>(
  probe: () => Promise<T> | T,
  accept: (value: T) => boolean,
  what: string,
  timeoutMs?: number,
): Promise<T>;
export async function waitFor<T>(
  probe: () => Promise<T> | T,
  accept: (value: T) => boolean,
  what: string,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  let lastError: unknown;
  for (;;) {
    try {
      last = await probe();
      if (accept(last)) return last;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `Timed out waiting for ${what}; last value: ${JSON.stringify(last)}${lastError ? `; last error: ${String(lastError)}` : ''}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface RecordedEvent {
  type: string;
  detail: any;
}

export function events(page: EnginePage, type?: string): Promise<RecordedEvent[]> {
  return page.evaluate(
    (t) => ((window as any).__e2e?.events ?? []).filter((e: RecordedEvent) => !t || e.type === t),
    type,
  );
}

export function violations(page: EnginePage): Promise<{ directive: string; blocked: string; sample: string }[]> {
  return page.evaluate(() => (window as any).__e2e?.violations ?? []);
}

/** Names on the cards, in grid order (parts are public API; Playwright CSS pierces open shadow roots). */
export function cardNames(page: EnginePage): Promise<string[]> {
  return page.locator('hub-embed [part="name"]').allTextContents();
}

/**
 * The names on the cards once all `count` are drawn: hub-ready comes with the first screenful, and the
 * cards below it a few tasks later.
 */
export function allCardNames(page: EnginePage, count: number): Promise<string[]> {
  return waitFor(
    () => cardNames(page),
    (names) => names.length >= count,
    `all ${count} cards`,
  );
}

/** Waits until exactly `count` card icons show a loaded image: the API site served each one. */
export async function waitForIcons(page: EnginePage, count: number, what = 'every icon to load'): Promise<void> {
  await waitFor(
    () =>
      page.locator('hub-embed img[part="icon"]').evaluateAll((imgs) => {
        const loaded = imgs.filter((img) => (img as HTMLImageElement).naturalWidth > 0);
        // The icons load lazily, and how far below the fold "near" reaches differs by engine (WebKit's
        // is the viewport): bring the next icon still waiting into view, as a reader scrolling would.
        imgs.find((img) => !loaded.includes(img))?.scrollIntoView({ block: 'center' });
        return loaded.length;
      }),
    (loaded) => loaded === count,
    what,
  );
}

/** Clicks the card of one table of the e2e catalogue, after its tag's chip: the user's way to its form. */
export async function clickEncodingCard(page: EnginePage): Promise<void> {
  await page.locator('hub-embed hub-tag-filter').getByRole('button', { name: ENCODING_TAG, exact: true }).click();
  await page.locator('hub-embed [part="card"]', { hasText: ENCODING_TABLES[9]!.name }).click();
}

/**
 * Opens the form of that table (clickEncodingCard), and waits for the form page's `load` message: the page
 * loaded in the frame and could talk to the widget.
 */
export async function openEncodingTable(page: EnginePage, what = 'the form page load message'): Promise<void> {
  await clickEncodingCard(page);
  await waitFor(
    () => events(page, 'hub-form-message'),
    (list) => list.some((e) => e.detail.data?.type === 'load'),
    what,
  );
}

export async function waitForReady(page: EnginePage): Promise<void> {
  await waitFor(
    () => events(page, 'hub-ready'),
    (list) => list.length > 0,
    'hub-ready',
  );
}

/** What the widget shows as an error, if anything: the element's own alert or the frame's. */
export function visibleErrors(page: EnginePage): Promise<string[]> {
  return page.locator('hub-embed [role="alert"]').allTextContents();
}

/** The errors the widget shows once it shows any: a setup error comes after the script has run. */
export function shownErrors(page: EnginePage): Promise<string[]> {
  return waitFor(
    () => visibleErrors(page),
    (errors) => errors.length > 0,
    'the setup error',
    20_000,
  );
}

// ---------------------------------------------------------------------------------------------------
// Asking the simulator directly (from Node, as the developer's server would)

/** A token for `clientUserId`, exchanged server-side with the API key. */
export async function serverToken(h: Harness, clientUserId = 'user-alice'): Promise<string> {
  const res = await fetch(`${h.mock.apiUrl}/apikeys/token`, {
    method: 'POST',
    headers: { 'X-API-Key': h.mock.apiKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({ client_user_id: clientUserId }),
  });
  const body = (await res.json()) as { data: { access_token: string } };
  return body.data.access_token;
}

/** The simulator's own answer for the published list with `tags`: the grid must show exactly this. */
export async function simulatorList(
  h: Harness,
  tags: string[] = [],
): Promise<{ short_code: string; name: string; tags: string[] }[]> {
  const query = tags.length ? `?tags=${encodeURIComponent(tags.join(','))}` : '';
  const res = await fetch(`${h.mock.apiUrl}/projects/published-list${query}`, {
    headers: { Authorization: `Bearer ${await serverToken(h)}` },
  });
  const body = (await res.json()) as { data: { list: { short_code: string; name: string; tags: string[] }[] } };
  return body.data.list;
}

export async function simulatorTags(h: Harness): Promise<string[]> {
  const res = await fetch(`${h.mock.apiUrl}/projects/published-tags`, {
    headers: { Authorization: `Bearer ${await serverToken(h)}` },
  });
  return ((await res.json()) as { data: { list: string[] } }).data.list;
}

/** Whether the simulator accepts `token` as a Bearer token right now (it issued it and it is live). */
export async function simulatorAccepts(h: Harness, token: string): Promise<boolean> {
  const res = await fetch(`${h.mock.apiUrl}/projects/published-tags`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  return res.status === 200;
}

/**
 * Splits a form URL into its decoded short code and token without URL's lenient parsing of `+`,
 * so that a double-encoding or a missing encoding shows up as a mismatch.
 */
export function parseFormUrl(h: Harness, href: string): { shortCode: string; query: [string, string][] } {
  const url = new URL(href);
  if (url.origin !== new URL(h.formUrl).origin) throw new Error(`${href} is not on the form site ${h.formUrl}`);
  const segments = url.pathname.split('/').slice(1);
  if (segments.length !== 1)
    throw new Error(`${href} has ${segments.length} path segments, expected exactly one (the encoded short code)`);
  const query = url.search
    .slice(1)
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf('=');
      return [decodeURIComponent(pair.slice(0, at)), decodeURIComponent(pair.slice(at + 1))] as [string, string];
    });
  if (url.hash) throw new Error(`${href} has a fragment ${url.hash}: part of the short code leaked out of the path`);
  return { shortCode: decodeURIComponent(segments[0]!), query };
}
