/** The benchmark's own rules: argument parsing, statistics, verdicts, and a smoke run end to end. */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { median, ratio, formatTable } from '../../bench/lib/stats.js';
import { formHalfBytesRows, type FormHalfResults } from '../../bench/form-half.js';
import {
  chromeFlagsArgument,
  HOST_RESOLVER_RULES,
  latinSeed,
  latinText,
  lighthouseRows,
  OWN_SCRIPTS,
  startPages,
  type LighthouseSample,
} from '../../bench/lighthouse.js';
import { CHROMIUM_ARGS } from '../../scripts/chromium.mjs';
import { lighthouseCli } from '../../scripts/lighthouse.mjs';
import { longTaskLine, parseAbArgs } from '../../bench/lighthouse-ab.js';
import { launchChromium } from '../../bench/lib/browser.js';
import { defaultSeed } from '../../packages/hub-embed-mock/src/index.js';
import { parseArgs, runBench, smokeRows, type BenchResults } from '../../bench/run.js';
import { CI_NODE, PAGE_LEAVES_OUT, renderBenchmarksPage, TEMPLATE } from '../../bench/page.js';
import { BUDGETS, limitOf, ROOM, TYPEFORM_CEILING } from '../../scripts/size-budgets.mjs';

test("the host-resolver rules reach Chromium whole through Lighthouse's own --chrome-flags parser", async () => {
  // The parser of the pinned Lighthouse (installed from bench/package-lock.json on first use).
  const cli = lighthouseCli();
  const { parseChromeFlags } = (await import(pathToFileURL(join(dirname(cli), 'run.js')).href)) as {
    parseChromeFlags(flags: string): string[];
  };
  const flags = [...CHROMIUM_ARGS, HOST_RESOLVER_RULES];
  assert.deepEqual(parseChromeFlags(chromeFlagsArgument(flags)), flags);
});

test("a page's own long tasks are those of its embed script, never its page's layout frames", () => {
  const own = (page: keyof typeof OWN_SCRIPTS, url: string) => OWN_SCRIPTS[page].test(url);
  assert.ok(own('hub-embed', 'http://127.0.0.1:1/hub-embed.iife.js'));
  assert.ok(own('hub-embed, two tables', 'http://127.0.0.1:1/build/0/hub-embed.form.js'));
  assert.ok(!own('hub-embed', 'http://127.0.0.1:1/hub-embed'));
  assert.ok(own('Typeform', 'http://127.0.0.1:1/typeform/embed.js'));
  assert.ok(!own('Typeform', 'http://127.0.0.1:1/Typeform'));
  assert.ok(own('Cal.com', 'http://127.0.0.1:1/calcom/embed.js'));
  assert.ok(own('plain DOM', 'http://127.0.0.1:1/plain-dom.js'));
  assert.ok(!own('plain DOM', 'http://127.0.0.1:1/plain-dom-chunked.js'));
  assert.ok(own('plain DOM, chunked', 'http://127.0.0.1:1/plain-dom-chunked.js'));
  assert.ok(!own('plain DOM, chunked', 'http://127.0.0.1:1/plain-dom-chunked'));
});

test("hub-embed's phone 4x row shows the references' longest tasks of their own scripts beside its own", () => {
  const sample = (tbtMs: number, longestOwnTaskMs: number): LighthouseSample => ({
    performance: 100,
    lcpMs: 1000,
    tbtMs,
    cls: 0,
    bootupMs: 0,
    mainThreadMs: 0,
    requests: 3,
    benchmarkIndex: 2000,
    longestOwnTaskMs,
  });
  const page = (name: 'hub-embed' | 'plain DOM' | 'plain DOM, chunked' | 'Typeform', m: LighthouseSample) => ({
    page: name,
    mode: 'phone 4x' as const,
    samples: [m],
    median: m,
  });
  const rows = lighthouseRows({
    runs: 1,
    lighthouseVersion: '13.5.0',
    pages: [
      page('hub-embed', sample(80, 120)),
      page('plain DOM', sample(200, 40)),
      page('plain DOM, chunked', sample(30, 66)),
      page('Typeform', sample(40, 115)),
    ],
  });
  const hub = rows[0]!;
  assert.match(hub.value, /longest task of its own script 120 ms/);
  assert.equal(
    hub.reference,
    'plain DOM in one go: TBT 200 ms; longest task of its own script: plain DOM, chunked 66.0 ms, Typeform 115 ms',
  );
  assert.equal(hub.met, false);
  assert.equal(rows[3]!.reference, 'plain DOM in one go: TBT 200 ms');
});

test('median of >= 5 runs: middle value, mean of the middle two, refuses empty input', () => {
  assert.equal(median([5, 1, 3, 2, 4]), 3);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.throws(() => median([]), /at least one/);
  assert.throws(() => median([1, Number.NaN]), /finite/);
});

test('ratio to the reference: rounded to 2 decimals, refuses a zero reference', () => {
  assert.equal(ratio(369, 200), 1.85);
  assert.throws(() => ratio(1, 0), /positive reference/);
});

test('the Latin-text page draws the same tables with no character beyond ASCII in what a card shows', () => {
  const latin = latinSeed();
  const shown = latin.tables.flatMap((table) => [table.name, table.industry, ...table.tags]);
  assert.ok(
    shown.every((text) => /^[\x20-\x7e]*$/.test(text)),
    'every name, industry and tag is printable ASCII',
  );
  assert.deepEqual(
    latin.tables.map((table) => [table.short_code, table.published, table.tags.length]),
    defaultSeed.tables.map((table) => [table.short_code, table.published, table.tags.length]),
  );
  // About the width of the text it replaces: two letters for a CJK character, emoji and symbols too.
  assert.equal(latinText('钢结构安装').length, 10);
  assert.equal(latinText('Autumn Promo 🍂'), `Autumn Promo ${latinText('🍂')}`);
  assert.equal(latinText('🍂').length, 2);
  assert.notEqual(latinText('水电'), latinText('冷链'));
});

test("the plain-DOM page draws what hub-embed's page draws: the same chips and the same tables' texts", async () => {
  const pages = await startPages();
  const browser = await launchChromium();
  try {
    const shown = async (name: 'hub-embed' | 'plain DOM') => {
      const page = await browser.newPage();
      await page.addInitScript(() =>
        document.addEventListener('hub-ready', () => document.documentElement.setAttribute('data-ready', '')),
      );
      await page.goto(pages.url(name));
      await page.waitForSelector(name === 'hub-embed' ? 'html[data-ready]' : '.card');
      // Every text each draws, wherever its shadow roots put it: chips, then each card's name, industry, tags.
      return page.evaluate((name) => {
        const root = document.querySelector('hub-embed')?.shadowRoot;
        const filter = root?.querySelector('hub-tag-filter')?.shadowRoot ?? document;
        const chips = [...filter.querySelectorAll('[part~="chip"], .chip')].map((chip) => chip.textContent!.trim());
        const cards =
          name === 'hub-embed'
            ? [...root!.querySelector('hub-table-grid')!.shadowRoot!.querySelectorAll('[part~="card"]')]
            : [...document.querySelectorAll('.card')];
        const texts = cards.map((card) =>
          [...card.querySelectorAll('[part~="name"], [part~="industry"], [part~="tag"], .name, .industry, .tag')].map(
            (node) => node.textContent!.trim(),
          ),
        );
        return { chips, texts };
      }, name);
    };
    const hub = await shown('hub-embed');
    const plain = await shown('plain DOM');
    assert.ok(hub.texts.length > 20, `hub-embed drew its tables (${hub.texts.length})`);
    assert.deepEqual(plain.chips.slice(1), hub.chips.slice(1), 'the same tags, after each one\'s "all" chip');
    assert.deepEqual(plain.texts, hub.texts);
  } finally {
    await browser.close();
    await pages.close();
  }
});

test('the A/B pages: each build folder is served under /build/<index>/, its page loading its own script', async () => {
  const dirs = ['one', 'two'].map((name) => {
    const dir = mkdtempSync(join(tmpdir(), `hub-ab-${name}-`));
    writeFileSync(join(dir, 'hub-embed.iife.js'), `/* build ${name} */`);
    writeFileSync(join(dir, 'hub-embed.form.js'), `/* form half ${name} */`);
    return dir;
  });
  const pages = await startPages({ builds: dirs });
  try {
    const page = await (await fetch(pages.buildUrl(1))).text();
    assert.match(page, /<script src="\/build\/1\/hub-embed\.iife\.js" defer><\/script>/);
    assert.match(page, /<hub-embed token-endpoint="\/api\/hub-token\?u=lh-\d+"/);
    assert.equal(await (await fetch(new URL('hub-embed.iife.js', pages.buildUrl(0)))).text(), '/* build one */');
    assert.equal(await (await fetch(new URL('hub-embed.form.js', pages.buildUrl(1)))).text(), '/* form half two */');
    // Only a bundle's files, and only of a folder that was named.
    assert.equal((await fetch(new URL('package.json', pages.buildUrl(0)))).status, 404);
    assert.equal((await fetch(pages.buildUrl(2))).status, 404);
  } finally {
    await pages.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
});

test('the A/B arguments: two or more built folders and --runs; anything else is refused with what to do', () => {
  const built = mkdtempSync(join(tmpdir(), 'hub-ab-args-'));
  writeFileSync(join(built, 'hub-embed.iife.js'), '');
  try {
    assert.deepEqual(parseAbArgs([built, built, '--runs', '3', '--cpu', '8']), {
      builds: [built, built],
      runs: 3,
      cpuSlowdown: 8,
    });
    assert.equal(parseAbArgs([built, built]).cpuSlowdown, 4);
    assert.throws(() => parseAbArgs([built, built, '--cpu', 'x']), /--cpu needs/);
    assert.equal(parseAbArgs([built, built]).runs, 5);
    assert.throws(() => parseAbArgs([built]), /two or more build folders/);
    assert.throws(() => parseAbArgs([built, tmpdir()]), /holds no hub-embed\.iife\.js: build it/);
    assert.throws(() => parseAbArgs([built, built, '--runs', '0']), /--runs needs a whole number/);
    assert.throws(() => parseAbArgs([built, built, '--fast']), /Unknown option "--fast"/);
  } finally {
    rmSync(built, { recursive: true, force: true });
  }
});

test("the A/B long-task line: each task as path@start:duration in whole ms, the origin dropped, Lighthouse's order kept", () => {
  assert.equal(
    longTaskLine([
      { url: 'http://127.0.0.1:1/build/0/hub-embed.iife.js', startTime: 1741.4, duration: 93.6 },
      { url: 'http://127.0.0.1:1/build/0/', startTime: 869, duration: 231.4 },
      { url: 'Unattributable', startTime: 601, duration: 89 },
    ]),
    '/build/0/hub-embed.iife.js@1741:94 /build/0/@869:231 Unattributable@601:89',
  );
});

test('arguments: --smoke and --out; unknown options are refused with a hint', () => {
  assert.equal(parseArgs(['--smoke']).smoke, true);
  assert.equal(parseArgs(['--render']).render, true);
  assert.equal(parseArgs(['--out', '/tmp/x.json']).out, '/tmp/x.json');
  assert.throws(() => parseArgs(['--fast']), /Unknown option "--fast"/);
  assert.throws(() => parseArgs(['--out']), /--out needs a file path/);
});

test('one table: a header, a rule and one line per row, verdicts as yes/NO', () => {
  const text = formatTable([{ metric: 'm', value: '1', reference: 'r', ratio: '1x', target: 't', met: false }]);
  const lines = text.split('\n');
  assert.equal(lines.length, 3);
  assert.match(lines[2]!, /\| NO +\|$/);
});

test('smoke rows keep only count-independent verdicts (size, exchanges, listeners)', () => {
  const rows = smokeRows([
    { metric: 'script bundle, gzip', value: '', reference: '', ratio: '', target: '', met: false },
    { metric: 'time to ready, cold', value: '', reference: '', ratio: '', target: '', met: false },
    { metric: 'token handler, upstream exchanges', value: '', reference: '', ratio: '', target: '', met: true },
    { metric: 'bytes before hub-ready, plain bundle', value: '', reference: '', ratio: '', target: '', met: false },
  ]);
  assert.deepEqual(
    rows.map((r) => r.met),
    [false, undefined, true, false],
  );
});

test("each first file is judged against the build's own budget less its room, not a number of the bench's own", () => {
  for (const entry of BUDGETS) {
    const { bundle, budget } = entry;
    const limit = limitOf(entry);
    const verdict = (firstGzip: number) => {
      const results = {
        formHalfGzip: 3000,
        bytes: [{ bundle, firstGzip, totalGzip: firstGzip + 3000, singleGzip: budget }],
      };
      const [firstRow] = formHalfBytesRows(results as unknown as FormHalfResults);
      return firstRow!.met;
    };
    assert.equal(verdict(limit), true, `${bundle}: exactly the room it keeps is enough`);
    assert.equal(verdict(limit + 1), false, `${bundle}: a byte less is not`);
  }
});

test("a budget keeps ROOM free, but never passes its ceiling: the plain file's is at most Typeform's, and may be filled", () => {
  assert.equal(limitOf({ budget: 17_000 }), 17_000 - ROOM);
  assert.equal(limitOf({ budget: TYPEFORM_CEILING, ceiling: TYPEFORM_CEILING }), TYPEFORM_CEILING);
  const plain = BUDGETS.find((entry) => entry.bundle === 'plain')!;
  assert.equal(plain.ceiling, TYPEFORM_CEILING);
  assert.ok(plain.budget <= TYPEFORM_CEILING, 'the plain budget is at most Typeform');
});

test(
  'smoke run: every benchmark runs on the built bundle and writes results with their references',
  // Lighthouse runs eight times (10 to 25 s a run on a busy 2-core machine).
  { timeout: 600_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hub-bench-test-'));
    try {
      const out = join(dir, 'results.json');
      const lines: string[] = [];
      await runBench({ smoke: true, out }, (line) => lines.push(line));
      const results = JSON.parse(readFileSync(out, 'utf8')) as BenchResults;
      assert.equal(results.mode, 'smoke');
      // docs/benchmarks.md, which the release step renders from a full run on CI's Node: about 100 lines,
      // no date, every row with a target; a smoke run or a run on another Node is refused.
      const full: BenchResults = { ...results, mode: 'full', machine: { ...results.machine, node: `v${CI_NODE}.0.0` } };
      const page = renderBenchmarksPage(full, readFileSync(TEMPLATE, 'utf8'));
      assert.ok(page.trimEnd().split('\n').length <= 100, 'about 100 lines');
      assert.doesNotMatch(page, /\b20\d\d-\d\d-\d\d\b|issue \d+/, 'no dates of runs and no issue numbers');
      for (const row of full.rows.filter((r) => r.met !== undefined || !PAGE_LEAVES_OUT.test(r.metric)))
        assert.ok(page.includes(row.metric), `the page shows ${row.metric}`);
      assert.throws(() => renderBenchmarksPage(results, '{{table}}'), /shows a full run: run `npm run bench`/);
      assert.throws(
        () => renderBenchmarksPage({ ...full, machine: { ...full.machine, node: 'v20.20.2' } }, '{{table}}'),
        new RegExp(`a run on CI's Node ${CI_NODE}`),
      );
      assert.throws(() => renderBenchmarksPage(full, '{{tabel}}'), /unknown placeholder \{\{tabel\}\}/);
      assert.ok(results.sizes.bundle.gzip > 0 && results.sizes.bundle.brotli > 0);
      assert.ok(
        results.sizes.withoutLit.gzip < results.sizes.rebuiltRaw,
        'own code is smaller than the rebuilt bundle',
      );
      assert.ok(results.sizes.litAlone.gzip > 1000, 'Lit alone is a real bundle');
      // The npm path as a user counts it (issue 81): with the app's own lazy import and without, each a real Vite build.
      const { withLazyImport, withoutLazyImport } = results.sizes.npmPath;
      assert.ok(withLazyImport > results.sizes.litAlone.gzip, "the npm path holds the app's Lit");
      assert.ok(
        withoutLazyImport > withLazyImport,
        "without a lazy import of its own, Vite's preload helper is the widget's",
      );
      // One row holds both builds: the app with its own lazy import, and in brackets the app without.
      const npmRow = results.rows.find((row) => row.metric.startsWith('npm path: import'));
      assert.ok(npmRow, 'a row for the npm path');
      assert.match(npmRow.value, /^[\d.]+ KB \([\d.]+ KB\)$/, 'the npm path row gives both builds');
      const { today, prefetch, browserLatencyMs: Lb, serviceLatencyMs: Ls } = results.ready;
      assert.equal(today.coldMs.length, results.ready.runs);
      assert.equal(prefetch.coldMs.length, results.ready.runs);
      assert.equal(today.boundMs, 3 * Lb + Ls);
      assert.equal(prefetch.boundMs, Lb + 2 * Ls);
      // Ready counts to the first frame painted after the event, for the widget and its references alike.
      const { plainDom, plainDomChunked, fetchOnly } = results.ready;
      for (const design of [today, prefetch, plainDom, plainDomChunked, fetchOnly])
        design.coldMs.forEach((ms, run) =>
          assert.ok(ms > design.eventMs[run]!, `${design.design}: painted after the event`),
        );
      // Counted from the servers' request log, so exact even with smoke counts.
      assert.deepEqual(prefetch.roundTrips, [1], 'prefetch: the token request is the one browser round trip');
      // The prefetch's references draw from the same token answer (or read it alone): the same one round trip.
      for (const plain of [plainDom, plainDomChunked, fetchOnly]) {
        assert.equal(plain.coldMs.length, results.ready.runs);
        assert.equal(plain.boundMs, prefetch.boundMs);
        assert.deepEqual(
          plain.requests,
          [['POST /api/hub-token']],
          `${plain.design}: the token request was its only one`,
        );
      }
      assert.ok(today.roundTrips[0]! >= 3, "today's path: token, preflight, GET");
      // The form half (issue 25): out of the first file, and loaded once (at hub-ready, issue 37).
      const { formHalf } = results;
      for (const b of formHalf.bytes) {
        assert.ok(b.firstGzip < b.singleGzip, `${b.bundle}: the first file is smaller than the single file`);
        assert.equal(b.totalGzip, b.firstGzip + formHalf.formHalfGzip);
      }
      for (const g of formHalf.cases) {
        assert.equal(g.single.length, formHalf.runs);
        assert.equal(g.split.length, formHalf.runs);
        assert.ok(
          g.single.every((s) => s.formHalfRequests === 0),
          'the single file never asks for the form half',
        );
        assert.ok(
          g.split.every((s) => s.formHalfRequests === 1),
          'the split build asks for the form half once',
        );
      }
      for (const c of results.render) {
        assert.equal(c.litCards, c.count, 'the element rendered every card');
        assert.equal(c.plainCards, c.count, 'the baseline rendered every card');
        assert.equal(c.shadowCards, c.count, 'the baseline with shadow-root cards rendered every card');
      }
      assert.equal(results.tokenHandler.cached.upstreamExchanges, results.tokenHandler.cached.users);
      assert.equal(results.tokenHandler.naive.upstreamExchanges, results.tokenHandler.naive.requests);
      assert.equal(results.tokenHandler.cached.failures, 0);
      assert.equal(results.memory.leftInDocument, 0);
      assert.equal(results.memory.listenerGrowth, 0);
      // Lighthouse beside the peers: every page once on the phone at 4x, hub-embed's at 8x, on the
      // desktop and on Slow 3G too, and its other layouts on the phone, each with its audits read.
      assert.deepEqual(
        results.lighthouse?.pages.map((p) => [p.mode, p.page, p.samples.length]),
        [
          ['phone 4x', 'hub-embed', 1],
          ['phone 4x', 'hub-embed, Latin text', 1],
          ['phone 4x', 'plain DOM', 1],
          ['phone 4x', 'plain DOM, chunked', 1],
          ['phone 4x', 'Typeform', 1],
          ['phone 4x', 'Cal.com', 1],
          ['phone 8x', 'hub-embed', 1],
          ['desktop', 'hub-embed', 1],
          ['phone 4x', 'hub-embed, panel', 1],
          ['phone 4x', 'hub-embed, two tables', 1],
          ['phone slow 3G', 'hub-embed', 1],
        ],
      );
      for (const { page, median } of results.lighthouse!.pages)
        for (const [audit, value] of Object.entries(median))
          assert.ok(Number.isFinite(value) && value >= 0, `${page}: ${audit} was read from the report (${value})`);
      assert.ok(results.lighthouse!.pages[0]!.median.requests >= 3, 'hub-embed: page, script, token at least');
      assert.equal(results.chipInp?.samples.length, 1, 'the chip click was measured');
      assert.ok(
        lines.some((line) => line.startsWith('| metric')),
        'the table was printed',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
