// .ci/run's two shards (`--shard 1/2`, `--shard 2/2`): two runners that together run every lane of the
// single run, each lane once, and each starting from a clean clone (so both install and build).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  parseSummaries,
  rounded,
  seconds,
  SHARD_GOAL_S,
  SHARD_SPREAD_S,
  shardLanes,
  shardSeconds,
  tableRows,
  withTimes,
} from '../../scripts/lane-times.mjs';

/** The lanes `.ci/run --list …` says it would run, in order. */
function lanes(...args: string[]): string[] {
  return execFileSync('bash', ['.ci/run', '--list', ...args], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
}

describe('.ci/run shards', () => {
  const all = lanes();
  const first = lanes('--shard', '1/2');
  const second = lanes('--shard', '2/2');

  it('the two shards together run every lane of the single run, and no lane but install and build twice', () => {
    expect(all.length).toBeGreaterThan(10);
    const both = ['install', 'build'];
    expect([...first, ...second.filter((lane) => !both.includes(lane))].sort()).toEqual([...all].sort());
    expect(first.filter((lane) => second.includes(lane))).toEqual(both);
  });

  it('each shard installs and builds first; the first starts the faults lane beside the rest, then the fast gate', () => {
    expect(second.slice(0, 2)).toEqual(['install', 'build']);
    expect(first.slice(0, first.indexOf('test'))).toEqual(['install', 'commits', 'build', 'faults']);
  });

  it('the second shard holds the engine lanes (a11y beside hosts) and the node lanes; the tarball lanes stay in the first', () => {
    expect(second).toEqual(['install', 'build', 'docs', 'meta', 'integration', 'cross-engine', 'e2e', 'a11y', 'hosts']);
    for (const lane of ['snippets', 'certify', 'package', 'metro', 'ssr', 'hybrid']) expect(first).toContain(lane);
  });

  it("by CONTRIBUTING.md's lane times the shards are within SHARD_SPREAD_S of each other, each within SHARD_GOAL_S", () => {
    const table = tableRows(readFileSync('CONTRIBUTING.md', 'utf8'));
    const [one, two] = [1, 2].map((shard) => shardSeconds(shardLanes(shard), table));
    expect(Math.abs(one! - two!)).toBeLessThanOrEqual(SHARD_SPREAD_S);
    expect(Math.max(one!, two!)).toBeLessThanOrEqual(SHARD_GOAL_S);
  });

  it('a lane beside the others starts when the lanes before it end, and counts for what it outlasts them by', () => {
    const lane = (name: string, beside = false) => ({ lane: name, beside });
    const rows = [
      { lane: 'a', about: '2 min', index: 0 },
      { lane: 'b', about: '30 s', index: 1 },
      { lane: 'c', about: '1–2 min', index: 2 },
    ];
    // c starts after a and b (150 s) and runs 120 s more.
    expect(shardSeconds([lane('a'), lane('b'), lane('c', true)], rows)).toBe(270);
    // Started first, it ends before a and b do: it costs nothing.
    expect(shardSeconds([lane('c', true), lane('a'), lane('b')], rows)).toBe(150);
    expect(shardSeconds([lane('b'), lane('c', true), lane('a')], rows)).toBe(150);
    expect(shardSeconds([lane('b'), lane('c', true)], rows)).toBe(150);
  });

  it('lanes named on the command line are run whatever the shard', () => {
    expect(lanes('e2e', 'lint')).toEqual(['lint', 'e2e']);
    expect(lanes('--shard', '2/2', 'lint')).toEqual(['lint']);
  });

  it('a shard other than 1/2 or 2/2 is refused with a clear error and exit status 2', () => {
    let error: { status?: number; stderr?: string } = {};
    try {
      execFileSync('bash', ['.ci/run', '--list', '--shard', '3/2'], { encoding: 'utf8', stdio: 'pipe' });
    } catch (caught) {
      error = caught as typeof error;
    }
    expect(error.status).toBe(2);
    expect(error.stderr).toContain('--shard takes 1/2 or 2/2');
  });
});

describe('scripts/lane-times.mjs: the lane table written from a .ci/run summary', () => {
  const SUMMARY = [
    '== lane times (.ci/run --shard 1/2, 900 s in all)',
    '   install            62 s',
    '   test               95 s',
    '   faults            181 s, beside the others',
    '   metro               7 s',
    '== FAILED in lane metro (exit status 1)',
  ].join('\n');

  it('reads each lane of the summary, beside ones too', () => {
    expect(parseSummaries(`noise\n${SUMMARY}\n   not a lane 3 s`)).toEqual({
      install: 62,
      test: 95,
      faults: 181,
      metro: 7,
    });
  });

  it('rounds as the table writes times, and reads them back', () => {
    expect([5, 27, 62, 95, 181, 480].map(rounded)).toEqual(['seconds', '25 s', '1 min', '1.5 min', '3 min', '8 min']);
    expect(['seconds', '25 s', '1.5 min', '1–2 min'].map(seconds)).toEqual([10, 25, 90, 120]);
    expect(() => seconds('a while')).toThrow(/lane time "a while"/);
  });

  it("rewrites only the 'about' cells of the lanes it has times for", () => {
    const table = [
      '| lane | command | about | what it checks |',
      '|---|---|---:|---|',
      '| install | `npm ci` | 1 min | a clean install |',
      '| lint | `npm run lint` | 1 min | ESLint |',
    ].join('\n');
    expect(withTimes(table, { install: 150, lint: 20 })).toBe(
      table.replace('| 1 min | a clean', '| 2.5 min | a clean').replace('| 1 min | ESLint', '| 20 s | ESLint'),
    );
    expect(withTimes(table, {})).toBe(table);
  });
});
