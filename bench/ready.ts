/**
 * Time to ready: from connecting <hub-embed> to its `hub-ready`, in headless Chromium, with the
 * simulator adding L ms to every API response. The token endpoint's own delay is its one upstream
 * exchange with that simulator (L); each run signs in a new user, so the handler's cache never answers
 * from memory. Cold: a fresh page, no token. Warm: a second widget on the same page after the first is
 * ready and its icons have loaded (the token is shared, so only tags + list remain).
 */
import type { Browser } from 'playwright-core';
import { startMockHub } from '../src/mock/index.js';
import { median } from './lib/stats.js';
import { startPageServer } from './lib/page-server.js';

export interface ReadyResults {
  latencyMs: number;
  runs: number;
  coldMs: number[];
  warmMs: number[];
  coldMedianMs: number;
  warmMedianMs: number;
  coldBoundMs: number;
  warmBoundMs: number;
  /** CORS preflights the simulator answered per cold load (each costs L too; see docs/benchmarks.md). */
  preflightsPerCold: number;
  tokenRequestsPerRun: number;
}

export const READY_TARGET_RATIO = 1.2;

export async function measureReady(
  browser: Browser,
  options: { latencyMs: number; runs: number },
): Promise<ReadyResults> {
  const { latencyMs, runs } = options;
  const mock = await startMockHub({ latencyMs });
  const server = await startPageServer({ baseUrl: mock.baseUrl, apiKey: mock.apiKey });
  const coldMs: number[] = [];
  const warmMs: number[] = [];
  let preflights = 0;
  try {
    for (let run = 0; run < runs; run++) {
      const context = await browser.newContext();
      await context.addCookies([
        { name: 'bench_user', value: `ready-${run}-${Date.now().toString(36)}`, url: server.url },
      ]);
      const page = await context.newPage();
      try {
        await page.goto(server.url);
        await page.waitForFunction(() => customElements.get('hub-embed') !== undefined);
        const logStart = mock.hub.requestLog.length;
        const result = await page.evaluate(
          async ({ baseUrl, formUrl }) => {
            const mount = () =>
              new Promise<number>((resolve, reject) => {
                const el = document.createElement('hub-embed');
                el.setAttribute('token-endpoint', '/api/hub-token');
                el.setAttribute('base-url', baseUrl);
                el.setAttribute('form-url', formUrl);
                el.addEventListener('hub-ready', () => resolve(performance.now() - start), { once: true });
                el.addEventListener(
                  'hub-error',
                  (event) =>
                    reject(new Error(`hub-error: ${(event as CustomEvent<{ error: Error }>).detail.error.message}`)),
                  { once: true },
                );
                const start = performance.now();
                document.body.append(el);
              });
            const cold = await mount();
            // hub-ready comes as the data is in; the first widget then renders its cards and loads their
            // icons from the API host. Wait until that is done (no resource finished for 300 ms, more than
            // one icon's L), so the warm figure is the second widget's own time, not a wait for a free
            // connection: the simulator speaks HTTP/1.1, six connections per host.
            for (let i = 0, seen = -1; i < 50 && performance.getEntriesByType('resource').length !== seen; i++) {
              seen = performance.getEntriesByType('resource').length;
              await new Promise((resolve) => setTimeout(resolve, 300));
            }
            const warm = await mount();
            return { cold, warm };
          },
          { baseUrl: mock.baseUrl, formUrl: mock.formUrl },
        );
        coldMs.push(result.cold);
        warmMs.push(result.warm);
        preflights += mock.hub.requestLog.slice(logStart).filter((entry) => entry.method === 'OPTIONS').length;
      } finally {
        await context.close();
      }
    }
  } finally {
    await server.close();
    await mock.close();
  }
  return {
    latencyMs,
    runs,
    coldMs,
    warmMs,
    coldMedianMs: median(coldMs),
    warmMedianMs: median(warmMs),
    coldBoundMs: 2 * latencyMs,
    warmBoundMs: latencyMs,
    preflightsPerCold: preflights / runs,
    tokenRequestsPerRun: server.tokenAnswers.length / runs,
  };
}
