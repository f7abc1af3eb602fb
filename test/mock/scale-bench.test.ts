import { describe, expect, it } from 'vitest';
import { measureMockScale, mockScaleRows, scalePlan } from '../../bench/mock-scale.js';

describe('bench/mock-scale.ts (npm run bench, --smoke in CI)', () => {
  it('the smoke run serves every request at each size and gives one row per size plus the logs row (no timing verdicts)', async () => {
    const results = await measureMockScale(true);
    expect(results.cases.map((c) => c.tables)).toEqual(scalePlan(true).counts);
    for (const c of results.cases) expect(c.failures).toBe(0);
    expect(results.logs.failures).toBe(0);
    const rows = mockScaleRows(results);
    expect(rows.map((r) => r.metric)).toEqual([
      'simulator published-list ?tags, 10 tables',
      'simulator published-list ?tags, 1,000 tables',
      'simulator logs page, 1,000 records',
    ]);
    expect(rows.every((r) => r.met === undefined)).toBe(true);
  }, 60_000);

  it('the full run measures 10, 1,000 and 100,000 tables and a 100,000-record log', () => {
    expect(scalePlan(false)).toMatchObject({ counts: [10, 1000, 100_000], logRecords: 100_000 });
  });
});
