/**
 * The simulator at scale: published-list with a tag, and one page of a long points log, served by
 * startSimulator over loopback HTTP (16 clients in parallel, keep-alive) at 10, 1,000 and 100,000
 * tables. Reference in the same run: the per-request scan the simulator did before the tag index
 * (filter every published table, then concatenate), timed in process on the same tables.
 */
import { startSimulator } from '../packages/hub-embed-mock/src/index.js';
import { defaultSeed } from '../packages/hub-embed-mock/src/seed.js';
import type { MockSeed, SeedTable } from '../packages/hub-embed-mock/src/types.js';
import type { Row } from './lib/stats.js';

export interface ScaleCase {
  tables: number;
  requests: number;
  /** published-list?tags=<TAG>&limit=<LIMIT> over HTTP. */
  requestsPerSecond: number;
  /** The old per-request scan of the same query, in process (no HTTP), queries per second. */
  scanPerSecond: number;
  failures: number;
}

export interface MockScaleResults {
  cases: ScaleCase[];
  logs: { records: number; requests: number; requestsPerSecond: number; failures: number };
}

export const SCALE_TARGET_RPS = 1000;
const TAG = 'tag-7';
const LIMIT = 20;
const CLIENTS = 16;
/** 200 tags, three per table: a tag query matches a few percent of the tables, as real catalogues do. */
const VOCABULARY = Array.from({ length: 200 }, (_, i) => `tag-${i}`);

export function scalePlan(smoke: boolean) {
  return smoke
    ? { counts: [10, 1000], requests: 100, logRecords: 1000 }
    : { counts: [10, 1000, 100_000], requests: 5000, logRecords: 100_000 };
}

function tablesOf(count: number): SeedTable[] {
  return Array.from({ length: count }, (_, i) => ({
    project_id: i + 1,
    short_code: `s${i.toString(36)}`,
    name: `Table ${i}`,
    industry: 'Bench',
    icon: 'construction',
    tags: [VOCABULARY[i % 200]!, VOCABULARY[(i * 7 + 3) % 200]!, VOCABULARY[(i * 13 + 5) % 200]!],
    type: i % 2 ? 'A' : 'B',
    published: i % 10 !== 9,
    price_cents: 100,
  }));
}

/** The published-list order as computed before the index: a scan and two filters per request. */
function scan(tables: SeedTable[], wanted: string[], limit: number): SeedTable[] {
  const published = tables.filter((t) => t.published);
  const matches = (tags: string[]) => tags.some((tag) => wanted.some((w) => tag.toLowerCase().includes(w)));
  return [...published.filter((t) => matches(t.tags)), ...published.filter((t) => !matches(t.tags))].slice(0, limit);
}

async function load(url: string, headers: Record<string, string>, requests: number) {
  let failures = 0;
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < requests) {
        next++;
        const res = await fetch(url, { headers });
        await res.arrayBuffer();
        if (res.status !== 200) failures++;
      }
    }),
  );
  return { requestsPerSecond: Math.round(requests / ((performance.now() - start) / 1000)), failures };
}

async function measureCase(count: number, requests: number): Promise<ScaleCase> {
  const tables = tablesOf(count);
  const seed: MockSeed = { accounts: defaultSeed.accounts, tables };
  const mock = await startSimulator({ seed, logLimit: 10 });
  try {
    const tokenRes = await fetch(`${mock.apiUrl}/apikeys/token`, {
      method: 'POST',
      headers: { 'X-API-Key': mock.apiKey, 'Content-Type': 'application/json' },
      body: '{"client_user_id":"bench"}',
    });
    const token = ((await tokenRes.json()) as { data: { access_token: string } }).data.access_token;
    const url = `${mock.apiUrl}/projects/published-list?tags=${TAG}&limit=${LIMIT}`;
    const served = await load(url, { Authorization: `Bearer ${token}` }, requests);
    const scans = Math.max(3, Math.min(requests, Math.round(2_000_000 / count)));
    const start = performance.now();
    for (let i = 0; i < scans; i++) scan(tables, [TAG], LIMIT);
    const scanPerSecond = Math.round(scans / ((performance.now() - start) / 1000));
    return { tables: count, requests, ...served, scanPerSecond };
  } finally {
    await mock.close();
  }
}

async function measureLogs(records: number, requests: number): Promise<MockScaleResults['logs']> {
  const mock = await startSimulator({ logLimit: 10 });
  try {
    for (let i = 0; i < records; i++) mock.hub.transfer({ clientUserId: 'long-history', amountCents: 1 });
    const url = `${mock.apiUrl}/points/users/logs?client_user_id=long-history&page=2&page_size=20`;
    return { records, requests, ...(await load(url, { 'X-API-Key': mock.apiKey }, requests)) };
  } finally {
    await mock.close();
  }
}

export async function measureMockScale(smoke: boolean): Promise<MockScaleResults> {
  const p = scalePlan(smoke);
  const cases: ScaleCase[] = [];
  for (const count of p.counts) cases.push(await measureCase(count, p.requests));
  return { cases, logs: await measureLogs(p.logRecords, p.requests) };
}

export function mockScaleRows(r: MockScaleResults): Row[] {
  const rows: Row[] = r.cases.map((c) => ({
    metric: `simulator published-list ?tags, ${c.tables.toLocaleString('en')} tables`,
    value: `${c.requestsPerSecond} req/s`,
    reference: `scan per request ${c.scanPerSecond}/s in process`,
    ratio: '',
    target: c.tables === 100_000 ? `>= ${SCALE_TARGET_RPS} req/s` : '',
    ...(c.tables === 100_000 ? { met: c.requestsPerSecond >= SCALE_TARGET_RPS && c.failures === 0 } : {}),
  }));
  rows.push({
    metric: `simulator logs page, ${r.logs.records.toLocaleString('en')} records`,
    value: `${r.logs.requestsPerSecond} req/s`,
    reference: 'O(page_size) per page',
    ratio: '',
    target: '',
  });
  return rows;
}

if (process.argv[1]?.endsWith('mock-scale.ts')) {
  const results = await measureMockScale(process.argv.includes('--smoke'));
  console.log(JSON.stringify(results, null, 2));
}
