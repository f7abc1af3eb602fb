/**
 * docs/benchmarks.md, rendered from bench/results.json and bench/benchmarks.template.md: the template says
 * what each figure means and how to run the bench; the run gives the figures, its command and its machine.
 * No date and no earlier run: the page always shows one run, the one in results.json.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CI_NODE } from '../scripts/node-release.mjs';
import type { BenchResults } from './run.js';
import { formatTable } from './lib/stats.js';

export const TEMPLATE = fileURLToPath(new URL('./benchmarks.template.md', import.meta.url));
export const PAGE = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));

/**
 * Rows without a target that the page leaves to results.json: the form half's clicks, the simulator, and
 * the Slow 3G pair of the prefetch route, whose first card the first view's Slow 3G row names beside its own.
 */
export const PAGE_LEAVES_OUT = /to form load|^simulator |^first screen of cards on Slow 3G/;

/** The Node CI runs on (.ci/run), as scripts/node-release.mjs names it. */
export { CI_NODE };

/**
 * The page for `results`, from `template`; refuses a smoke run, whose timings mean nothing, and a run on
 * another Node than CI's.
 */
export function renderBenchmarksPage(results: BenchResults, template: string): string {
  if (results.mode !== 'full') throw new Error('docs/benchmarks.md shows a full run: run `npm run bench`.');
  const { machine } = results;
  if (!machine.node.startsWith(`v${CI_NODE}.`))
    throw new Error(
      `docs/benchmarks.md shows a run on CI's Node ${CI_NODE}, not ${machine.node}: ` +
        `PATH="$(node scripts/node-release.mjs ${CI_NODE}):$PATH" npm run bench`,
    );
  const lighthouse = results.lighthouse
    ? `, Lighthouse ${results.lighthouse.lighthouseVersion} (${results.lighthouse.runs} runs of each page and mode, interleaved)`
    : '';
  const summary =
    `\`npm run bench\` on ${machine.cpus} x ${machine.model}, ${(machine.memoryBytes / 2 ** 30).toFixed(1)} GB RAM, ` +
    `Node ${machine.node}${lighthouse}. Each row: the figure, its reference, the ratio, and the target (a \`NO\` is one the run missed).`;
  // Every row with a target; of the others, all but the form half's click-by-click times and the
  // simulator's, which stay in results.json (the page stays short enough to read).
  const rows = results.rows.filter((row) => row.met !== undefined || !PAGE_LEAVES_OUT.test(row.metric));
  const filled = { summary, table: formatTable(rows) };
  return template.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => {
    if (!(key in filled)) throw new Error(`bench/benchmarks.template.md: unknown placeholder ${whole}`);
    return filled[key as keyof typeof filled];
  });
}

/** Writes docs/benchmarks.md from the results file (default bench/results.json). */
export function writeBenchmarksPage(resultsFile: string): string {
  const results = JSON.parse(readFileSync(resultsFile, 'utf8')) as BenchResults;
  writeFileSync(PAGE, renderBenchmarksPage(results, readFileSync(TEMPLATE, 'utf8')));
  return PAGE;
}
