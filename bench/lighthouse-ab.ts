/**
 * Lighthouse on hub-embed's page from two or more builds, interleaved, with the plain-DOM page beside
 * them: how to judge a change to TBT on a machine whose speed moves from run to run (docs/benchmarks.md,
 * "Judging a change to TBT"). Keep the build before the change in a folder of its own, then
 *   npm run build && cp -r dist /tmp/before      (before the change)
 *   npm run build                                (after it)
 *   node --import ./scripts/ts-register.mjs bench/lighthouse-ab.ts /tmp/before dist [--runs 5] [--cpu 8]
 * Each run prints every page's TBT and the long tasks Lighthouse counted (simulated milliseconds, named by
 * the file they ran in, or the page's address for its layout frames); the end, each page's median.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_MISSING, findChromium } from '../scripts/chromium.mjs';
import { lighthouseOnce, startPages, type LongTask } from './lighthouse.js';
import { median, ms } from './lib/stats.js';

export interface AbArgs {
  /** dist/ folders, each holding a hub-embed.iife.js. */
  builds: string[];
  runs: number;
  /** Lighthouse's simulated CPU slowdown (its default 4, or 8 where TBT follows the work). */
  cpuSlowdown: number;
}

/** The folders and --runs; refuses fewer than two folders, or one without a built script bundle. */
export function parseAbArgs(argv: readonly string[]): AbArgs {
  const builds: string[] = [];
  let runs = 5;
  let cpuSlowdown = 4;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--runs') {
      runs = Number(argv[++i]);
      if (!Number.isSafeInteger(runs) || runs < 1) throw new Error('--runs needs a whole number of runs, 1 or more.');
    } else if (arg === '--cpu') {
      cpuSlowdown = Number(argv[++i]);
      if (!(cpuSlowdown >= 1)) throw new Error('--cpu needs a CPU slowdown, 1 or more (Lighthouse mobile: 4).');
    } else if (arg.startsWith('--'))
      throw new Error(`Unknown option "${arg}": the arguments are folders, --runs N and --cpu N.`);
    else builds.push(resolve(arg));
  }
  if (builds.length < 2) throw new Error('Name two or more build folders, e.g. /tmp/before dist.');
  const missing = builds.find((dir) => !existsSync(join(dir, 'hub-embed.iife.js')));
  if (missing) throw new Error(`${missing} holds no hub-embed.iife.js: build it with npm run build, then copy dist/.`);
  return { builds, runs, cpuSlowdown };
}

/**
 * One line of long tasks: `what@start:duration` in milliseconds, in the order Lighthouse lists them; `what`
 * is the path of the file the task ran in, or of the page for its layout frames, or Lighthouse's
 * `Unattributable`.
 */
export function longTaskLine(tasks: readonly LongTask[]): string {
  return tasks
    .map(
      (task) =>
        `${task.url.replace(/^https?:\/\/[^/]+/, '')}@${Math.round(task.startTime)}:${Math.round(task.duration)}`,
    )
    .join(' ');
}

export async function compareBuilds(args: AbArgs, log: (line: string) => void): Promise<Map<string, number[]>> {
  const chromium = findChromium();
  if (!chromium) throw new Error(CHROMIUM_MISSING);
  const pages = await startPages({ builds: args.builds });
  const work = mkdtempSync(join(tmpdir(), 'hub-embed-lighthouse-ab-'));
  // Named by place as well as folder: the same folder twice (`dist dist`) shows the noise of a run.
  const targets = [
    ...args.builds.map((dir, index) => ({ name: `${index + 1}. ${dir}`, url: pages.buildUrl(index) })),
    { name: 'plain DOM', url: pages.url('plain DOM') },
  ];
  const tbt = new Map(targets.map(({ name }): [string, number[]] => [name, []]));
  try {
    for (let run = 1; run <= args.runs; run++)
      for (const { name, url } of targets) {
        const { sample, longTasks } = await lighthouseOnce(url, chromium, join(work, 'lhr.json'), {
          cpuSlowdown: args.cpuSlowdown,
        });
        tbt.get(name)!.push(sample.tbtMs);
        log(
          `run ${run}/${args.runs}, ${name}: TBT ${ms(sample.tbtMs)}, benchmark index ${Math.round(sample.benchmarkIndex)}`,
        );
        log(`  long tasks: ${longTaskLine(longTasks) || 'none'}`);
      }
  } finally {
    rmSync(work, { recursive: true, force: true });
    await pages.close();
  }
  for (const [name, values] of tbt) log(`${name}: TBT ${values.map(ms).join(', ')}; median ${ms(median(values))}`);
  return tbt;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await compareBuilds(parseAbArgs(process.argv.slice(2)), console.log);
}
