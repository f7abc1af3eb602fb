/**
 * A chip click's Interaction to Next Paint on the `<script>` tag page (bench/lighthouse.ts's page), with
 * the CPU slowed 4x as Lighthouse's mobile profile does: the Event Timing API's duration of the click
 * (from the input to the next paint after its handlers), read from a PerformanceObserver in the page.
 */
import type { Browser } from 'playwright-core';
import { startPages } from './lighthouse.js';
import { median } from './lib/stats.js';

/** Within one frame of work, as the issue asks of a chip click. */
export const INP_TARGET_MS = 100;

export interface ChipInpResults {
  runs: number;
  cpuSlowdown: number;
  /** The click's longest event duration per run, in ms (Event Timing rounds to 8 ms). */
  samples: number[];
  medianMs: number;
}

export async function measureChipInp(browser: Browser, options: { runs: number }): Promise<ChipInpResults> {
  const pages = await startPages();
  const cpuSlowdown = 4;
  const samples: number[] = [];
  try {
    for (let run = 0; run < options.runs; run++) {
      const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
      try {
        const page = await context.newPage();
        await page.addInitScript(() => {
          const w = window as unknown as { __ready: boolean; __events: { name: string; duration: number }[] };
          w.__events = [];
          document.addEventListener('hub-ready', () => (w.__ready = true));
          new PerformanceObserver((list) => {
            // interactionId: in Chromium's Event Timing, not yet in TypeScript's DOM types.
            for (const entry of list.getEntries() as (PerformanceEventTiming & { interactionId?: number })[])
              if (entry.interactionId) w.__events.push({ name: entry.name, duration: entry.duration });
          }).observe({ type: 'event', durationThreshold: 16, buffered: true } as PerformanceObserverInit);
        });
        await page.goto(pages.url('hub-embed'));
        await page.waitForFunction('window.__ready === true');
        const cdp = await context.newCDPSession(page);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
        await page.locator('hub-embed hub-tag-filter [part~="chip"]').nth(1).click();
        // The list for the new tag, then two frames: every entry of the click has been reported.
        await page.waitForFunction(
          `!document.querySelector('hub-embed').shadowRoot.querySelector('hub-table-grid').loading`,
        );
        await page.evaluate(
          () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
        );
        const events = await page.evaluate(
          () => (window as unknown as { __events: { name: string; duration: number }[] }).__events,
        );
        // Below the observer's 16 ms threshold nothing is reported: the click took under 16 ms.
        samples.push(Math.max(0, ...events.map((event) => event.duration)));
      } finally {
        await context.close();
      }
    }
  } finally {
    await pages.close();
  }
  return { runs: options.runs, cpuSlowdown, samples, medianMs: median(samples) };
}
