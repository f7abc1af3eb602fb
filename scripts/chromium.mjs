// Finds a Chromium for the browser tests, the end-to-end suite and the benchmarks.
// Order: $CHROME_PATH, then the usual Debian/Ubuntu/Google names on PATH or in /usr/bin.
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

const NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

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

export const CHROMIUM_MISSING =
  'No Chromium found. Install one (Debian/Ubuntu: `sudo apt-get install -y chromium`) or set CHROME_PATH to a Chrome/Chromium binary.';

/** @returns {string | undefined} the path of a Chromium binary, or undefined when none is installed. */
export function findChromium(env = process.env) {
  if (env.CHROME_PATH) return existsSync(env.CHROME_PATH) ? env.CHROME_PATH : undefined;
  const dirs = ['/usr/bin', ...(env.PATH ?? '').split(delimiter).filter(Boolean)];
  for (const name of NAMES) {
    for (const dir of dirs) {
      const candidate = join(dir, name);
      if (existsSync(candidate)) return candidate;
    }
  }
  return undefined;
}
