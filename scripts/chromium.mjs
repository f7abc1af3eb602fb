// Finds a Chromium for the browser tests, the end-to-end suite and the benchmarks.
// Order: $CHROME_PATH, then the usual Debian/Ubuntu/Google names on PATH or in /usr/bin. The tests
// prefer the headless shell of the same build (findTestChromium); the benchmarks and Lighthouse measure
// the full browser, as the page's visitors run it.
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

const NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];
/** Chromium's headless shell: Debian's chromium-headless-shell, Google's chrome-headless-shell. */
const SHELL_NAMES = ['chromium-headless-shell', 'chrome-headless-shell'];

/** Flags that keep Chromium quiet on a closed network and runnable as root in CI. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The features playwright-core turns off at every launch (its chromiumSwitches, 1.65). */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * The omnibox's WebUI popups. Headless Chromium 156 loads chrome://omnibox-popup.top-chrome/ in a
 * renderer of its own for every new window, which is every browser context a test opens: about 1 s of
 * CPU each for a popup nobody sees. Off, a Chromium pass of test/e2e/widget.test.ts took 33 to 38 s of
 * CPU and 22 to 25 s against 54 to 58 s and 30 to 33 s (2 cores, docs/engines.md, Driver workarounds).
 */
export const UNSEEN_UI_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];

/**
 * CHROMIUM_ARGS for playwright-core's launch, with the unseen UI turned off. Chromium reads only the last
 * --disable-features on its command line and Playwright puts its own first, so this one repeats
 * Playwright's features (test/package/chromium-flags.test.ts fails when Playwright turns off one that
 * this list lacks).
 */
export const PLAYWRIGHT_CHROMIUM_ARGS = [
  ...CHROMIUM_ARGS,
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...UNSEEN_UI_FEATURES].join(',')}`,
];

export const CHROMIUM_MISSING =
  'No Chromium found. Install one (Debian/Ubuntu: `sudo apt-get install -y chromium`) or set CHROME_PATH to a Chrome/Chromium binary.';

/** The first of `names` found in /usr/bin or on PATH. */
function onPath(names, env) {
  const dirs = ['/usr/bin', ...(env.PATH ?? '').split(delimiter).filter(Boolean)];
  for (const name of names) {
    for (const dir of dirs) {
      const candidate = join(dir, name);
      if (existsSync(candidate)) return candidate;
    }
  }
  return undefined;
}

/** @returns {string | undefined} the path of a Chromium binary, or undefined when none is installed. */
export function findChromium(env = process.env) {
  if (env.CHROME_PATH) return existsSync(env.CHROME_PATH) ? env.CHROME_PATH : undefined;
  return onPath(NAMES, env);
}

/**
 * The Chromium the tests drive: $CHROME_PATH, else the headless shell when it is installed (Debian's
 * chromium-headless-shell, which `.ci/run` installs), else findChromium(). The shell is the same Blink and
 * V8 as the full browser of its build, without the browser's own UI layer, and what Playwright itself runs
 * headless; the tests check pages, frames, messages and pixels, which are Blink's. A Chromium pass of
 * test/e2e took 196 s and 271 s of CPU in the shell against 243 s and 360 s in the full browser (2 cores,
 * docs/engines.md, Driver workarounds). test/package/chromium-flags.test.ts checks that the two are one build.
 * @returns {string | undefined}
 */
export function findTestChromium(env = process.env) {
  return (!env.CHROME_PATH && onPath(SHELL_NAMES, env)) || findChromium(env);
}
