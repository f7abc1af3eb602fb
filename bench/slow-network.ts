/**
 * The first screen of cards on a slow phone network: from connecting <hub-embed> (the built bundle,
 * already loaded) to its `hub-ready`, under Chrome DevTools' "Slow 3G" profile (2,000 ms latency,
 * 400 kbit/s each way, for every request of the page: the token route, the CORS preflights, the lists),
 * with the README's token route as written (prefetch on) beside the same route without it (token,
 * preflights and two lists in series). Each run is a cold widget: a fresh context and a new user; the
 * two routes take turns, each run starting with the other.
 */
import type { Browser } from 'playwright-core';
import { startSimulator } from '../packages/hub-embed-mock/src/index.js';
import { startLatencyProxy } from './lib/latency-proxy.js';
import { startPageServer } from './lib/page-server.js';
import { median } from './lib/stats.js';

/** Chrome DevTools' Slow 3G preset, as its network panel sets it. */
export const SLOW_3G = { offline: false, latency: 2_000, downloadThroughput: 50_000, uploadThroughput: 50_000 };

export type SlowRoute = 'prefetch' | 'withoutPrefetch';
const ROUTES: readonly SlowRoute[] = ['prefetch', 'withoutPrefetch'];

export interface SlowNetworkResults {
  runs: number;
  /** Connecting to hub-ready, per run, in ms. */
  prefetch: number[];
  withoutPrefetch: number[];
  prefetchMedianMs: number;
  withoutPrefetchMedianMs: number;
}

export async function measureSlowNetwork(browser: Browser, options: { runs: number }): Promise<SlowNetworkResults> {
  const mock = await startSimulator({});
  // The service's own side is quick here; the phone's network is what is slow.
  const proxy = await startLatencyProxy(mock.baseUrl, 0);
  const common = { baseUrl: mock.baseUrl, apiKey: mock.apiKey, serviceLatencyMs: 10 };
  const servers = {
    prefetch: await startPageServer({ ...common, prefetch: true }),
    withoutPrefetch: await startPageServer(common),
  };
  const samples: Record<SlowRoute, number[]> = { prefetch: [], withoutPrefetch: [] };

  async function coldRun(route: SlowRoute, run: number): Promise<void> {
    const server = servers[route];
    const context = await browser.newContext();
    await context.addCookies([
      { name: 'bench_user', value: `slow-${route}-${run}-${Date.now().toString(36)}`, url: server.url },
    ]);
    const page = await context.newPage();
    try {
      await page.goto(server.url);
      await page.waitForFunction(() => customElements.get('hub-embed') !== undefined);
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', SLOW_3G);
      const elapsed = await page.evaluate(
        ({ baseUrl, formUrl }) =>
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
          }),
        { baseUrl: proxy.url, formUrl: mock.formUrl },
      );
      samples[route].push(elapsed);
    } finally {
      await context.close();
    }
  }

  try {
    for (let run = 0; run < options.runs; run++)
      for (const route of run % 2 ? [...ROUTES].reverse() : ROUTES) await coldRun(route, run);
  } finally {
    await servers.prefetch.close();
    await servers.withoutPrefetch.close();
    await proxy.close();
    await mock.close();
  }
  return {
    runs: options.runs,
    ...samples,
    prefetchMedianMs: median(samples.prefetch),
    withoutPrefetchMedianMs: median(samples.withoutPrefetch),
  };
}
