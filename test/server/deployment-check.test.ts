/**
 * docs/server.md's deployment check, run as written against the simulator's service profiles: it must say
 * the marker is kept whole exactly where a lost recharge answer is then resolved from the logs, and that
 * it is not where the outcome would be pending. Its remark is the docs' own, which must be a real one:
 * non-ASCII, with a 4-byte character and a quote.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createSimulator } from '../../packages/hub-embed-mock/src/hub.js';
import { startSimulator, type RunningSimulator } from '../../packages/hub-embed-mock/src/node.js';
import type { ServiceProfile } from '../../packages/hub-embed-mock/src/types.js';
import { createServerClient } from '../../src/server/server-client.js';
import { HubRechargePendingError } from '../../src/server/recharge-pending.js';

const ROOT = new URL('../../', import.meta.url);
const docs = readFileSync(new URL('docs/server.md', ROOT), 'utf8');
const check = [...docs.matchAll(/^```ts\n([\s\S]*?)^```$/gm)]
  .map((match) => match[1]!)
  .find((code) => code.includes('orderMarker(orderId)') && code.includes('reason.startsWith(marker)'));
const reason = check === undefined ? undefined : /^const reason = ("[^"\n]*");$/m.exec(check)?.[1];

const scratch = mkdtempSync(join(tmpdir(), 'deployment-check-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The docs' check as its reader runs it, `times` in a row against a simulator playing `profile`: what it last prints. */
async function runCheck(profile: ServiceProfile | string, times = 1): Promise<string> {
  const running = await startSimulator({ profile });
  try {
    let stdout = '';
    for (let run = 0; run < times; run++) stdout = await runOnce(running);
    return stdout;
  } finally {
    await running.close();
  }
}

/** One run of the check against `running`: what it prints. */
async function runOnce(running: RunningSimulator): Promise<string> {
  const file = join(scratch, `check-${Math.random().toString(36).slice(2)}.ts`);
  writeFileSync(
    file,
    check!
      .replace("from 'hub-embed/server'", `from ${JSON.stringify(new URL('src/server/index.ts', ROOT).href)}`)
      .replace("'https://hub.example.com'", JSON.stringify(running.baseUrl)),
  );
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', new URL('scripts/ts-register.mjs', ROOT).pathname, file],
    { env: { ...process.env, HUB_API_KEY: running.apiKey }, timeout: 60_000 },
  );
  return stdout;
}

/** Whether recharge() resolves a lost answer under `profile` with the docs' remark, or leaves it pending. */
async function lostAnswer(profile: ServiceProfile | string): Promise<'resolved' | 'pending'> {
  const faults = [{ kind: 'drop' as const }];
  const hub = createSimulator({ profile, rechargeFaults: { pick: () => faults.shift() } });
  const client = createServerClient({
    apiKey: hub.apiKey,
    baseUrl: hub.baseUrl,
    fetch: hub.fetch,
    recharge: { settleMs: 0 },
  });
  try {
    await client.recharge({
      clientUserId: 'u1',
      amountCents: 500,
      externalOrderId: 'o-1',
      reason: JSON.parse(reason!),
    });
    return 'resolved';
  } catch (error) {
    if (error instanceof HubRechargePendingError) return 'pending';
    throw error;
  }
}

describe("docs/server.md's deployment check tells the truth about the service it runs against", () => {
  it('uses a real remark: non-ASCII, a 4-byte character and a quote', () => {
    expect(check, 'the check is a ts block of docs/server.md').toBeDefined();
    const text = JSON.parse(reason!) as string;
    expect(text).toMatch(/[^\x00-\x7f]/);
    expect(text).toMatch(/[\uD800-\uDBFF][\uDC00-\uDFFF]/);
    expect(text).toContain("'");
  });

  // The remark-keeping profiles, and two that cut inside the marker; `kept`: what the check must say.
  const cases: [string, ServiceProfile | string, boolean, number?][] = [
    ['spec', 'spec', true],
    // Run again, under a service that lists the oldest record first: the check reads its own record.
    ['oldest-first, the second run', 'oldest-first', true, 2],
    ['bytes-64', 'bytes-64', true],
    ['characters-64', 'characters-64', true],
    ['utf8mb3', 'utf8mb3', true],
    ['html-escaped', 'html-escaped', true],
    ['backslash-escaped', 'backslash-escaped', true],
    ['characters-32-trimmed', 'characters-32-trimmed', false],
    ['34 bytes', { reasonLimit: { length: 34, unit: 'bytes' } }, false],
  ];
  for (const [name, profile, kept, times] of cases) {
    it(`${name}: the check says the marker is ${kept ? '' : 'NOT '}kept whole, and a lost answer is ${kept ? 'resolved' : 'pending'}`, async () => {
      const said = await runCheck(profile, times);
      expect(said).toMatch(kept ? /^the marker is kept whole/m : /^the marker is NOT kept whole/m);
      expect(await lostAnswer(profile)).toBe(kept ? 'resolved' : 'pending');
    }, 90_000);
  }
});
