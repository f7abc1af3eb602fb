/**
 * `npm run bench`: sizes, time to ready, the form half on intent, render, token handler and memory, each
 * next to its reference measured in the same run. Prints one table and writes bench/results.json, a run's
 * output that is never committed. The release step (`npm run release`, through --render) renders
 * docs/benchmarks.md from it (bench/page.ts), from a full run on CI's Node only.
 *   --smoke       tiny counts, for CI: proves every benchmark still runs; its timings mean nothing.
 *   --out <file>  where to write the JSON (default bench/results.json).
 *   --render      no run: renders docs/benchmarks.md from bench/results.json.
 */
import { writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { formHalfBytesRows, formHalfClickRows, measureFormHalf, type FormHalfResults } from './form-half.js';
import { launchChromium } from './lib/browser.js';
import { formatTable, kb, median, ms, ratio, type Row } from './lib/stats.js';
import { INP_CARDS, INP_TARGET_MS, measureChipInp, type ChipInpResults } from './chip-inp.js';
import { lighthouseRows, measureLighthouse, type LighthouseResults } from './lighthouse.js';
import { measureMemory, memoryRows, type MemoryResults } from './memory.js';
import { measureMockScale, mockScaleRows, type MockScaleResults } from './mock-scale.js';
import { measureReady, PREFETCH_BOUND_TARGET, PREFETCH_TARGET_RATIO, type ReadyResults } from './ready.js';
import { measureSlowNetwork, type SlowNetworkResults } from './slow-network.js';
import { firstViewRows, measureFirstView, type FirstViewResults } from './first-view.js';
import { FILTER_TARGET_RATIO, measureRender, RENDER_TARGET_RATIO, type RenderCase } from './render.js';
import { firstFileLimit, measureSizes, type SizeResults } from './sizes.js';
import { FAST_PATH_TARGET, measureTokenHandler, type TokenHandlerResults } from './token-handler.js';
import { measureInstances, type InstancesResults } from './token-instances.js';
import { writeBenchmarksPage } from './page.js';

export interface BenchOptions {
  smoke: boolean;
  out: string;
  render?: boolean;
}

const RESULTS = fileURLToPath(new URL('./results.json', import.meta.url));

export interface BenchResults {
  mode: 'full' | 'smoke';
  date: string;
  machine: { cpus: number; model: string; memoryBytes: number; node: string };
  sizes: SizeResults;
  ready: ReadyResults;
  /** The first screen of cards on Slow 3G: the README's token route (prefetch on) beside it without. */
  slowNetwork?: SlowNetworkResults;
  /** The first painted card with the first view in the server's HTML, beside today's page and plain DOM. */
  firstView?: FirstViewResults;
  formHalf: FormHalfResults;
  /** The same clicks on a network where a new connection costs one L_b to set up (a preconnect can save it). */
  formHalfConnections: FormHalfResults;
  render: RenderCase[];
  tokenHandler: TokenHandlerResults;
  instances: InstancesResults;
  memory: MemoryResults;
  mockScale?: MockScaleResults;
  /** Lighthouse on hub-embed's page (and with Latin text), the plain-DOM pages, Typeform's and Cal.com's, interleaved. */
  lighthouse?: LighthouseResults;
  chipInp?: ChipInpResults;
  rows: Row[];
}

export function parseArgs(argv: readonly string[]): BenchOptions {
  const options: BenchOptions = { smoke: false, out: RESULTS };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--smoke') options.smoke = true;
    else if (arg === '--render') options.render = true;
    else if (arg === '--out') {
      const value = argv[++i];
      if (!value || value.startsWith('--')) throw new Error('--out needs a file path, e.g. --out /tmp/results.json');
      options.out = value;
    } else throw new Error(`Unknown option ${JSON.stringify(arg)}; use --smoke, --out <file> or --render.`);
  }
  return options;
}

/** The size of each run: the issue's counts, or tiny ones for the smoke run. */
export function plan(smoke: boolean) {
  return smoke
    ? {
        browserLatencyMs: 20,
        serviceLatencyMs: 2,
        readyRuns: 1,
        slowRuns: 1,
        firstViewRuns: 1,
        formRuns: 1,
        renderCounts: [100],
        renderReps: 1,
        requests: 200,
        users: 10,
        handlerRounds: 1,
        cycles: 5,
        // One Lighthouse run per page: proves the section runs; no verdicts.
        lighthouseRuns: 1,
        inpRuns: 1,
      }
    : {
        // The issue's network: L_b (browser to service and to the developer's backend), L_s (backend to service).
        browserLatencyMs: 100,
        serviceLatencyMs: 10,
        readyRuns: 7,
        slowRuns: 3,
        firstViewRuns: 5,
        formRuns: 11,
        renderCounts: [100, 1000, 10000],
        renderReps: 15,
        requests: 10_000,
        users: 100,
        handlerRounds: 3,
        cycles: 200,
        lighthouseRuns: 3,
        inpRuns: 5,
      };
}

export function rowsOf(r: Omit<BenchResults, 'rows' | 'mode' | 'date' | 'machine'>): Row[] {
  const { sizes, ready, render, tokenHandler, memory } = r;
  const rows: Row[] = [];
  for (const c of r.instances?.cases ?? []) {
    rows.push({
      metric: `token endpoint, ${c.processes} process${c.processes > 1 ? 'es' : ''}, ${c.cache} cache`,
      value: `${Math.round(c.requestsPerSecond)} req/s, ${c.exchanges} exchanges`,
      reference: `${c.requests} requests, ${c.users} users`,
      ratio: `${ratio(c.exchanges, c.users)}x users`,
      target: c.cache === 'redis' ? '1 exchange per user' : '',
      met: c.cache === 'redis' ? c.exchanges === c.users && c.failed === 0 : undefined,
    });
  }
  if (r.instances?.skipped)
    rows.push({
      metric: 'token endpoint, Redis cache',
      value: 'skipped',
      reference: r.instances.skipped,
      ratio: '',
      target: '',
    });
  const ref = `Typeform ${kb(sizes.references.typeformGzip)}, Cal.com ${kb(sizes.references.calcomGzip)}`;
  const plainFile = firstFileLimit('plain');
  rows.push({
    metric: 'script bundle, gzip (brotli)',
    value: `${kb(sizes.bundle.gzip)} (${kb(sizes.bundle.brotli)})`,
    reference: ref,
    ratio: `${ratio(sizes.bundle.gzip, sizes.references.typeformGzip)}x Typeform`,
    // The budget itself is named, not copied: it moves between releases, and this page is a release's.
    target: 'its budget less the room (scripts/size-budgets.mjs)',
    met: sizes.bundle.gzip <= plainFile.limit,
  });
  // Lit's share: Lit alone, minified as the first file is, beside our own code built with Lit left out.
  rows.push({
    metric: "Lit's share: Lit alone, and own code (Lit left out), gzip (brotli)",
    value: `Lit ${kb(sizes.litAlone.gzip)} (${kb(sizes.litAlone.brotli)}), own ${kb(sizes.withoutLit.gzip)} (${kb(sizes.withoutLit.brotli)})`,
    reference: ref,
    ratio: `${ratio(sizes.litAlone.gzip, sizes.bundle.gzip)}x bundle is Lit`,
    target: '',
  });
  // The npm path, as a user counts it: the app's own Lit and Vite's preload helper are bytes the import brings
  // (issue 81's target: no more than the first file). The build holds the app without a lazy import to its budget.
  const { withLazyImport, withoutLazyImport } = sizes.npmPath;
  rows.push({
    metric:
      "npm path: import 'hub-embed/define' in a Vite app's first load, gzip (app without a lazy import of its own)",
    value: `${kb(withLazyImport)} (${kb(withoutLazyImport)})`,
    reference: ref,
    ratio: `${ratio(withLazyImport, sizes.references.typeformGzip)}x Typeform`,
    target: `<= the first file; (its budget less the room)`,
    met: withLazyImport <= sizes.bundle.gzip && withoutLazyImport <= sizes.npmPath.limit,
  });
  rows.push(...readyRows(ready));
  if (r.slowNetwork) rows.push(...slowNetworkRows(r.slowNetwork));
  if (r.firstView) rows.push(...firstViewRows(r.firstView));
  rows.push(
    ...formHalfBytesRows(r.formHalf),
    ...formHalfClickRows(r.formHalf),
    ...formHalfClickRows(r.formHalfConnections),
  );
  for (const c of render) {
    const target = c.count === 1000;
    const spread = (range: [number, number]) => `spread ${range[0]}-${range[1]}x`;
    rows.push({
      metric: `render ${c.count.toLocaleString('en')} cards (paired, ${c.reps} repeats)`,
      value: ms(c.litRenderMs),
      reference: `plain DOM ${ms(c.plainRenderMs)}; paced as the element ${ms(c.pacedRenderMs)}; with shadow-root cards ${ms(c.shadowRenderMs)}`,
      ratio: `${c.renderRatio}x (${spread(c.renderRatioSpread)}); ${c.renderVsPaced}x paced plain DOM`,
      target: target ? `<= ${RENDER_TARGET_RATIO}x` : '',
      ...(target ? { met: c.renderRatio <= RENDER_TARGET_RATIO } : {}),
    });
    rows.push({
      metric: `filter change, ${c.count.toLocaleString('en')} cards (paired)`,
      value: ms(c.litFilterMs),
      reference: `plain DOM in place ${ms(c.plainFilterMs)}; paced as the element ${ms(c.pacedFilterMs)}; with shadow-root cards ${ms(c.shadowFilterMs)}`,
      ratio: `${c.filterRatio}x (${spread(c.filterRatioSpread)}); ${c.filterVsPaced}x paced plain DOM`,
      target: target ? `<= ${FILTER_TARGET_RATIO}x` : '',
      ...(target ? { met: c.filterRatio <= FILTER_TARGET_RATIO } : {}),
    });
  }
  const { cached, naive, fast, web, limit } = tokenHandler;
  const perRound = `${cached.requests.toLocaleString('en')} req / ${cached.users} users, median of ${tokenHandler.rounds}`;
  const againstLimit = (metric: string, requestsPerSecond: number): Row => ({
    metric,
    value: `${requestsPerSecond} req/s`,
    reference: `limit ${limit.requestsPerSecond} req/s`,
    ratio: `${ratio(requestsPerSecond, limit.requestsPerSecond)}x limit`,
    target: '',
  });
  rows.push(againstLimit(`token handler, Web path (${perRound})`, web.requestsPerSecond));
  rows.push(againstLimit(`token handler, node:http fast path (${perRound})`, fast.requestsPerSecond));
  rows.push({
    metric: 'token handler, fast path / Web path',
    value: `${ratio(fast.requestsPerSecond, web.requestsPerSecond)}x`,
    reference: `rounds: ${fast.samples.map((f, i) => ratio(f, web.samples[i]!)).join(', ')}`,
    ratio: '',
    target: `>= ${FAST_PATH_TARGET}x`,
    met: fast.requestsPerSecond >= FAST_PATH_TARGET * web.requestsPerSecond,
  });
  rows.push(againstLimit('token handler, pass-through (an exchange per request)', naive.requestsPerSecond));
  rows.push({
    metric: 'token handler, upstream exchanges',
    value: String(cached.upstreamExchanges),
    reference: `pass-through ${naive.upstreamExchanges}`,
    ratio: '',
    target: `= ${cached.users} users`,
    met: cached.upstreamExchanges === cached.users && cached.failures === 0,
  });
  rows.push(...memoryRows(memory));
  if (r.mockScale) rows.push(...mockScaleRows(r.mockScale));
  if (r.lighthouse) rows.push(...lighthouseRows(r.lighthouse));
  if (r.chipInp)
    rows.push({
      metric: `chip click INP, script-tag page, ${INP_CARDS.toLocaleString('en')} cards, ${r.chipInp.cpuSlowdown}x CPU slowdown (Event Timing, median of ${r.chipInp.runs})`,
      value: ms(r.chipInp.medianMs),
      reference: `runs: ${r.chipInp.samples.join(', ')} ms (0: under the 16 ms threshold)${
        r.chipInp.plain ? `; plain DOM in one go ${ms(r.chipInp.plain.medianMs)}` : ''
      }`,
      ratio: '',
      target: `<= ${INP_TARGET_MS} ms`,
      met: r.chipInp.medianMs <= INP_TARGET_MS,
    });
  if (r.chipInp?.longestTaskMs)
    rows.push({
      metric: `longest task from the chip click until its ${INP_CARDS.toLocaleString('en')} cards are drawn, ${r.chipInp.cpuSlowdown}x CPU slowdown (Long Tasks API, median of ${r.chipInp.runs})`,
      value: ms(median(r.chipInp.longestTaskMs)),
      reference: `runs: ${r.chipInp.longestTaskMs.map((value) => Math.round(value)).join(', ')} ms (0: none over 50 ms)${
        r.chipInp.plain ? `; plain DOM in one go ${ms(median(r.chipInp.plain.longestTaskMs))}` : ''
      }`,
      ratio: '',
      target: '<= 50 ms',
      met: median(r.chipInp.longestTaskMs) <= 50,
    });
  return rows;
}

/** Time to ready for each design on the modelled network, and the prefetch targets. */
export function readyRows(ready: ReadyResults): Row[] {
  const { today, prefetch, browserLatencyMs: Lb, serviceLatencyMs: Ls, runs } = ready;
  const trips = (d: ReadyResults['today']) => `${Math.max(...d.roundTrips)} (runs: ${d.roundTrips.join(', ')})`;
  return [
    {
      metric: `ready, cold, today's path (L_b=${Lb}, L_s=${Ls} ms, median of ${runs})`,
      value: ms(today.coldMedianMs),
      reference: `3 L_b + L_s = ${ms(today.boundMs)}`,
      ratio: `${today.ratioToBound}x`,
      target: '',
    },
    {
      metric: `ready, cold, prefetch (L_b=${Lb}, L_s=${Ls} ms, median of ${runs})`,
      value: ms(prefetch.coldMedianMs),
      // Its limit: the plain-DOM page drawing the same screen from the same token answer; and the same
      // request with nothing drawn, what the network and the servers leave any page.
      reference: `L_b + 2 L_s = ${ms(prefetch.boundMs)}; plain DOM ${ms(ready.plainDom.coldMedianMs)} in one go (${ready.plainDom.ratioToBound}x), ${ms(ready.plainDomChunked.coldMedianMs)} chunked (${ready.plainDomChunked.ratioToBound}x); the token request alone, nothing drawn, ${ms(ready.fetchOnly.coldMedianMs)} (${ready.fetchOnly.ratioToBound}x)`,
      ratio: `${prefetch.ratioToBound}x`,
      target: `<= ${PREFETCH_BOUND_TARGET}x the bound`,
      met: prefetch.ratioToBound <= PREFETCH_BOUND_TARGET,
    },
    {
      metric: 'ready, cold, prefetch / today (paired runs)',
      value: `${ready.pairedRatioMedian}x`,
      reference: `runs: ${ready.pairedRatios.join(', ')}`,
      ratio: '',
      target: `<= ${PREFETCH_TARGET_RATIO}x`,
      met: ready.pairedRatioMedian <= PREFETCH_TARGET_RATIO,
    },
    {
      metric: "serial browser round trips before ready, today's path",
      value: trips(today),
      reference: 'token, preflights, GETs',
      ratio: '',
      target: '',
    },
    {
      metric: 'serial browser round trips before ready, prefetch',
      value: trips(prefetch),
      reference: 'token only',
      ratio: '',
      target: '1',
      met: prefetch.roundTrips.every((count) => count === 1),
    },
  ];
}

export function slowNetworkRows(slow: SlowNetworkResults): Row[] {
  const runs = (list: number[]) => `runs: ${list.map((value) => ms(value)).join(', ')}`;
  return [
    {
      metric: `first screen of cards on Slow 3G, the README's token route (prefetch on; median of ${slow.runs})`,
      value: ms(slow.prefetchMedianMs),
      reference: runs(slow.prefetch),
      ratio: `${ratio(slow.prefetchMedianMs, slow.withoutPrefetchMedianMs)}x without`,
      target: '',
    },
    {
      metric: `first screen of cards on Slow 3G, the same route without prefetch (median of ${slow.runs})`,
      value: ms(slow.withoutPrefetchMedianMs),
      reference: runs(slow.withoutPrefetch),
      ratio: '',
      target: '',
    },
  ];
}

/**
 * Smoke counts are too small for timing or heap verdicts; only the size and the exchange count keep
 * theirs, because they do not depend on counts or noise.
 */
export function smokeRows(rows: readonly Row[]): Row[] {
  return rows.map((row) => {
    if (
      row.metric.startsWith('script bundle') ||
      row.metric.startsWith('bytes before hub-ready') ||
      row.metric.endsWith('upstream exchanges') ||
      row.metric.startsWith('serial browser round trips') ||
      row.metric.includes('listeners') ||
      row.metric.startsWith("the first view's HTML")
    )
      return row;
    const { met: _dropped, ...rest } = row;
    return rest;
  });
}

export async function runBench(
  options: BenchOptions,
  log: (line: string) => void = console.log,
): Promise<BenchResults> {
  const p = plan(options.smoke);
  log(`hub-embed bench (${options.smoke ? 'smoke: tiny counts, timings are not meaningful' : 'full'})`);
  log('sizes...');
  const sizes = await measureSizes();
  if (sizes.rebuiltRaw !== sizes.bundle.raw)
    log(
      `note: src/ differs from dist/hub-embed.iife.js (${sizes.rebuiltRaw} vs ${sizes.bundle.raw} bytes raw); run npm run build for consistent size rows.`,
    );
  log('token handler...');
  const tokenHandler = await measureTokenHandler({ requests: p.requests, users: p.users, rounds: p.handlerRounds });
  log('token handler on 1 and 4 processes, memory and Redis cache...');
  const instances = await measureInstances({ requests: Math.min(p.requests, 2_000), users: p.users });
  const browser = await launchChromium();
  try {
    log('time to ready...');
    const ready = await measureReady(browser, {
      browserLatencyMs: p.browserLatencyMs,
      serviceLatencyMs: p.serviceLatencyMs,
      runs: p.readyRuns,
    });
    log('the first screen of cards on Slow 3G, with and without the prefetch...');
    const slowNetwork = await measureSlowNetwork(browser, { runs: p.slowRuns });
    log("the first painted card with the server's first view, today's page and plain DOM, interleaved...");
    const firstView = await measureFirstView(browser, {
      runs: p.firstViewRuns,
      browserLatencyMs: p.browserLatencyMs,
      serviceLatencyMs: p.serviceLatencyMs,
      smoke: options.smoke,
    });
    log('the form half: bytes, and click to form load, single file against split...');
    const clickNetwork = {
      browserLatencyMs: p.browserLatencyMs,
      serviceLatencyMs: p.serviceLatencyMs,
      runs: p.formRuns,
    };
    const formHalf = await measureFormHalf(browser, clickNetwork);
    log('the same clicks, a new connection costing one L_b to set up...');
    const formHalfConnections = await measureFormHalf(browser, { ...clickNetwork, connectMs: p.browserLatencyMs });
    log('render...');
    const render = await measureRender(browser, { counts: p.renderCounts, reps: p.renderReps });
    log('memory...');
    const memory = await measureMemory(browser, { cycles: p.cycles });
    log('simulator at scale...');
    const mockScale = await measureMockScale(options.smoke);
    log('chip click INP...');
    const chipInp = await measureChipInp(browser, { runs: p.inpRuns });
    log(`Lighthouse, ${p.lighthouseRuns} run(s) of each page, interleaved...`);
    const lighthouse = await measureLighthouse({ runs: p.lighthouseRuns, smoke: options.smoke }, log);
    const cpu = cpus();
    const measured = {
      sizes,
      ready,
      slowNetwork,
      firstView,
      formHalf,
      formHalfConnections,
      render,
      tokenHandler,
      instances,
      memory,
      mockScale,
      lighthouse,
      chipInp,
    };
    const results: BenchResults = {
      mode: options.smoke ? 'smoke' : 'full',
      date: new Date().toISOString(),
      machine: { cpus: cpu.length, model: cpu[0]?.model ?? 'unknown', memoryBytes: totalmem(), node: process.version },
      ...measured,
      rows: options.smoke ? smokeRows(rowsOf(measured)) : rowsOf(measured),
    };
    writeFileSync(options.out, `${JSON.stringify(results, null, 2)}\n`);
    log('');
    log(formatTable(results.rows));
    log('');
    log(
      `machine: ${results.machine.cpus} x ${results.machine.model}, ${(results.machine.memoryBytes / 2 ** 30).toFixed(1)} GB RAM, Node ${results.machine.node}`,
    );
    log(`written: ${options.out}`);
    return results;
  } finally {
    await browser.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    const options = parseArgs(process.argv.slice(2));
    if (options.render) console.log(`rendered: ${writeBenchmarksPage(RESULTS)}`);
    else await runBench(options);
  } catch (error) {
    console.error(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
