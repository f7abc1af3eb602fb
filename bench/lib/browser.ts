/** Chromium through playwright-core, with the project's flags; a clear error when none is installed. */
import { chromium, type Browser } from 'playwright-core';
import { PLAYWRIGHT_CHROMIUM_ARGS, CHROMIUM_MISSING, findChromium } from '../../scripts/chromium.mjs';

export async function launchChromium(): Promise<Browser> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error(CHROMIUM_MISSING);
  return chromium.launch({ executablePath, args: [...PLAYWRIGHT_CHROMIUM_ARGS] });
}
