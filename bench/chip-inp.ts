/**
 * A chip click's Interaction to Next Paint on the `<script>` tag page (bench/lighthouse.ts's page), with
 * the CPU slowed 4x as Lighthouse's mobile profile does: the Event Timing API's duration of the click
 * (from the input to the next paint after its handlers), read from a PerformanceObserver in the page.
 * Each list the page gets holds 1,000 tables: the simulator's answer, its tables repeated under short
 * codes of their own (the same codes in every answer, in the answer's order), so that the click brings
 * a filter change over 1,000 cards. Beside it, the longest task from the click until every card is drawn.
 * The plain-DOM page (bench/lib/plain-dom.ts) takes the same click on the same lists, interleaved run by
 * run: the reference doing the same work by hand, in one go, its cards off screen not rendered.
 */
import type { Browser } from 'playwright-core';
import { startPages } from './lighthouse.js';
import { median } from './lib/stats.js';

/** A chip click with 1,000 cards at 4x: "good" INP. */
export const INP_TARGET_MS = 200;
/** The tables of each list the page gets. */
export const INP_CARDS = 1000;

/** What one page's chip click measured, per run. */
export interface ChipClicks {
  /** The click's longest event duration per run, in ms (Event Timing rounds to 8 ms). */
  samples: number[];
  medianMs: number;
  /** The longest task (Long Tasks API, 0 when none passed 50 ms) from the click until all cards are drawn, per run. */
  longestTaskMs: number[];
}

export interface ChipInpResults extends ChipClicks {
  runs: number;
  cpuSlowdown: number;
  /**
   * The same click on the plain-DOM page (bench/lib/plain-dom.ts), the reference doing the same work: it
   * asks for the tag's list and moves its 1,000 cards into the new order in one go.
   */
  plain?: ChipClicks;
}

/**
 * The widget's grid holds a list's every card and loads none: the first list drawn, and after the click the
 * tag's (the click sets the grid loading before the first poll; a new list's cards come back one step at a time).
 */
const WIDGET_DRAWN = `(() => { const embed = document.querySelector('hub-embed');
  const grid = embed && embed.shadowRoot.querySelector('hub-table-grid');
  return !!grid && !grid.loading && grid.shadowRoot.querySelectorAll('[role="listitem"]').length === ${INP_CARDS}; })()`;

/** How each page is clicked and known to be done. */
const PAGES = {
  'hub-embed': { drawn: WIDGET_DRAWN, chip: 'hub-embed hub-tag-filter [part~="chip"]', listed: WIDGET_DRAWN },
  'plain DOM': {
    // As careful hand-written code would, and as the render bench's plain grid does: cards after the first
    // 48 are not rendered until they scroll near.
    style: '#plain .item:nth-child(n+49) { content-visibility: auto; contain-intrinsic-size: auto 88px }',
    drawn: `document.querySelectorAll('#plain .item').length === ${INP_CARDS}`,
    chip: '#plain .chip',
    listed: `document.documentElement.dataset.listed !== undefined`,
  },
} as const;

export async function measureChipInp(browser: Browser, options: { runs: number }): Promise<ChipInpResults> {
  const pages = await startPages();
  const cpuSlowdown = 4;
  const clicks = { 'hub-embed': newClicks(), 'plain DOM': newClicks() };
  try {
    for (let run = 0; run < options.runs; run++)
      for (const name of ['hub-embed', 'plain DOM'] as const) {
        const { longestTaskMs, samples } = await clickOnce(browser, pages, name, cpuSlowdown);
        clicks[name].samples.push(samples);
        clicks[name].longestTaskMs.push(longestTaskMs);
      }
  } finally {
    await pages.close();
  }
  for (const page of Object.values(clicks)) page.medianMs = median(page.samples);
  return { runs: options.runs, cpuSlowdown, ...clicks['hub-embed'], plain: clicks['plain DOM'] };
}

function newClicks(): ChipClicks {
  return { samples: [], medianMs: 0, longestTaskMs: [] };
}

/** One chip click on a fresh page of `name`, whose lists hold INP_CARDS tables each. */
async function clickOnce(
  browser: Browser,
  pages: Awaited<ReturnType<typeof startPages>>,
  name: keyof typeof PAGES,
  cpuSlowdown: number,
): Promise<{ samples: number; longestTaskMs: number }> {
  const page$ = PAGES[name];
  const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
  try {
    await context.route('**/projects/published-list*', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { data: { list: { short_code: string }[] } };
      const list = body.data.list;
      body.data.list = Array.from({ length: INP_CARDS }, (_, i) => {
        const table = list[i % list.length]!;
        return { ...table, short_code: `${table.short_code}-${Math.floor(i / list.length)}` };
      });
      await route.fulfill({ response, json: body });
    });
    const page = await context.newPage();
    await page.addInitScript(() => {
      const w = window as unknown as {
        __events: { name: string; duration: number }[];
        __tasks: { start: number; duration: number }[];
      };
      w.__events = [];
      w.__tasks = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) w.__tasks.push({ start: entry.startTime, duration: entry.duration });
      }).observe({ type: 'longtask', buffered: true });
      new PerformanceObserver((list) => {
        // interactionId: in Chromium's Event Timing, not yet in TypeScript's DOM types.
        for (const entry of list.getEntries() as (PerformanceEventTiming & { interactionId?: number })[])
          if (entry.interactionId) w.__events.push({ name: entry.name, duration: entry.duration });
      }).observe({ type: 'event', durationThreshold: 16, buffered: true } as PerformanceObserverInit);
    });
    await page.goto(pages.url(name));
    if ('style' in page$) await page.addStyleTag({ content: page$.style });
    // Polled in tasks of their own: polled in every frame (the default), the count would lengthen the frames measured.
    await page.waitForFunction(page$.drawn, undefined, { polling: 100 });
    // Found before the CPU is slowed, and clicked as a mouse does: the harness's own checks of a locator's
    // click run as tasks in the page, which the long tasks after the click would count as the page's.
    const chip = page.locator(page$.chip).nth(1);
    await chip.scrollIntoViewIfNeeded();
    const box = (await chip.boundingBox())!;
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
    const clicked = await page.evaluate(() => performance.now());
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    // The list for the new tag, all its cards drawn, then two frames: every entry of the click has been reported.
    await page.waitForFunction(page$.listed, undefined, { polling: 100 });
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const { events, tasks } = await page.evaluate(() => {
      const w = window as unknown as {
        __events: { name: string; duration: number }[];
        __tasks: { start: number; duration: number }[];
      };
      return { events: w.__events, tasks: w.__tasks };
    });
    return {
      // Below the observer's 16 ms threshold nothing is reported: the click took under 16 ms.
      samples: Math.max(0, ...events.map((event) => event.duration)),
      longestTaskMs: Math.max(0, ...tasks.filter((task) => task.start >= clicked).map((task) => task.duration)),
    };
  } finally {
    await context.close();
  }
}
