// The release step (`npm run release`, through bench/page.ts) renders docs/benchmarks.md only from a full
// run on the Node CI runs on: the major .ci/run puts first on PATH. The smoke run in the faults lane renders
// the whole page; these are its refusals, in the gate.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CI_NODE, renderBenchmarksPage } from '../../bench/page.js';
import type { BenchResults } from '../../bench/run.js';

/** A full run's results as the page reads them, made on Node `node`. */
const run = (node: string, mode: BenchResults['mode'] = 'full') =>
  ({
    mode,
    machine: { cpus: 2, model: 'a test machine', memoryBytes: 2 ** 33, node },
    rows: [{ metric: 'a figure', value: '1 ms', reference: '2 ms', ratio: '0.5x', target: '≤ 1x', met: true }],
  }) as unknown as BenchResults;

describe('docs/benchmarks.md shows a full run on the Node CI uses', () => {
  it('the Node the page asks for is the one .ci/run runs every lane on', () => {
    const ciRun = readFileSync(new URL('../../.ci/run', import.meta.url), 'utf8');
    const majors = [...ciRun.matchAll(/node scripts\/node-release\.mjs (\d+)\)/g)].map((match) => Number(match[1]));
    expect(majors).toEqual([CI_NODE]);
  });

  it("a run on CI's Node major renders, whatever its minor and patch", () => {
    fc.assert(
      fc.property(fc.nat(99), fc.nat(99), (minor, patch) => {
        expect(renderBenchmarksPage(run(`v${CI_NODE}.${minor}.${patch}`), '{{summary}}')).toContain(
          `Node v${CI_NODE}.${minor}.${patch}`,
        );
      }),
    );
  });

  it('a run on another Node major is refused, with the command that runs the bench on CI’s', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 300 }).filter((major) => major !== CI_NODE),
        fc.nat(99),
        (major, minor) => {
          expect(() => renderBenchmarksPage(run(`v${major}.${minor}.0`), '{{summary}}')).toThrow(
            `a run on CI's Node ${CI_NODE}, not v${major}.${minor}.0: PATH="$(node scripts/node-release.mjs ${CI_NODE}):$PATH" npm run bench`,
          );
        },
      ),
    );
  });

  it('a smoke run is refused, on any Node', () => {
    expect(() => renderBenchmarksPage(run(`v${CI_NODE}.0.0`, 'smoke'), '{{summary}}')).toThrow(/full run/);
  });
});
