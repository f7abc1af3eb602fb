/**
 * The form half (issue 25; loaded at hub-ready since issue 37), paired against the same source built as
 * one file:
 *
 * - Bytes: the first file of each <script> bundle (all a page loads before hub-ready) and the first file
 *   plus the form half (dist/hub-embed.form.js), gzip -9, next to the single file (bench/lib/script-build.ts).
 * - Click to the form: from the gesture to the form iframe's `load`, on the modelled network of the
 *   time-to-ready bench: L_b for every browser request (the page's scripts, the form half's script, the
 *   token endpoint, the service and the form site, each through a delaying proxy or route) and L_s for the
 *   developer's server's calls to the service. Three gestures: a cold click (the pointer arrives over a
 *   card and presses and releases at once), a click after 150 ms of hover, and a press (the pointer
 *   arrives and presses at once, as a finger does, and releases 100 ms later). Each right at hub-ready
 *   (cold and hover, as users rarely click; the form half's load that hub-ready starts is then on its
 *   way) and 1 s after it (all three, as users click). The clock starts where the user's click is done
 *   and the wait for the form begins, as the page sees it: at the first pointer event of a cold click
 *   (the pointer's arrival over the card: a real click's pointer events are intent too), at the press
 *   after hover (the rest is before it), at the release of a press (the click comes when the finger
 *   lifts; nothing can show before, so the hold is the gesture, as the rest is). The press is also
 *   counted from its start, hold included. Each run is a fresh browser context (nothing cached) and a new
 *   user; who goes first alternates between runs.
 */
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { startSimulator } from '../packages/hub-embed-mock/src/index.js';
import { launchChromium } from './lib/browser.js';
import { warmFonts } from './lib/fonts.js';
import { startLatencyProxy } from './lib/latency-proxy.js';
import { FORM_HALF_PATH, IIFE_PATH, readBuilt, startPageServer, WEBVIEW_IIFE_PATH } from './lib/page-server.js';
import { buildSingleFile, type BundleKind } from './lib/script-build.js';
import { byteCount, formatTable, median, ms, ratio, type Row } from './lib/stats.js';
import { firstFileLimit } from './sizes.js';

export type Build = 'single' | 'split';
export type Gesture = 'cold' | 'hover' | 'press';

/** The cold click of the split build at most as slow as the single file's, in the same run. */
export const COLD_CLICK_TARGET_RATIO = 1.0;
/** After hover or a press, the split build's click at most 0.8x the single file's cold click, in the same run. */
export const HOVER_CLICK_TARGET_RATIO = 0.8;
export const HOVER_MS = 150;
/** How long a press lasts, from pointerdown to pointerup: a tap's. */
export const PRESS_MS = 100;
/** How long after hub-ready the later gestures come: users read the list before they click. */
export const LATER_MS = 1_000;

/** A gesture, and when after hub-ready it comes. */
export interface Case {
  gesture: Gesture;
  afterReadyMs: number;
}

const CASES: Case[] = [
  { gesture: 'cold', afterReadyMs: 0 },
  { gesture: 'hover', afterReadyMs: 0 },
  { gesture: 'cold', afterReadyMs: LATER_MS },
  { gesture: 'hover', afterReadyMs: LATER_MS },
  { gesture: 'press', afterReadyMs: LATER_MS },
];

const caseName = ({ gesture, afterReadyMs }: Case) =>
  `${gesture === 'cold' ? 'cold click' : gesture === 'hover' ? `click after ${HOVER_MS} ms hover` : `${PRESS_MS} ms press`}${afterReadyMs ? ` ${afterReadyMs / 1000} s after hub-ready` : ' at hub-ready'}`;

export interface BundleBytes {
  bundle: BundleKind;
  /** gzip -9 of the first file: all the page loads before hub-ready. */
  firstGzip: number;
  /** firstGzip plus the form half's gzip -9: the two files are two transfers. */
  totalGzip: number;
  /** gzip -9 of the same source built as one file. */
  singleGzip: number;
}

export interface ClickSample {
  /** From the clock's start (the gesture's; see above) to the form iframe's `load`. */
  ms: number;
  /** From the press (pointerdown) to the form iframe's `load`: a press's hold included. */
  fromPressMs: number;
  /** From the press to the release: the hold as the page saw it (a press's is PRESS_MS and the driver's delay). */
  holdMs: number;
  /** From the press to the form page's request (the form iframe's navigation): below 0 when prepared before it. */
  pageRequestMs: number;
  /** From the same start to `hub-form-open`: the wait for the form half and the token, before the frame. */
  openMs: number;
  /** From the pointer's arrival over the card to the press (0 for a cold click or a press, >= HOVER_MS after hover). */
  hoverMs: number;
  /** Requests for the form half (*.form.js) the page made, and whether one had its answer before the clock started. */
  formHalfRequests: number;
  formHalfInBeforeClick: boolean;
}

export interface GestureResults extends Case {
  single: ClickSample[];
  split: ClickSample[];
  singleMedianMs: number;
  splitMedianMs: number;
  singleOpenMedianMs: number;
  splitOpenMedianMs: number;
  /** Per run, split / single (paired), and their median. */
  pairedRatios: number[];
  pairedRatioMedian: number;
  /** The target of pairedRatioMedian (a cold click), if any. */
  targetRatio?: number;
  /**
   * After hover or a press: per run, the split build's click / the single file's cold click at the same
   * moment after hub-ready, their median, and its target.
   */
  toSingleColdRatios?: number[];
  toSingleColdRatioMedian?: number;
  toSingleColdTargetRatio?: number;
  /** Medians of the form page's request after the press (runs where the page reported it). */
  singlePageRequestMedianMs?: number;
  splitPageRequestMedianMs?: number;
  /** A press counted from its start, hold included: the medians, the holds, and against the single file's cold click. */
  fromPress?: {
    singleMedianMs: number;
    splitMedianMs: number;
    singleHoldMedianMs: number;
    splitHoldMedianMs: number;
    toSingleColdRatios: number[];
    toSingleColdRatioMedian: number;
  };
}

export interface FormHalfResults {
  browserLatencyMs: number;
  serviceLatencyMs: number;
  /** A new connection's set-up before its first answer: 0 (loopback, as before) or one L_b. */
  connectMs: number;
  runs: number;
  formHalfGzip: number;
  bytes: BundleBytes[];
  /** One per case, in the order of CASES. */
  cases: GestureResults[];
}

const gzip9 = (bytes: Uint8Array) => gzipSync(bytes, { level: 9 }).length;

function measureBytes(singles: Record<BundleKind, Buffer>): { formHalfGzip: number; bytes: BundleBytes[] } {
  const formHalfGzip = gzip9(readBuilt(FORM_HALF_PATH));
  const firstFiles: Record<BundleKind, string> = { plain: IIFE_PATH, webview: WEBVIEW_IIFE_PATH };
  const bytes: BundleBytes[] = [];
  for (const bundle of ['plain', 'webview'] as const) {
    const firstGzip = gzip9(readBuilt(firstFiles[bundle]));
    bytes.push({ bundle, firstGzip, totalGzip: firstGzip + formHalfGzip, singleGzip: gzip9(singles[bundle]) });
  }
  return { formHalfGzip, bytes };
}

/** What the page reports of one click: timestamps on the page's clock and the form half's requests. */
interface InPageClick {
  firstPointer: number;
  press: number;
  release: number;
  /** The start of the last iframe navigation the page saw: the form page's (the opened frame's). */
  pageRequest: number;
  open: number;
  load: number;
  formHalf: { startTime: number; responseEnd: number }[];
}

/**
 * Runs in the page before the gesture: notes the first pointer event and the press (capture on window,
 * pointer events are composed), and the `load` of the iframe that the opened form renders.
 */
function armInPage(): void {
  const el = document.querySelector('hub-embed') as HTMLElement & { updateComplete: Promise<boolean> };
  const seen: { firstPointer?: number; press?: number; release?: number } = {};
  const note = (event: Event) => {
    seen.firstPointer ??= event.timeStamp;
    if (event.type === 'pointerdown') seen.press ??= event.timeStamp;
    if (event.type === 'pointerup') seen.release ??= event.timeStamp;
  };
  for (const type of ['pointerover', 'pointermove', 'pointerdown', 'pointerup'])
    addEventListener(type, note, { capture: true });
  let open = Number.NaN;
  const load = new Promise<number>((resolve, reject) => {
    const giveUp = setTimeout(() => reject(new Error('no form iframe load within 15 s of arming')), 15_000);
    el.addEventListener(
      'hub-error',
      (event) => reject(new Error(`hub-error: ${(event as CustomEvent<{ error: Error }>).detail.error.message}`)),
      { once: true },
    );
    el.addEventListener(
      'hub-form-open',
      async (event) => {
        open = event.timeStamp;
        // The frame renders an update or two after hub-form-open; its page needs at least one round trip
        // of the modelled network, so a listener added within a few tasks cannot miss its `load`.
        type Frame = HTMLElement & { updateComplete: Promise<boolean> };
        let frame: Frame | null | undefined;
        let iframe: HTMLIFrameElement | null | undefined;
        while (!iframe) {
          await new Promise((next) => setTimeout(next, 0));
          frame = el.shadowRoot?.querySelector<Frame>('hub-form-frame');
          iframe = frame?.shadowRoot?.querySelector('iframe');
        }
        iframe.addEventListener(
          'load',
          (event) => {
            clearTimeout(giveUp);
            resolve(event.timeStamp);
          },
          { once: true },
        );
        // A form prepared while the pointer rested on the card may have loaded before the click: its
        // frame shows no loading part, and the form is there as soon as it is shown.
        await frame!.updateComplete;
        if (!frame!.shadowRoot!.querySelector('[part~="loading"]')) {
          clearTimeout(giveUp);
          resolve(performance.now());
        }
      },
      { once: true },
    );
  });
  (window as unknown as { benchClick: Promise<InPageClick> }).benchClick = load.then((loadAt) => ({
    firstPointer: seen.firstPointer ?? Number.NaN,
    press: seen.press ?? Number.NaN,
    release: seen.release ?? Number.NaN,
    pageRequest:
      performance
        .getEntriesByType('resource')
        .filter((entry) => (entry as PerformanceResourceTiming).initiatorType === 'iframe')
        .at(-1)?.startTime ?? Number.NaN,
    open,
    load: loadAt,
    formHalf: performance
      .getEntriesByType('resource')
      .filter((entry) => entry.name.endsWith('.form.js'))
      .map((entry) => ({ startTime: entry.startTime, responseEnd: (entry as PerformanceResourceTiming).responseEnd })),
  }));
}

/** Mounts <hub-embed> and resolves at hub-ready, once its first card is rendered. */
async function mountInPage({ baseUrl, formUrl }: { baseUrl: string; formUrl: string }): Promise<void> {
  const el = document.createElement('hub-embed') as HTMLElement & { updateComplete: Promise<boolean> };
  el.setAttribute('token-endpoint', '/api/hub-token');
  el.setAttribute('base-url', baseUrl);
  el.setAttribute('form-url', formUrl);
  await new Promise((resolve, reject) => {
    el.addEventListener('hub-ready', resolve, { once: true });
    el.addEventListener(
      'hub-error',
      (event) => reject(new Error(`hub-error: ${(event as CustomEvent<{ error: Error }>).detail.error.message}`)),
      { once: true },
    );
    document.body.append(el);
  });
}

async function clickOnce(page: Page, { gesture, afterReadyMs }: Case): Promise<InPageClick> {
  if (afterReadyMs) await page.waitForTimeout(afterReadyMs);
  const card = page.locator('hub-embed [part~=card]').first();
  const box = await card.boundingBox();
  if (!box) throw new Error('the first card has no box to click');
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.evaluate(armInPage);
  await page.mouse.move(x, y);
  if (gesture === 'hover') await page.waitForTimeout(HOVER_MS);
  await page.mouse.down();
  if (gesture === 'press') await page.waitForTimeout(PRESS_MS);
  await page.mouse.up();
  return page.evaluate(() => (window as unknown as { benchClick: Promise<InPageClick> }).benchClick);
}

export async function measureFormHalf(
  browser: Browser,
  options: { browserLatencyMs: number; serviceLatencyMs: number; runs: number; connectMs?: number },
): Promise<FormHalfResults> {
  const { browserLatencyMs: Lb, serviceLatencyMs: Ls, runs, connectMs = 0 } = options;
  const singles = { plain: await buildSingleFile('plain'), webview: await buildSingleFile('webview') };
  const { formHalfGzip, bytes } = measureBytes(singles);

  const mock = await startSimulator({});
  const api = await startLatencyProxy(mock.baseUrl, Lb, connectMs);
  const formSite = await startLatencyProxy(mock.formUrl, Lb, connectMs);
  const common = {
    baseUrl: mock.baseUrl,
    apiKey: mock.apiKey,
    browserLatencyMs: Lb,
    serviceLatencyMs: Ls,
    scriptLatencyMs: Lb,
    connectMs,
    // Hub-ready sooner, so each run is shorter; the click does not ask the token endpoint (its token is cached).
    prefetch: true,
  };
  const servers = {
    single: await startPageServer({ ...common, script: singles.plain }),
    split: await startPageServer(common),
  };
  const samples: Record<Build, ClickSample[]>[] = CASES.map(() => ({ single: [], split: [] }));

  async function run(build: Build, at: number, index: number): Promise<void> {
    const server = servers[build];
    const theCase = CASES[at]!;
    const context = await browser.newContext();
    await context.addCookies([
      {
        name: 'bench_user',
        value: `form-${build}-${theCase.gesture}-${theCase.afterReadyMs}-${index}-${Date.now().toString(36)}`,
        url: server.url,
      },
    ]);
    const page = await context.newPage();
    try {
      await page.goto(server.url);
      await page.waitForFunction(() => customElements.get('hub-embed') !== undefined);
      await page.evaluate(warmFonts);
      await page.evaluate(mountInPage, { baseUrl: api.url, formUrl: formSite.url });
      const click = await clickOnce(page, theCase);
      const start = { cold: click.firstPointer, hover: click.press, press: click.release }[theCase.gesture];
      if (![start, click.press, click.release].every(Number.isFinite))
        throw new Error(`${build} ${caseName(theCase)}: the page saw no press or no release`);
      if (build === 'single' && click.formHalf.length > 0)
        throw new Error('the single-file build requested a .form.js: it is not the single file');
      samples[at]![build].push({
        ms: click.load - start,
        fromPressMs: click.load - click.press,
        holdMs: click.release - click.press,
        pageRequestMs: click.pageRequest - click.press,
        openMs: click.open - start,
        hoverMs: click.press - click.firstPointer,
        formHalfRequests: click.formHalf.length,
        formHalfInBeforeClick: click.formHalf.some((entry) => entry.responseEnd <= click.press),
      });
    } finally {
      await context.close();
    }
  }

  try {
    const cells = CASES.flatMap((_, at) => (['single', 'split'] as const).map((build) => [build, at] as const));
    for (let index = 0; index < runs; index++) {
      // Reversed every other run, so a slow moment of the machine does not always fall on the same cell.
      for (const [build, at] of index % 2 ? [...cells].reverse() : cells) await run(build, at, index);
    }
  } finally {
    await servers.single.close();
    await servers.split.close();
    await formSite.close();
    await api.close();
    await mock.close();
  }

  const summarise = (theCase: Case, at: number): GestureResults => {
    const { single, split } = samples[at]!;
    const pairedRatios = split.map((sample, i) => ratio(sample.ms, single[i]!.ms));
    // The single file's cold click at the same moment after hub-ready: today's click, for a user who neither rests nor presses.
    const cold = CASES.findIndex((other) => other.gesture === 'cold' && other.afterReadyMs === theCase.afterReadyMs);
    const singleCold = samples[cold]!.single;
    const toSingleColdRatios =
      theCase.gesture === 'cold' ? undefined : split.map((sample, i) => ratio(sample.ms, singleCold[i]!.ms));
    const pageRequest = (list: ClickSample[]) => {
      const known = list.map((sample) => sample.pageRequestMs).filter(Number.isFinite);
      return known.length ? median(known) : undefined;
    };
    const fromPressRatios = split.map((sample, i) => ratio(sample.fromPressMs, singleCold[i]!.ms));
    return {
      ...theCase,
      single,
      split,
      singleMedianMs: median(single.map((sample) => sample.ms)),
      splitMedianMs: median(split.map((sample) => sample.ms)),
      singleOpenMedianMs: median(single.map((sample) => sample.openMs)),
      splitOpenMedianMs: median(split.map((sample) => sample.openMs)),
      pairedRatios,
      pairedRatioMedian: median(pairedRatios),
      singlePageRequestMedianMs: pageRequest(single),
      splitPageRequestMedianMs: pageRequest(split),
      ...(theCase.gesture === 'press'
        ? {
            fromPress: {
              singleMedianMs: median(single.map((sample) => sample.fromPressMs)),
              splitMedianMs: median(split.map((sample) => sample.fromPressMs)),
              singleHoldMedianMs: median(single.map((sample) => sample.holdMs)),
              splitHoldMedianMs: median(split.map((sample) => sample.holdMs)),
              toSingleColdRatios: fromPressRatios,
              toSingleColdRatioMedian: median(fromPressRatios),
            },
          }
        : {}),
      ...(theCase.gesture === 'cold'
        ? { targetRatio: COLD_CLICK_TARGET_RATIO }
        : {
            toSingleColdRatios,
            toSingleColdRatioMedian: median(toSingleColdRatios!),
            toSingleColdTargetRatio: HOVER_CLICK_TARGET_RATIO,
          }),
    };
  };
  return {
    browserLatencyMs: Lb,
    serviceLatencyMs: Ls,
    connectMs,
    runs,
    formHalfGzip,
    bytes,
    cases: CASES.map(summarise),
  };
}

/** The bytes rows. */
export function formHalfBytesRows(results: FormHalfResults): Row[] {
  const rows: Row[] = [];
  for (const b of results.bytes) {
    const name = b.bundle === 'plain' ? 'plain bundle' : 'WebView bundle';
    const single = `single file ${byteCount(b.singleGzip)}`;
    const { limit } = firstFileLimit(b.bundle);
    rows.push({
      metric: `bytes before hub-ready, ${name} (first file), gzip -9`,
      value: byteCount(b.firstGzip),
      reference: single,
      ratio: `${ratio(b.firstGzip, b.singleGzip)}x single`,
      target: 'its budget less the room (scripts/size-budgets.mjs)',
      met: b.firstGzip <= limit,
    });
    rows.push({
      metric: `bytes in total, ${name} (first file + form half), gzip -9`,
      value: `${byteCount(b.totalGzip)} (+ ${byteCount(results.formHalfGzip)})`,
      reference: single,
      ratio: `${ratio(b.totalGzip, b.singleGzip)}x single`,
      target: '',
    });
  }
  return rows;
}

/**
 * Per case, the two click medians and the paired verdicts, on the network the results were measured on: a
 * round trip per request, and with `connectMs` a new connection's set-up too (latency-proxy.ts).
 */
export function formHalfClickRows(results: FormHalfResults): Row[] {
  const { browserLatencyMs: Lb, runs, connectMs } = results;
  const rows: Row[] = [];
  const network = `L_b=${Lb} ms${connectMs ? `, new connection +${connectMs} ms` : ''}, median of ${runs}`;
  const bound = (trips: number) => `${trips} L_b = ${ms(trips * Lb)}`;
  // The round trips on a click's path when nothing was prepared: the form page, then its stylesheet and
  // script; with connection set-up, one more for the connection to the form site (its preconnect starts
  // with the pointer). A rest or a press that prepares the form takes some of them off the path.
  const trips = connectMs ? 3 : 2;
  const inBefore = (samples: ClickSample[]) =>
    `form half in before the press: ${samples.filter((s) => s.formHalfInBeforeClick).length} of ${samples.length}`;
  const pageAt = (value: number | undefined) =>
    value === undefined ? '' : `; form page requested ${ms(value)} after the press`;
  for (const g of results.cases) {
    const gesture = caseName(g);
    rows.push({
      metric: `${gesture} to form load, single file (${network})`,
      value: ms(g.singleMedianMs),
      reference: `${bound(trips)}; hub-form-open at ${ms(g.singleOpenMedianMs)}${pageAt(g.singlePageRequestMedianMs)}`,
      ratio: '',
      target: '',
    });
    rows.push({
      metric: `${gesture} to form load, split (${network})`,
      value: ms(g.splitMedianMs),
      reference: `hub-form-open at ${ms(g.splitOpenMedianMs)}; ${inBefore(g.split)}${pageAt(g.splitPageRequestMedianMs)}`,
      ratio: '',
      target: '',
    });
    rows.push({
      metric: `${gesture} to form load, split / single file (paired runs${connectMs ? ', with connection set-up' : ''})`,
      value: `${g.pairedRatioMedian}x`,
      reference: `runs: ${g.pairedRatios.join(', ')}`,
      ratio: '',
      target: g.targetRatio === undefined ? '' : `<= ${g.targetRatio}x`,
      ...(g.targetRatio === undefined ? {} : { met: g.pairedRatioMedian <= g.targetRatio }),
    });
    if (g.toSingleColdRatioMedian !== undefined)
      rows.push({
        metric: `${gesture} (split) / cold click (single file) at the same moment, paired${connectMs ? ', with connection set-up' : ''}`,
        value: `${g.toSingleColdRatioMedian}x`,
        reference: `runs: ${g.toSingleColdRatios!.join(', ')}`,
        ratio: '',
        target: `<= ${g.toSingleColdTargetRatio}x`,
        met: g.toSingleColdRatioMedian <= g.toSingleColdTargetRatio!,
      });
    const held = g.fromPress;
    if (held)
      rows.push({
        metric: `${gesture}, counted from the press (hold included), split / cold click (single file), paired${connectMs ? ', with connection set-up' : ''}`,
        value: `${held.toSingleColdRatioMedian}x`,
        reference: `split ${ms(held.splitMedianMs)}, single file ${ms(held.singleMedianMs)}; holds ${ms(held.splitHoldMedianMs)} and ${ms(held.singleHoldMedianMs)}; runs: ${held.toSingleColdRatios.join(', ')}`,
        ratio: '',
        target: '',
      });
  }
  return rows;
}

// Alone: `node --import ./scripts/ts-register.mjs bench/form-half.ts [--smoke]` (after `npm run build`).
if (process.argv[1]?.endsWith('form-half.ts')) {
  const smoke = process.argv.includes('--smoke');
  const browser = await launchChromium();
  try {
    const network = { browserLatencyMs: smoke ? 20 : 100, serviceLatencyMs: smoke ? 2 : 10, runs: smoke ? 1 : 11 };
    const perRequest = await measureFormHalf(browser, network);
    const withConnections = await measureFormHalf(browser, { ...network, connectMs: network.browserLatencyMs });
    console.log(
      formatTable([
        ...formHalfBytesRows(perRequest),
        ...formHalfClickRows(perRequest),
        ...formHalfClickRows(withConnections),
      ]),
    );
  } finally {
    await browser.close();
  }
}
