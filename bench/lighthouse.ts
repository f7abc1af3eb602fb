/**
 * Lighthouse (bench/package-lock.json's, simulated throttling) on host pages as their owners see the
 * audits, each with content above and below the embed: the `<script>` tag page of hub-embed with the
 * README's style rule, against the simulator (and again against the same tables in Latin letters, see
 * PAGES), the plain-DOM pages drawing the same catalogue in one go and in small chunks, Typeform's embed
 * page and Cal.com's inline embed page, each page's script served by a local server (the peers' packages'
 * own files; their services are unreachable here, so they show what loads without them).
 *
 * Each page runs on Lighthouse's phone at its default 4x CPU slowdown and at a fixed 8x, where TBT
 * follows the work rather than the 50 ms threshold, and hub-embed's page on its desktop preset too (CLS
 * at that size) and on Slow 3G. hub-embed's other layouts (LAYOUT_PAGES) run on the phone at 4x and on
 * the desktop, for their CLS. Runs are interleaved (every page and mode, then again), so a slow moment of the machine
 * does not fall on one page; each row is the median of its runs, with `benchmarkIndex` (Lighthouse's
 * measure of the machine's speed in that run) beside its TBT.
 *   node --import ./scripts/ts-register.mjs bench/lighthouse.ts [--runs N] [--only REGEXP]   after npm run build
 * (`--only` keeps the runs whose "mode, page" it matches, e.g. `--only 'hub-embed(, panel|, two tables)?$'`).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CHROMIUM_ARGS, CHROMIUM_MISSING, findChromium } from '../scripts/chromium.mjs';
import { lighthouseCli } from '../scripts/lighthouse.mjs';
import { apiBaseUrl } from '../src/core/urls.js';
import { defaultSeed, startSimulator, type MockSeed } from '../packages/hub-embed-mock/src/index.js';
import { createServerClient, createTokenHandler, toNodeListener } from '../src/server/index.js';
import { hostBody, readmeStyle, twoTableSeed, type HostLayout } from './lib/host-page.js';
import { plainDomWidget } from './lib/plain-dom.js';
import { median, ms, ratio, type Row } from './lib/stats.js';
import { SLOW_3G } from './slow-network.js';

const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
const require = createRequire(import.meta.url);

export type PageName =
  | 'hub-embed'
  | 'hub-embed, Latin text'
  | 'hub-embed, panel'
  | 'hub-embed, two tables'
  | 'plain DOM'
  | 'plain DOM, chunked'
  | 'Typeform'
  | 'Cal.com';
/**
 * hub-embed's page twice: against the default catalogue, and against the same tables with their Chinese
 * (and emoji) replaced by Latin letters. The second is no verdict: it shows what of hub-embed's figures is
 * the first layout of Chinese text in a fresh renderer (fallback fonts loaded, looked up per character),
 * which the peers' pages, with English stubs, do not draw. Then the plain-DOM pages (plainDomWidget): the
 * same requests and the same content without the widget, hub-embed's references, drawn in one go and in
 * hub-embed's chunks.
 */
export const PAGES: readonly PageName[] = [
  'hub-embed',
  'hub-embed, Latin text',
  'plain DOM',
  'plain DOM, chunked',
  'Typeform',
  'Cal.com',
];
/**
 * hub-embed's page in the README's other layouts, for their layout shift: in a panel of a fixed height
 * given on the element, and in the flow of the text over a catalogue of two tables (a short list).
 */
export const LAYOUT_PAGES: readonly PageName[] = ['hub-embed, panel', 'hub-embed, two tables'];
const PATHS: Record<PageName, string> = {
  'hub-embed': '/hub-embed',
  'hub-embed, Latin text': '/hub-embed-latin',
  'hub-embed, panel': '/hub-embed-panel',
  'hub-embed, two tables': '/hub-embed-two-tables',
  'plain DOM': '/plain-dom',
  'plain DOM, chunked': '/plain-dom-chunked',
  Typeform: '/Typeform',
  'Cal.com': '/Cal.com',
};

/**
 * How Lighthouse runs a page: its phone at 4x (its default) or 8x CPU slowdown, its desktop preset, or its
 * phone at 4x on Slow 3G.
 */
export type LighthouseMode = 'phone 4x' | 'phone 8x' | 'desktop' | 'phone slow 3G';
const MODE_OPTIONS: Record<LighthouseMode, LighthouseRunOptions> = {
  'phone 4x': { cpuSlowdown: 4 },
  'phone 8x': { cpuSlowdown: 8 },
  desktop: { desktop: true },
  'phone slow 3G': { cpuSlowdown: 4, slow3g: true },
};

/** Which pages run in which mode: every page on the phone at both slowdowns (the Latin page at 4x only). */
export function lighthousePlan(smoke: boolean): { mode: LighthouseMode; page: PageName }[] {
  const at = (mode: LighthouseMode, pages: readonly PageName[]) => pages.map((page) => ({ mode, page }));
  // The smoke run proves every page and mode runs, with as few runs as that takes.
  if (smoke)
    return [
      ...at('phone 4x', PAGES),
      ...at('phone 8x', ['hub-embed']),
      ...at('desktop', ['hub-embed']),
      ...at('phone 4x', LAYOUT_PAGES),
      ...at('phone slow 3G', ['hub-embed']),
    ];
  return [
    ...at('phone 4x', PAGES),
    ...at(
      'phone 8x',
      PAGES.filter((page) => page !== 'hub-embed, Latin text'),
    ),
    ...at('desktop', ['hub-embed']),
    ...at('phone 4x', LAYOUT_PAGES),
    ...at('desktop', LAYOUT_PAGES),
    ...at('phone slow 3G', ['hub-embed']),
  ];
}

/** hub-embed's script files: the bundle and the form half it loads. */
const HUB_SCRIPT = /\/hub-embed[\w.-]*\.js$/;

/**
 * Each page's own script, whose long tasks are the page's embed's: hub-embed's files, the plain-DOM pages'
 * script, Typeform's and Cal.com's embed.js. A task that ran no script (a layout frame of the page alone)
 * is not any embed's.
 */
export const OWN_SCRIPTS: Record<PageName, RegExp> = {
  'hub-embed': HUB_SCRIPT,
  'hub-embed, Latin text': HUB_SCRIPT,
  'hub-embed, panel': HUB_SCRIPT,
  'hub-embed, two tables': HUB_SCRIPT,
  'plain DOM': /\/plain-dom\.js$/,
  'plain DOM, chunked': /\/plain-dom-chunked\.js$/,
  Typeform: /\/typeform\/embed\.js$/,
  'Cal.com': /\/calcom\/embed\.js$/,
};

/** Two Latin letters for each character beyond ASCII, so that a text keeps about its width. */
export function latinText(text: string): string {
  const letter = (n: number) => String.fromCharCode(97 + (n % 26));
  return [...text]
    .map((c) => {
      const code = c.codePointAt(0)!;
      return code < 128 ? c : letter(code) + letter(code >> 5);
    })
    .join('');
}

/** The default seed with every table's name, industry and tags in Latin letters; short codes unchanged. */
export function latinSeed(): MockSeed {
  return {
    ...defaultSeed,
    tables: defaultSeed.tables.map((table) => ({
      ...table,
      name: latinText(table.name),
      industry: latinText(table.industry),
      tags: table.tags.map(latinText),
    })),
  };
}

/** What one Lighthouse run says of a page. */
export interface LighthouseSample {
  /** 0 to 100. */
  performance: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** JavaScript boot-up time (bootup-time audit). */
  bootupMs: number;
  mainThreadMs: number;
  requests: number;
  /**
   * Lighthouse's measure of the machine's speed at that moment (environment.benchmarkIndex): the
   * simulation multiplies the observed main-thread time by the slowdown, so on a busy machine, where this
   * index falls, TBT and boot-up rise with it.
   */
  benchmarkIndex: number;
  /** The longest task that ran in the page's own script (OWN_SCRIPTS; simulated ms; 0 when none was long). */
  longestOwnTaskMs: number;
}

export interface LighthousePage {
  page: PageName;
  mode: LighthouseMode;
  samples: LighthouseSample[];
  median: LighthouseSample;
}

export interface LighthouseResults {
  runs: number;
  lighthouseVersion: string;
  pages: LighthousePage[];
}

/**
 * hub-embed's targets: no layout shift on the phone or the desktop; no task of its own over 50 ms of
 * simulated time at 4x; at 8x, TBT at most half the plain-DOM page's that draws in one go.
 */
export const TARGETS = { cls: 0, widgetTaskMs: 50, tbtToPlainAt8x: 0.5 };

const PLAIN_BOX = '<style>#plain{display:block;min-height:100vh}</style>';

/** A host page: a heading and a paragraph above the embed, a paragraph and a footer below it. */
const page = (title: string, head: string, body: string, layout: HostLayout = 'flow') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">
<title>${title}</title>${head}</head><body style="margin: 0 16px; font: 16px system-ui"><h1>${title}</h1>${hostBody(body, layout)}</body></html>`;

/** The pages of one loopback origin; buildUrl(i) is hub-embed's page with the script of `builds[i]`. */
export interface LighthousePages {
  url(name: PageName): string;
  buildUrl(index: number): string;
  close(): Promise<void>;
}

/**
 * The pages and the files they load, on one loopback origin. `builds`: other dist/ folders, each served
 * under `/build/<index>/` with a hub-embed page of its own (bench/lighthouse-ab.ts).
 */
export async function startPages(options: { builds?: readonly string[] } = {}): Promise<LighthousePages> {
  const builds = options.builds ?? [];
  const simulators = await Promise.all([
    startSimulator({}),
    startSimulator({ seed: latinSeed() }),
    startSimulator({ seed: twoTableSeed() }),
  ]);
  const [mock, latin, two] = simulators;
  const tokenRoute = (sim: typeof mock) =>
    toNodeListener(
      createTokenHandler({
        client: createServerClient({ apiKey: sim.apiKey, baseUrl: sim.baseUrl }),
        resolveClientUserId: (request) => new URL(request.url).searchParams.get('u'),
      }),
    );
  const tokens = tokenRoute(mock);
  const latinTokens = tokenRoute(latin);
  const twoTokens = tokenRoute(two);
  const typeform = dirname(require.resolve('@typeform/embed/package.json'));
  const calcom = dirname(require.resolve('@calcom/embed-core/package.json'));
  const files: Record<string, [string, string]> = {
    '/typeform/embed.js': [join(typeform, 'build/embed.js'), 'text/javascript'],
    '/typeform/widget.css': [join(typeform, 'build/css/widget.css'), 'text/css'],
    '/calcom/embed.js': [join(calcom, 'dist/embed/embed.js'), 'text/javascript'],
  };
  let user = 0;
  // A new user for every run: the token handler has nothing cached, as for a first visit.
  const hubPage =
    (route: string, sim: typeof mock, prefix = '', layout: HostLayout = 'flow') =>
    () =>
      page(
        'Tables',
        `<link rel="stylesheet" href="/readme.css"><script src="${prefix}/hub-embed.iife.js" defer></script>`,
        `<hub-embed token-endpoint="${route}?u=lh-${++user}" base-url="${sim.baseUrl}" form-url="${sim.formUrl}" locale="en"></hub-embed>`,
        layout,
      );
  const html: Record<string, () => string> = {
    [PATHS['hub-embed']]: hubPage('/api/hub-token', mock),
    [PATHS['hub-embed, Latin text']]: hubPage('/api/hub-token-latin', latin),
    [PATHS['hub-embed, panel']]: hubPage('/api/hub-token', mock, '', 'panel'),
    [PATHS['hub-embed, two tables']]: hubPage('/api/hub-token-two', two),
    // The same user-per-run token route and simulator as hub-embed's page; its script is served as a file too.
    // The box the README gives hub-embed's tag, in the page from its first paint as that rule is.
    [PATHS['plain DOM']]: () =>
      page('Tables', `${PLAIN_BOX}<script src="/plain-dom.js" defer></script>`, '<div id="plain"></div>'),
    [PATHS['plain DOM, chunked']]: () =>
      page('Tables', `${PLAIN_BOX}<script src="/plain-dom-chunked.js" defer></script>`, '<div id="plain"></div>'),
    // Typeform's documented widget embed.
    [PATHS.Typeform]: () =>
      page(
        'Form',
        '<link rel="stylesheet" href="/typeform/widget.css">',
        '<div data-tf-widget="moe6aa" data-tf-opacity="100" style="width: 100%; height: 500px"></div><script src="/typeform/embed.js"></script>',
      ),
    // Cal.com's documented inline embed snippet, loading the package's embed.js.
    [PATHS['Cal.com']]: () =>
      page(
        'Booking',
        '',
        `<div id="cal" style="width: 100%; height: 500px; overflow: scroll"></div><script>
(function (C, A, L) { let p = function (a, ar) { a.q.push(ar); }; let d = C.document; C.Cal = C.Cal || function () { let cal = C.Cal; let ar = arguments; if (!cal.loaded) { cal.ns = {}; cal.q = cal.q || []; d.head.appendChild(d.createElement("script")).src = A; cal.loaded = true; } if (ar[0] === L) { const api = function () { p(api, arguments); }; const namespace = ar[1]; api.q = api.q || []; if (typeof namespace === "string") { cal.ns[namespace] = cal.ns[namespace] || api; p(cal.ns[namespace], ar); p(cal, ["initNamespace", namespace]); } else p(cal, ar); return; } p(cal, ar); }; })(window, "/calcom/embed.js", "init");
Cal("init", { origin: "https://app.cal.com" });
Cal("inline", { elementOrSelector: "#cal", calLink: "rick/get-rick-rolled" });
</script>`,
      ),
  };
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/api/hub-token') return void tokens(req, res);
    if (path === '/api/hub-token-latin') return void latinTokens(req, res);
    if (path === '/api/hub-token-two') return void twoTokens(req, res);
    const send = (type: string, body: string | Buffer) => {
      res.writeHead(200, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store' });
      res.end(body);
    };
    if (html[path]) return send('text/html', html[path]());
    // A bundle and the form half it loads on intent: dist/'s at the root, another build's under /build/<index>/,
    // where its page is too.
    const [, index, file] = /^(?:\/build\/(\d+))?\/(hub-embed[\w.-]*\.js)?$/.exec(path) ?? [];
    const folder = index === undefined ? DIST : builds[Number(index)];
    if (folder !== undefined && index !== undefined && !file)
      return send('text/html', hubPage('/api/hub-token', mock, `/build/${index}`)());
    if (folder !== undefined && file && existsSync(join(folder, file)))
      return send('text/javascript', readFileSync(join(folder, file)));
    if (files[path]) return send(files[path][1], readFileSync(files[path][0]));
    if (path === '/readme.css') return send('text/css', readmeStyle());
    if (path === '/plain-dom.js' || path === '/plain-dom-chunked.js') {
      const route = `/api/hub-token?u=plain-${++user}`;
      const root = apiBaseUrl(mock.baseUrl, 'base-url');
      const chunked = path === '/plain-dom-chunked.js';
      return send(
        'text/javascript',
        `(${plainDomWidget.toString()})(${JSON.stringify(route)}, ${JSON.stringify(root)}, ${chunked});`,
      );
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: (name) => `${origin}${PATHS[name]}`,
    buildUrl: (index) => `${origin}/build/${index}/`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await Promise.all(simulators.map((sim) => sim.close()));
    },
  };
}

const run = promisify(execFile);

interface Lhr {
  lighthouseVersion: string;
  runtimeError?: { message: string };
  environment?: { benchmarkIndex?: number };
  categories: { performance: { score: number | null } };
  audits: Record<string, { numericValue?: number; details?: { items?: unknown[] } }>;
}

/**
 * How Lighthouse runs: mobile at a CPU slowdown (default its own 4x), or its desktop preset; `slow3g`
 * throttles the page's real network as Chrome DevTools' Slow 3G does (bench/slow-network.ts), where the
 * default simulated throttling would load the page at full speed and only compute the slow timings:
 * a layout shift that a slow answer brings only shows when the answer really is slow.
 */
export interface LighthouseRunOptions {
  cpuSlowdown?: number;
  desktop?: boolean;
  slow3g?: boolean;
  /** The page's own script, whose longest task the sample gives (default hub-embed's files). */
  ownScript?: RegExp;
}

/** A task of Lighthouse's long-tasks audit: what it is attributed to, and when and how long, simulated. */
export interface LongTask {
  url: string;
  startTime: number;
  duration: number;
}

/** Every host but loopback fails at once: the peers' services are not reachable from here anyway. */
export const HOST_RESOLVER_RULES = '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1';

/**
 * Lighthouse's `--chrome-flags`: one string, which it splits with yargs-parser. A value with spaces is
 * quoted after its `=`: a flag quoted whole would be read as the value of the flag before it.
 */
export function chromeFlagsArgument(flags: readonly string[]): string {
  return flags.map((flag) => flag.replace(/^(--[\w-]+=)(.* .*)$/, '$1"$2"')).join(' ');
}

/**
 * One Lighthouse run of `url` (mobile, simulated throttling, performance only), in Debian's Chromium:
 * the sample, and the long tasks the simulation counted.
 */
export async function lighthouseOnce(
  url: string,
  chromium: string,
  out: string,
  options: LighthouseRunOptions = {},
): Promise<{ sample: LighthouseSample; version: string; longTasks: LongTask[] }> {
  const { cpuSlowdown = 4, desktop = false, slow3g = false, ownScript = HUB_SCRIPT } = options;
  await run(
    process.execPath,
    [
      lighthouseCli(),
      url,
      '--quiet',
      '--only-categories=performance',
      '--output=json',
      `--output-path=${out}`,
      `--chrome-flags=${chromeFlagsArgument([...CHROMIUM_ARGS, HOST_RESOLVER_RULES])}`,
      // The desktop preset sets its own slowdown (1x); the mobile default is 4x, and 8x is asked for.
      ...(desktop ? ['--preset=desktop'] : [`--throttling.cpuSlowdownMultiplier=${cpuSlowdown}`]),
      ...(slow3g
        ? [
            '--throttling-method=devtools',
            `--throttling.requestLatencyMs=${SLOW_3G.latency}`,
            `--throttling.downloadThroughputKbps=${(SLOW_3G.downloadThroughput * 8) / 1000}`,
            `--throttling.uploadThroughputKbps=${(SLOW_3G.uploadThroughput * 8) / 1000}`,
          ]
        : []),
    ],
    { env: { ...process.env, CHROME_PATH: chromium }, maxBuffer: 64 * 1024 * 1024 },
  );
  const lhr = JSON.parse(readFileSync(out, 'utf8')) as Lhr;
  if (lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.message}`);
  const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const longTasks = (lhr.audits['long-tasks']?.details?.items ?? []) as LongTask[];
  return {
    version: lhr.lighthouseVersion,
    longTasks,
    sample: {
      performance: Math.round((lhr.categories.performance.score ?? 0) * 100),
      lcpMs: audit('largest-contentful-paint'),
      tbtMs: audit('total-blocking-time'),
      cls: audit('cumulative-layout-shift'),
      bootupMs: audit('bootup-time'),
      mainThreadMs: audit('mainthread-work-breakdown'),
      requests: lhr.audits['network-requests']?.details?.items?.length ?? 0,
      benchmarkIndex: lhr.environment?.benchmarkIndex ?? Number.NaN,
      longestOwnTaskMs: Math.max(
        0,
        ...longTasks.filter((task) => ownScript.test(task.url)).map((task) => task.duration),
      ),
    },
  };
}

export async function measureLighthouse(
  options: { runs: number; smoke?: boolean; only?: RegExp },
  log: (line: string) => void = () => undefined,
): Promise<LighthouseResults> {
  const chromium = findChromium();
  if (!chromium) throw new Error(CHROMIUM_MISSING);
  const pages = await startPages();
  const work = mkdtempSync(join(tmpdir(), 'hub-embed-lighthouse-'));
  const plan = lighthousePlan(options.smoke ?? false).filter(
    ({ mode, page: name }) => !options.only || options.only.test(`${mode}, ${name}`),
  );
  const samples = plan.map((): LighthouseSample[] => []);
  let version = '';
  try {
    for (let i = 0; i < options.runs; i++)
      for (const [at, { mode, page: name }] of plan.entries()) {
        const { sample, version: v } = await lighthouseOnce(pages.url(name), chromium, join(work, 'lhr.json'), {
          ...MODE_OPTIONS[mode],
          ownScript: OWN_SCRIPTS[name],
        });
        version = v;
        samples[at]!.push(sample);
        log(
          `  lighthouse run ${i + 1}/${options.runs}, ${mode}, ${name}: TBT ${ms(sample.tbtMs)} (benchmark index ${Math.round(sample.benchmarkIndex)}), CLS ${sample.cls.toFixed(3)}, longest task of its own script ${ms(sample.longestOwnTaskMs)}`,
        );
      }
  } finally {
    rmSync(work, { recursive: true, force: true });
    await pages.close();
  }
  return {
    runs: options.runs,
    lighthouseVersion: version,
    pages: plan.map(({ mode, page: name }, at) => {
      const list = samples[at]!;
      const of = (key: keyof LighthouseSample) => median(list.map((s) => s[key]));
      return {
        page: name,
        mode,
        samples: list,
        median: {
          performance: of('performance'),
          lcpMs: of('lcpMs'),
          tbtMs: of('tbtMs'),
          cls: of('cls'),
          bootupMs: of('bootupMs'),
          mainThreadMs: of('mainThreadMs'),
          requests: of('requests'),
          benchmarkIndex: of('benchmarkIndex'),
          longestOwnTaskMs: of('longestOwnTaskMs'),
        },
      };
    }),
  };
}

/**
 * One row per page and mode: TBT with the benchmark index of its runs beside it, CLS, the longest task of
 * the page's own script; hub-embed's rows carry the targets and the ratio of TBT to the plain-DOM page that
 * draws in one go, run in the same mode. Its phone 4x row shows beside its longest task the references'
 * own, from the same runs: the plain-DOM page drawing the same catalogue in hub-embed's chunks, Typeform's
 * and Cal.com's embed scripts.
 */
export function lighthouseRows(results: LighthouseResults): Row[] {
  const find = (mode: LighthouseMode, name: PageName) =>
    results.pages.find((p) => p.mode === mode && p.page === name)?.median;
  return results.pages.map(({ page: name, mode, median: m }) => {
    const plain = find(mode, 'plain DOM');
    const isHub = name === 'hub-embed';
    const toPlain = plain && plain.tbtMs > 0 ? ratio(m.tbtMs, plain.tbtMs) : undefined;
    const row: Row = {
      metric: `Lighthouse ${results.lighthouseVersion} ${mode}, ${name} page (median of ${results.runs})`,
      value: `TBT ${ms(m.tbtMs)} (benchmark index ${Math.round(m.benchmarkIndex)}), CLS ${m.cls.toFixed(3)}, perf ${m.performance}, LCP ${ms(m.lcpMs)}, longest task of its own script ${ms(m.longestOwnTaskMs)}`,
      reference: plain && name !== 'plain DOM' ? `plain DOM in one go: TBT ${ms(plain.tbtMs)}` : '',
      ratio: toPlain === undefined || name === 'plain DOM' ? '' : `${toPlain}x TBT`,
      target: '',
    };
    // The other layouts and Slow 3G are there for their layout shift.
    if (LAYOUT_PAGES.includes(name) || mode === 'phone slow 3G')
      return { ...row, target: 'CLS = 0', met: m.cls === TARGETS.cls };
    if (!isHub) return row;
    if (mode === 'phone 8x')
      return {
        ...row,
        target: `TBT <= ${TARGETS.tbtToPlainAt8x}x plain DOM, CLS = 0`,
        met: toPlain !== undefined && toPlain <= TARGETS.tbtToPlainAt8x && m.cls === TARGETS.cls,
      };
    if (mode === 'phone 4x') {
      const own = (['plain DOM, chunked', 'Typeform', 'Cal.com'] as const).flatMap((other) => {
        const value = find(mode, other)?.longestOwnTaskMs;
        return value === undefined ? [] : [`${other} ${ms(value)}`];
      });
      return {
        ...row,
        reference: own.length ? `${row.reference}; longest task of its own script: ${own.join(', ')}` : row.reference,
        target: `widget tasks <= ${TARGETS.widgetTaskMs} ms, CLS = 0`,
        met: m.longestOwnTaskMs <= TARGETS.widgetTaskMs && m.cls === TARGETS.cls,
      };
    }
    return { ...row, target: 'CLS = 0', met: m.cls === TARGETS.cls };
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const at = process.argv.indexOf('--runs');
  const runs = at > 0 ? Number(process.argv[at + 1]) : 3;
  const onlyAt = process.argv.indexOf('--only');
  const only = onlyAt > 0 ? new RegExp(process.argv[onlyAt + 1] ?? '') : undefined;
  const results = await measureLighthouse({ runs, only }, console.log);
  const { formatTable } = await import('./lib/stats.js');
  console.log(formatTable(lighthouseRows(results)));
}
