// The web of an Expo app (issue 82 item 5), for matrix.test.ts's rows that have one: the row's app exported
// with `expo export --platform web` (Metro for the web, react-native-web, the package's `browser` condition),
// the simulator's addresses in the build as an app's EXPO_PUBLIC_ variables and no secret, then served
// beside the simulator and driven in Chromium.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import { launchBrowser, waitFor, type Harness } from '../e2e/harness.js';

/**
 * The web's entry, as an Expo app's: registerRootComponent mounts the screen into the page's #root. The page's
 * hash picks it: WebScreen.tsx (<HubEmbedView> on the web), or with `#dom` DomScreen.tsx (the element in an
 * Expo DOM component, HubDomWidget.tsx).
 */
export const WEB_INDEX = `import { registerRootComponent } from 'expo';
import WebScreen from './WebScreen';
import DomScreen from './DomScreen';

registerRootComponent(location.hash === '#dom' ? DomScreen : WebScreen);
`;

/** The example files of the web export, beside App.tsx in the row's app. */
export const WEB_FILES = ['WebScreen.tsx', 'DomScreen.tsx', 'HubDomWidget.tsx'];

/** The screens the web export shows, by the page's hash (WEB_INDEX). */
export type WebScreenName = 'web' | 'dom';

/** What `expo export` inlines into the web build: the service's addresses (examples/react-native/WebScreen.tsx). */
export function webBuildEnv(h: Harness): Record<string, string> {
  return { EXPO_PUBLIC_HUB_BASE_URL: h.baseUrl, EXPO_PUBLIC_HUB_FORM_URL: h.formUrl };
}

/** The folder the web export writes. */
export const WEB_OUT = 'dist-web';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.ico': 'image/x-icon',
};

/** Every file of the export (paths relative to it, with `/`). */
function filesOf(dir: string, under = ''): string[] {
  return readdirSync(join(dir, under), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesOf(dir, `${under}${entry.name}/`) : [`${under}${entry.name}`],
  );
}

/** The web export's JavaScript, all of it. */
export function webCode(appDir: string): string {
  const out = join(appDir, WEB_OUT);
  return filesOf(out)
    .filter((file) => file.endsWith('.js'))
    .map((file) => readFileSync(join(out, file), 'utf8'))
    .join('\n');
}

/** Writes the web entry over the native one (the row bundled that already); the export goes to WEB_OUT. */
export function prepareWeb(appDir: string): void {
  writeFileSync(join(appDir, 'index.js'), WEB_INDEX);
  rmSync(join(appDir, WEB_OUT), { recursive: true, force: true });
}

/** What the app's page showed, after the cards came and one was clicked. */
export interface WebRun {
  /** What the app's handlers heard, as its screen shows it (examples/react-native/WebScreen.tsx, DomScreen.tsx). */
  heard: string;
  cards: number;
  /** Frames of the form dialog the click opened. */
  formFrames: number;
  errors: string[];
}

/**
 * Serves the export from the harness's origin (its demo backend answers `/api/hub-token` for the signed-in
 * user, the simulator serves the service), opens it in Chromium, waits for the cards and clicks one. The
 * page's query names another service, which the app must not follow.
 */
export async function driveWeb(appDir: string, h: Harness, screen: WebScreenName = 'web'): Promise<WebRun> {
  const out = join(appDir, WEB_OUT);
  assert.ok(existsSync(join(out, 'index.html')), `${WEB_OUT}/index.html`);
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext();
    await context.addCookies([
      { name: 'hub_demo_user', value: 'alice', url: h.origin, httpOnly: true, sameSite: 'Strict' },
    ]);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    // The page from the harness's own server: a document Playwright answered itself would count as public,
    // and Chromium's local network access would then keep it from the simulator on the loopback address.
    h.addPage('/', readFileSync(join(out, 'index.html'), 'utf8'));
    // The export's other files, from the pages' origin; the backend's routes go on to the harness.
    await page.route(
      (url) => url.origin === h.origin && url.pathname !== '/' && !url.pathname.startsWith('/api/'),
      (route) => {
        const path = new URL(route.request().url()).pathname;
        const file = normalize(join(out, decodeURIComponent(path)));
        if (!file.startsWith(out + sep) || !existsSync(file)) return route.fulfill({ status: 404, body: 'Not found' });
        return route.fulfill({
          contentType: TYPES[extname(file)] ?? 'application/octet-stream',
          body: readFileSync(file),
        });
      },
    );
    // A link an attacker wrote: were the addresses read from it, the token would go to 127.0.0.2.
    const query = new URLSearchParams({ base: 'http://127.0.0.2:9/', form: 'http://127.0.0.2:9/' });
    await page.goto(`${h.origin}/?${query}${screen === 'dom' ? '#dom' : ''}`);
    const cards = page.locator('hub-embed [part~="card"]');
    const heard = () => page.locator('[data-testid="heard"]').innerText();
    await waitFor(
      () => cards.count(),
      (count) => count > 0,
      'the cards',
    );
    await waitFor(heard, (text) => text.includes('ready:'), "the app's onReady");
    const count = await cards.count();
    await cards.first().click();
    await waitFor(heard, (text) => text.includes('opened:'), "the app's onFormOpened");
    const formFrames = await page.locator('hub-embed hub-form-frame iframe').count();
    return { heard: await heard(), cards: count, formFrames, errors };
  } finally {
    await browser.close();
  }
}
