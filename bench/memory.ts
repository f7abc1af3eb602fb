/**
 * Memory: mount <hub-embed>, wait for hub-ready, open a table's form (the iframe loads), unmount; many
 * times. Heap after a forced GC (CDP HeapProfiler.collectGarbage, then Runtime.getHeapUsage) and the
 * listeners on window and document (CDP DOMDebugger.getEventListeners) are sampled after a warm-up and
 * at the end, so one-time costs (styles, the shared token, the preconnect links) are not counted as growth.
 */
import type { Browser, CDPSession } from 'playwright-core';
import { startMockHub } from '../src/mock/index.js';
import { startPageServer } from './lib/page-server.js';

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
  heapGrowthPerCycleBytes: number;
  listenerGrowth: number;
  /** <hub-embed> elements still in the document at the end (must be 0). */
  leftInDocument: number;
}

/** "Flat": under 1 KB per cycle after GC, and not one listener more. */
export const FLAT_BYTES_PER_CYCLE = 1024;

async function listenersOn(cdp: CDPSession, expression: string): Promise<number> {
  const { result } = await cdp.send('Runtime.evaluate', { expression });
  if (!result.objectId) throw new Error(`no object for ${expression}`);
  const { listeners } = await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId });
  await cdp.send('Runtime.releaseObject', { objectId: result.objectId });
  return listeners.length;
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
    const opened = new Promise((resolve) => el.addEventListener('hub-form-open', resolve, { once: true }));
    const grid = el.shadowRoot!.querySelector('hub-table-grid')!;
    await (grid as unknown as { updateComplete: Promise<boolean> }).updateComplete;
    const card = grid.shadowRoot!.querySelector('hub-table-card')!;
    await (card as unknown as { updateComplete: Promise<boolean> }).updateComplete;
    (card.shadowRoot!.querySelector('[part~=card]') as HTMLElement).click();
    await within(opened, 'hub-form-open');
    await el.updateComplete;
    const frame = el.shadowRoot!.querySelector('hub-form-frame')!;
    await (frame as unknown as { updateComplete: Promise<boolean> }).updateComplete;
    const iframe = frame.shadowRoot!.querySelector('iframe')!;
    await within(new Promise((resolve) => iframe.addEventListener('load', resolve, { once: true })), 'the form iframe');
    el.remove();
  }
}

export async function measureMemory(browser: Browser, options: { cycles: number }): Promise<MemoryResults> {
  const cycles = options.cycles;
  const warmupCycles = Math.max(1, Math.min(20, Math.floor(cycles / 10)));
  const mock = await startMockHub({});
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
    const rest = cycles - warmupCycles;
    const half = Math.floor(rest / 2);
    await page.evaluate(cyclesInPage, { n: half, ...service });
    samples.push(await sample(cdp, warmupCycles + half));
    await page.evaluate(cyclesInPage, { n: rest - half, ...service });
    samples.push(await sample(cdp, cycles));
    const leftInDocument = await page.evaluate(() => document.querySelectorAll('hub-embed').length);
    const first = samples[0]!;
    const last = samples.at(-1)!;
    const measured = cycles - warmupCycles;
    const heapGrowthBytes = last.heapUsedBytes - first.heapUsedBytes;
    return {
      cycles,
      warmupCycles,
      samples,
      heapGrowthBytes,
      heapGrowthPerCycleBytes: measured > 0 ? Math.round(heapGrowthBytes / measured) : 0,
      listenerGrowth: last.windowListeners + last.documentListeners - first.windowListeners - first.documentListeners,
      leftInDocument,
    };
  } finally {
    await cdp.detach().catch(() => undefined);
    await page.close();
    await server.close();
    await mock.close();
  }
}
