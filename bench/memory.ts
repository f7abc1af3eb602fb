/**
 * Memory: mount <hub-embed>, wait for hub-ready, rest a pointer on one card until its form is prepared
 * (its page loads and says what it says, held), rest on another until that one is prepared and loaded (the
 * first is dropped unopened), click it (the prepared frame opens and lets out what it held), unmount; many
 * times. Heap after a forced GC (CDP HeapProfiler.collectGarbage, then Runtime.getHeapUsage) and the
 * listeners on window and document (CDP DOMDebugger.getEventListeners) are sampled after a warm-up and
 * then every SAMPLE_EVERY cycles, so one-time costs (styles, the shared token, the preconnect links) are
 * not counted as growth, and the growth is the least-squares slope through all the samples: three samples
 * cannot tell a leak from where the collector happened to stand. At the end, the live <hub-form-frame>
 * and <iframe> objects are counted (CDP Runtime.queryObjects): a frame kept by anything, with its held
 * events, would be one.
 */
import type { Browser, CDPSession } from 'playwright-core';
import { startSimulator } from '../packages/hub-embed-mock/src/index.js';
import { launchChromium } from './lib/browser.js';
import { startPageServer } from './lib/page-server.js';
import { formatTable, kb, type Row } from './lib/stats.js';

export interface MemorySample {
  cycles: number;
  heapUsedBytes: number;
  windowListeners: number;
  documentListeners: number;
}

export interface MemoryResults {
  cycles: number;
  warmupCycles: number;
  samples: MemorySample[];
  /** Heap after the last cycle minus heap after the warm-up, both after GC. */
  heapGrowthBytes: number;
  /** The least-squares slope of heap against cycles, through every sample after the warm-up. */
  heapGrowthPerCycleBytes: number;
  /** Twice the slope's standard error: the slope is known to about this much either way. */
  heapSlopeMarginBytes: number;
  listenerGrowth: number;
  /** <hub-embed> elements still in the document at the end (must be 0). */
  leftInDocument: number;
  /** Live <hub-form-frame> and <iframe> objects after the last cycle and GC (must be 0: none is in the document). */
  liveFormFrames: number;
  liveIframes: number;
}

/** "Flat": under 1 KB per cycle after GC, and not one listener more. */
export const FLAT_BYTES_PER_CYCLE = 1024;
/** Cycles between two heap samples after the warm-up. */
export const SAMPLE_EVERY = 10;

/** The least-squares slope of y against x, and its standard error. */
export function slope(points: { x: number; y: number }[]): { slope: number; standardError: number } {
  const n = points.length;
  if (n < 2) return { slope: 0, standardError: Number.NaN };
  const meanX = points.reduce((sum, p) => sum + p.x, 0) / n;
  const meanY = points.reduce((sum, p) => sum + p.y, 0) / n;
  const sxx = points.reduce((sum, p) => sum + (p.x - meanX) ** 2, 0);
  const sxy = points.reduce((sum, p) => sum + (p.x - meanX) * (p.y - meanY), 0);
  const b = sxy / sxx;
  const residuals = points.reduce((sum, p) => sum + (p.y - meanY - b * (p.x - meanX)) ** 2, 0);
  return { slope: b, standardError: n > 2 ? Math.sqrt(residuals / (n - 2) / sxx) : Number.NaN };
}

async function listenersOn(cdp: CDPSession, expression: string): Promise<number> {
  const { result } = await cdp.send('Runtime.evaluate', { expression });
  if (!result.objectId) throw new Error(`no object for ${expression}`);
  const { listeners } = await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId });
  await cdp.send('Runtime.releaseObject', { objectId: result.objectId });
  return listeners.length;
}

/** How many objects whose prototype `expression` names are alive (call after a GC). */
async function liveObjects(cdp: CDPSession, expression: string): Promise<number> {
  const { result } = await cdp.send('Runtime.evaluate', { expression });
  if (!result.objectId) throw new Error(`no object for ${expression}`);
  const { objects } = await cdp.send('Runtime.queryObjects', { prototypeObjectId: result.objectId });
  const { result: count } = await cdp.send('Runtime.callFunctionOn', {
    objectId: objects.objectId!,
    functionDeclaration: 'function () { return this.length; }',
    returnByValue: true,
  });
  await cdp.send('Runtime.releaseObject', { objectId: objects.objectId! });
  await cdp.send('Runtime.releaseObject', { objectId: result.objectId });
  return count.value as number;
}

async function sample(cdp: CDPSession, cycles: number): Promise<MemorySample> {
  // Twice: the first pass may only queue finalizers that free more on the second.
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  return {
    cycles,
    heapUsedBytes: usedSize,
    windowListeners: await listenersOn(cdp, 'window'),
    documentListeners: await listenersOn(cdp, 'document'),
  };
}

/** Runs in the page: `n` mount / open form / unmount cycles. */
async function cyclesInPage({ n, baseUrl, formUrl }: { n: number; baseUrl: string; formUrl: string }): Promise<void> {
  const within = <T>(promise: Promise<T>, what: string) =>
    Promise.race([
      promise,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), 10_000)),
    ]);
  for (let i = 0; i < n; i++) {
    const el = document.createElement('hub-embed') as HTMLElement & { updateComplete: Promise<boolean> };
    el.setAttribute('token-endpoint', '/api/hub-token');
    el.setAttribute('base-url', baseUrl);
    el.setAttribute('form-url', formUrl);
    const ready = new Promise((resolve, reject) => {
      el.addEventListener('hub-ready', resolve, { once: true });
      el.addEventListener(
        'hub-error',
        (event) => reject(new Error((event as CustomEvent<{ error: Error }>).detail.error.message)),
        { once: true },
      );
    });
    document.body.append(el);
    await within(ready, 'hub-ready');
    const grid = el.shadowRoot!.querySelector('hub-table-grid')!;
    await (grid as unknown as { updateComplete: Promise<boolean> }).updateComplete;
    // Each card a list item of the grid's, carrying its table, its control inside.
    const cards = [...grid.shadowRoot!.querySelectorAll('[role="listitem"]')].slice(0, 2);
    const controls = cards.map((card) => card.querySelector('[part~=card]') as HTMLElement);
    type Frame = HTMLElement & { shortCode: string; updateComplete: Promise<boolean> };
    /** Rests a pointer on `control` until its form is prepared, and waits for the prepared page's load. */
    const prepare = async (control: HTMLElement, card: Element) => {
      const code = (card as unknown as { table: { short_code: string } }).table.short_code;
      let frame: Frame | null | undefined;
      await within(
        (async () => {
          for (;;) {
            // Again until it takes: the first may come before this widget's form half listens (the
            // pointer it reports is the same, so a rest already begun goes on).
            control.dispatchEvent(
              new PointerEvent('pointerover', { bubbles: true, composed: true, pointerType: 'mouse' }),
            );
            frame = el.shadowRoot!.querySelector<Frame>('hub-form-frame');
            if (frame?.shortCode === code) return;
            await new Promise((next) => setTimeout(next, 20));
          }
        })(),
        'a prepared form',
      );
      // Its status, not a load listener: the page may have loaded before a listener could be added.
      const loaded = async () => {
        while ((frame as unknown as { status: string }).status !== 'ready')
          await new Promise((next) => setTimeout(next, 20));
      };
      await within(loaded(), 'its page');
    };
    // The first form is prepared, its page loads and speaks (held), and it is dropped unopened.
    await prepare(controls[1]!, cards[1]!);
    await prepare(controls[0]!, cards[0]!);
    const opened = new Promise((resolve) => el.addEventListener('hub-form-open', resolve, { once: true }));
    controls[0]!.click();
    await within(opened, 'hub-form-open');
    await el.updateComplete;
    el.remove();
  }
}

export async function measureMemory(browser: Browser, options: { cycles: number }): Promise<MemoryResults> {
  const cycles = options.cycles;
  const warmupCycles = Math.max(1, Math.min(20, Math.floor(cycles / 10)));
  const mock = await startSimulator({});
  const server = await startPageServer({ baseUrl: mock.baseUrl, apiKey: mock.apiKey });
  const page = await browser.newPage();
  const cdp = await page.context().newCDPSession(page);
  const samples: MemorySample[] = [];
  try {
    await page.goto(server.url);
    await page.waitForFunction(() => customElements.get('hub-embed') !== undefined);
    await cdp.send('Runtime.enable');
    const service = { baseUrl: mock.baseUrl, formUrl: mock.formUrl };
    await page.evaluate(cyclesInPage, { n: warmupCycles, ...service });
    samples.push(await sample(cdp, warmupCycles));
    for (let done = warmupCycles; done < cycles;) {
      const n = Math.min(SAMPLE_EVERY, cycles - done);
      await page.evaluate(cyclesInPage, { n, ...service });
      done += n;
      samples.push(await sample(cdp, done));
    }
    const leftInDocument = await page.evaluate(() => document.querySelectorAll('hub-embed').length);
    // After the last sample's GC: what is still alive is kept by something.
    const liveFormFrames = await liveObjects(cdp, "customElements.get('hub-form-frame').prototype");
    const liveIframes = await liveObjects(cdp, 'HTMLIFrameElement.prototype');
    const first = samples[0]!;
    const last = samples.at(-1)!;
    const fit = slope(samples.map((s) => ({ x: s.cycles, y: s.heapUsedBytes })));
    return {
      cycles,
      warmupCycles,
      samples,
      heapGrowthBytes: last.heapUsedBytes - first.heapUsedBytes,
      heapGrowthPerCycleBytes: Math.round(fit.slope),
      heapSlopeMarginBytes: Math.round(2 * fit.standardError),
      listenerGrowth: last.windowListeners + last.documentListeners - first.windowListeners - first.documentListeners,
      leftInDocument,
      liveFormFrames,
      liveIframes,
    };
  } finally {
    await cdp.detach().catch(() => undefined);
    await page.close();
    await server.close();
    await mock.close();
  }
}

/** The memory rows: the fitted growth per cycle, the listeners, and what is left alive. */
export function memoryRows(memory: MemoryResults): Row[] {
  const perCycle = memory.heapGrowthPerCycleBytes;
  return [
    {
      metric: `memory, ${memory.cycles} mount/prepare/open/unmount cycles, heap slope (least squares, ${memory.samples.length} samples)`,
      // Two samples (a smoke run) give a slope but no margin.
      value: `${perCycle >= 0 ? '+' : ''}${perCycle}${Number.isFinite(memory.heapSlopeMarginBytes) ? ` ± ${memory.heapSlopeMarginBytes}` : ''} B/cycle`,
      reference: `heap after ${memory.warmupCycles} cycles ${kb(memory.samples[0]!.heapUsedBytes)}, last minus first ${memory.heapGrowthBytes >= 0 ? '+' : ''}${kb(memory.heapGrowthBytes)}`,
      ratio: '',
      target: `flat: < ${FLAT_BYTES_PER_CYCLE} B/cycle`,
      met:
        Number.isFinite(memory.heapSlopeMarginBytes) && perCycle + memory.heapSlopeMarginBytes < FLAT_BYTES_PER_CYCLE,
    },
    {
      metric: 'memory, live listeners on window+document',
      value: `${memory.listenerGrowth >= 0 ? '+' : ''}${memory.listenerGrowth}`,
      reference: `${memory.samples[0]!.windowListeners + memory.samples[0]!.documentListeners} after warm-up`,
      ratio: '',
      target: '+0',
      met: memory.listenerGrowth === 0 && memory.leftInDocument === 0,
    },
    {
      metric: 'memory, <hub-form-frame> and <iframe> objects alive after the last cycle (prepared, held, opened)',
      value: `${memory.liveFormFrames} and ${memory.liveIframes}`,
      reference: 'none in the document',
      ratio: '',
      target: '0 and 0',
      met: memory.liveFormFrames === 0 && memory.liveIframes === 0,
    },
  ];
}

// Alone: `node --import ./scripts/ts-register.mjs bench/memory.ts [cycles]` (after `npm run build`).
if (process.argv[1]?.endsWith('memory.ts')) {
  const browser = await launchChromium();
  try {
    const memory = await measureMemory(browser, { cycles: Number(process.argv[2] ?? 200) });
    console.log(formatTable(memoryRows(memory)));
    console.log(memory.samples.map((s) => `${s.cycles}: ${s.heapUsedBytes}`).join('\n'));
  } finally {
    await browser.close();
  }
}
