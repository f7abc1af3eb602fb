/** Small pure helpers for the benchmark: statistics, verdicts and the printed table. */

/** Median of a non-empty list of finite numbers (the mean of the middle two for even lengths). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('median needs at least one value.');
  if (values.some((v) => !Number.isFinite(v))) throw new RangeError('median needs finite numbers.');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** value / reference, rounded to 2 decimals; a zero or negative reference has no meaningful ratio. */
export function ratio(value: number, reference: number): number {
  if (!(reference > 0)) throw new RangeError(`ratio needs a positive reference, got ${reference}.`);
  return Math.round((value / reference) * 100) / 100;
}

export function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

/** Exact bytes, for figures that differ by less than a tenth of a kilobyte. */
export function byteCount(count: number): string {
  return `${count.toLocaleString('en')} B`;
}

export function ms(value: number): string {
  return value >= 100 ? `${Math.round(value)} ms` : `${value.toFixed(1)} ms`;
}

export interface Row {
  metric: string;
  value: string;
  reference: string;
  ratio: string;
  target: string;
  /** true/false for a target, undefined for a row that only informs. */
  met?: boolean;
}

/** A plain fixed-width table: the same text goes to stdout and into docs/benchmarks.md. */
export function formatTable(rows: readonly Row[]): string {
  const head: Row = { metric: 'metric', value: 'value', reference: 'reference', ratio: 'ratio', target: 'target' };
  const cells = (r: Row, header = false) => [
    r.metric,
    r.value,
    r.reference,
    r.ratio,
    r.target,
    header ? 'met' : r.met === undefined ? '' : r.met ? 'yes' : 'NO',
  ];
  const all = [cells(head, true), ...rows.map((r) => cells(r))];
  const widths = all[0]!.map((_, i) => Math.max(...all.map((row) => row[i]!.length)));
  const line = (row: string[]) => `| ${row.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  const rule = `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`;
  return [line(all[0]!), rule, ...all.slice(1).map(line)].join('\n');
}

/** A small seeded PRNG (mulberry32), so a scripted run can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
