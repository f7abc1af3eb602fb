/**
 * Time to ready on a modelled network: from connecting <hub-embed> (the built bundle, headless Chromium)
 * to the first frame painted after its `hub-ready`: a task after the next animation frame, when what the
 * event says is drawn is on screen, its layout done, whether the widget laid it out before the event or
 * leaves it to that frame. Two latencies as on a phone: L_b for every browser request (to the service,
 * CORS preflights included, through a delaying proxy, and to the developer's token endpoint) and L_s for
 * every call of the developer's server to the service. Each run is a cold widget: a fresh browser
 * context and a new user, so neither the browser nor the token handler has anything cached.
 *
 * Two designs in the same run, in turns (each run starts with the next design): today's path (token, then preflights, then
 * published-tags and published-list from the browser; bound 3 L_b + L_s) and prefetch (the token
 * endpoint brings both answers; bound L_b + 2 L_s). Serial browser round trips are counted from the
 * servers' log of the browser's requests that were answered before hub-ready. Beside them, the limit of
 * the prefetch: the plain-DOM page (bench/lib/plain-dom.ts) on the same endpoint, drawing the same content
 * in one go, and in hub-embed's chunks (no task long on a slow phone), until its `plain-ready`; and what
 * the network and the servers leave any page: the same token request, its answer read and nothing drawn.
 */
import type { Browser } from 'playwright-core';
import { apiBaseUrl } from '../src/core/urls.js';
import { startSimulator } from '../packages/hub-embed-mock/src/index.js';
import { warmFonts } from './lib/fonts.js';
import { serialRoundTrips, startLatencyProxy, type LoggedRequest } from './lib/latency-proxy.js';
import { startPageServer } from './lib/page-server.js';
import { plainDomWidget } from './lib/plain-dom.js';
import { median, ratio } from './lib/stats.js';

export type Design = 'today' | 'prefetch' | 'plainDom' | 'plainDomChunked' | 'fetchOnly';
const DESIGNS: readonly Design[] = ['today', 'prefetch', 'plainDom', 'plainDomChunked', 'fetchOnly'];

export interface DesignResults {
  design: Design;
  /** Per run: to the first frame painted after the ready event. */
  coldMs: number[];
  /** Per run: to the ready event itself, which the frame follows. */
  eventMs: number[];
  coldMedianMs: number;
  boundMs: number;
  /** coldMedianMs / boundMs. */
  ratioToBound: number;
  /** Serial browser round trips before hub-ready, per run (from the servers' request log). */
  roundTrips: number[];
  /** Browser requests answered before hub-ready, per run, e.g. "OPTIONS /api/v1/hub/projects/published-tags". */
  requests: string[][];
}

export interface ReadyResults {
  browserLatencyMs: number;
  serviceLatencyMs: number;
  runs: number;
  today: DesignResults;
  prefetch: DesignResults;
  /** The prefetch's references: the plain-DOM page on the same token endpoint, in one go and chunked. */
  plainDom: DesignResults;
  plainDomChunked: DesignResults;
  /** The same token request alone, its answer read and nothing drawn: the least any page can take here. */
  fetchOnly: DesignResults;
  /** Per run, prefetch cold / today's cold (paired), and their median. */
  pairedRatios: number[];
  pairedRatioMedian: number;
}

/** Prefetch cold at most half of today's cold, in the same run. */
export const PREFETCH_TARGET_RATIO = 0.5;
/** Prefetch cold at most this many times its network bound (L_b + 2 L_s): little beyond the network's time. */
export const PREFETCH_BOUND_TARGET = 1.3;

export async function measureReady(
  browser: Browser,
  options: { browserLatencyMs: number; serviceLatencyMs: number; runs: number },
): Promise<ReadyResults> {
  const { browserLatencyMs: Lb, serviceLatencyMs: Ls, runs } = options;
  const mock = await startSimulator({});
  const proxy = await startLatencyProxy(mock.baseUrl, Lb);
  const common = { baseUrl: mock.baseUrl, apiKey: mock.apiKey, browserLatencyMs: Lb, serviceLatencyMs: Ls };
  const today = await startPageServer(common);
  const prefetch = await startPageServer({ ...common, prefetch: true });
  const servers: Record<Design, typeof today> = {
    today,
    prefetch,
    plainDom: prefetch,
    plainDomChunked: prefetch,
    fetchOnly: prefetch,
  };
  const samples = Object.fromEntries(
    DESIGNS.map((design) => [
      design,
      { coldMs: [] as number[], eventMs: [] as number[], roundTrips: [] as number[], requests: [] as string[][] },
    ]),
  ) as Record<Design, Pick<DesignResults, 'coldMs' | 'eventMs' | 'roundTrips' | 'requests'>>;

  async function coldRun(design: Design, run: number): Promise<void> {
    const server = servers[design];
    const context = await browser.newContext();
    await context.addCookies([
      { name: 'bench_user', value: `ready-${design}-${run}-${Date.now().toString(36)}`, url: server.url },
    ]);
    const page = await context.newPage();
    try {
      await page.goto(server.url);
      await page.waitForFunction(() => customElements.get('hub-embed') !== undefined);
      // The fonts the cards use are loaded before the clock starts, as on a page that shows any text.
      await page.evaluate(warmFonts);
      const fromLog = { proxy: proxy.log.length, token: server.tokenLog.length };
      let readyAt = 0;
      await page.exposeFunction('__benchReadyNow', () => {
        readyAt = performance.now();
      });
      const plain = design === 'plainDom' || design === 'plainDomChunked';
      // In the page, once the design's ready moment comes: its time, then the time of the frame after it.
      const settle = `const event = performance.now() - start;
          const painted = new Promise((done) => requestAnimationFrame(() => setTimeout(() => done(performance.now() - start))));
          void Promise.all([painted, window.__benchReadyNow()]).then(([time]) => resolve([time, event]));`;
      // The plain page's function runs as its source, as Lighthouse's page serves it; its clock starts
      // as the widget's does, just before it starts.
      const plainRun = `new Promise((resolve) => {
        const host = document.createElement('div');
        host.id = 'plain';
        document.body.append(host);
        document.addEventListener('plain-ready', () => {
          ${settle}
        }, { once: true });
        const start = performance.now();
        (${plainDomWidget.toString()})('/api/hub-token', ${JSON.stringify(apiBaseUrl(proxy.url, 'base-url'))}, ${design === 'plainDomChunked'}, true);
      })`;
      // The plain page's request, its answer read, and the frame after: no drawing at all.
      const fetchRun = `new Promise((resolve) => {
        const start = performance.now();
        void fetch('/api/hub-token', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ reason: 'initial', load: { tags: [] } }),
        }).then((answer) => answer.json()).then(() => {
          ${settle}
        });
      })`;
      const [elapsed, event]: [number, number] = plain
        ? await page.evaluate(plainRun)
        : design === 'fetchOnly'
          ? await page.evaluate(fetchRun)
          : await page.evaluate(
              ({ baseUrl, formUrl }) =>
                new Promise<[number, number]>((resolve, reject) => {
                  const el = document.createElement('hub-embed');
                  el.setAttribute('token-endpoint', '/api/hub-token');
                  el.setAttribute('base-url', baseUrl);
                  el.setAttribute('form-url', formUrl);
                  el.addEventListener(
                    'hub-ready',
                    () => {
                      const event = performance.now() - start;
                      const painted = new Promise<number>((done) =>
                        requestAnimationFrame(() => setTimeout(() => done(performance.now() - start))),
                      );
                      void Promise.all([
                        painted,
                        (window as unknown as { __benchReadyNow(): Promise<void> }).__benchReadyNow(),
                      ]).then(([time]) => resolve([time, event]));
                    },
                    { once: true },
                  );
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
      // Only what was answered before hub-ready: the cards' icons start loading as the cards render.
      const answered = (log: LoggedRequest[]) => log.filter((entry) => entry.end <= readyAt);
      const log = [...answered(proxy.log.slice(fromLog.proxy)), ...answered(server.tokenLog.slice(fromLog.token))];
      samples[design].coldMs.push(elapsed);
      samples[design].eventMs.push(event);
      samples[design].roundTrips.push(serialRoundTrips(log));
      samples[design].requests.push(
        log.sort((a, b) => a.start - b.start).map((entry) => `${entry.method} ${entry.path}`),
      );
    } finally {
      await context.close();
    }
  }

  try {
    for (let run = 0; run < runs; run++) {
      // A new order each run, so a slow moment of the machine does not always fall on the same design.
      const order = DESIGNS.map((_, i) => DESIGNS[(i + run) % DESIGNS.length]!);
      for (const design of order) await coldRun(design, run);
    }
  } finally {
    await today.close();
    await prefetch.close();
    await proxy.close();
    await mock.close();
  }
  const summarise = (design: Design, boundMs: number): DesignResults => {
    const coldMedianMs = median(samples[design].coldMs);
    return { design, ...samples[design], coldMedianMs, boundMs, ratioToBound: ratio(coldMedianMs, boundMs) };
  };
  const pairedRatios = samples.prefetch.coldMs.map((ms, i) => ratio(ms, samples.today.coldMs[i]!));
  return {
    browserLatencyMs: Lb,
    serviceLatencyMs: Ls,
    runs,
    today: summarise('today', 3 * Lb + Ls),
    prefetch: summarise('prefetch', Lb + 2 * Ls),
    plainDom: summarise('plainDom', Lb + 2 * Ls),
    plainDomChunked: summarise('plainDomChunked', Lb + 2 * Ls),
    fetchOnly: summarise('fetchOnly', Lb + 2 * Ls),
    pairedRatios,
    pairedRatioMedian: median(pairedRatios),
  };
}
