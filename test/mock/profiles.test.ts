/**
 * The simulator's service profiles: each choice a deployment may make where the spec is silent does what
 * docs/simulator.md's table says, read back through the open API as a client would.
 */
import { describe, expect, it } from 'vitest';
import { createSimulator, type Simulator } from '../../packages/hub-embed-mock/src/hub.js';
import { PROFILES, checkProfile, profileOfNames, storedReason } from '../../packages/hub-embed-mock/src/profiles.js';
import type { ServiceProfile } from '../../packages/hub-embed-mock/src/types.js';
import { defaultSeed } from '../../packages/hub-embed-mock/src/seed.js';

async function api(hub: Simulator, path: string, body?: unknown): Promise<{ status: number; text: string; json: any }> {
  const response = await hub.fetch(`${hub.apiUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'x-api-key': hub.apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, text, json };
}

/** The reason the log keeps for a recharge with this remark, under this profile. */
async function kept(profile: ServiceProfile | string, reason: string): Promise<string> {
  const hub = createSimulator({ profile });
  await api(hub, '/points/users/recharge', { client_user_id: 'u1', amount_cents: 5, reason });
  return hub.userLogs('u1', 1, 1).list[0]!.reason;
}

/** `count` transfers of 1..count cents to u1, oldest first. */
function filled(profile: ServiceProfile | string, count: number): Simulator {
  const hub = createSimulator({ profile });
  for (let n = 1; n <= count; n++) hub.transfer({ clientUserId: 'u1', amountCents: n });
  return hub;
}

describe('service profiles: how the log keeps a recharge\u2019s remark', () => {
  it('keeps N UTF-8 bytes without splitting a character, or N characters (code points)', async () => {
    expect(await kept('bytes-64', 'é'.repeat(40))).toBe('é'.repeat(32));
    expect(await kept({ reasonLimit: { length: 5, unit: 'bytes' } }, 'ab充值')).toBe('ab充');
    expect(await kept({ reasonLimit: { length: 3, unit: 'characters' } }, 'a🎉bc')).toBe('a🎉b');
    expect(await kept('characters-64', 'x'.repeat(80))).toBe('x'.repeat(64));
  });

  it('cuts at the first 4-byte character (utf8mb3, non-strict), then trims when told', async () => {
    expect(await kept('utf8mb3', 'Top-up 🎉 now')).toBe('Top-up ');
    expect(await kept({ cutAtFourByte: true, trimReason: true }, 'Top-up 🎉 now')).toBe('Top-up');
    expect(await kept('characters-32-trimmed', `${'a'.repeat(30)}  b`)).toBe('a'.repeat(30));
  });

  it('stores the remark HTML-escaped or backslash-escaped', async () => {
    expect(await kept('html-escaped', `O'Brien <&> "x"`)).toBe('O&#39;Brien &lt;&amp;&gt; &quot;x&quot;');
    expect(await kept('backslash-escaped', `O'Brien "x" \\`)).toBe(`O\\'Brien \\"x\\" \\\\`);
  });

  it('escapes, then cuts at a 4-byte character, then cuts to the limit, then trims: in that order', () => {
    const profile = checkProfile({
      escapeReason: 'html',
      cutAtFourByte: true,
      reasonLimit: { length: 9, unit: 'characters' },
      trimReason: true,
    });
    expect(storedReason("a' b   c🎉d", profile)).toBe('a&#39; b');
  });

  it('a console transfer\u2019s remark goes into the same column', () => {
    const hub = createSimulator({ profile: 'characters-64' });
    hub.transfer({ clientUserId: 'u1', amountCents: 1, reason: 'y'.repeat(70) });
    expect(hub.userLogs('u1', 1, 1).list[0]!.reason).toHaveLength(64);
  });
});

describe('service profiles: how the logs are listed and paged', () => {
  it('newest first by default, oldest first when told', async () => {
    const newest = await api(filled('spec', 3), '/points/users/logs?client_user_id=u1');
    expect(newest.json.data.list.map((r: { amount_cents: number }) => r.amount_cents)).toEqual([3, 2, 1]);
    const oldest = await api(filled('oldest-first', 3), '/points/users/logs?client_user_id=u1');
    expect(oldest.json.data.list.map((r: { amount_cents: number }) => r.amount_cents)).toEqual([1, 2, 3]);
  });

  it('total: every record, missing, the page\u2019s count, or in pagination.total', async () => {
    const path = '/points/users/logs?client_user_id=u1&page_size=2';
    expect((await api(filled('spec', 5), path)).json.data.total).toBe(5);
    expect((await api(filled('total-missing', 5), path)).json.data).not.toHaveProperty('total');
    expect((await api(filled('total-per-page', 5), path)).json.data.total).toBe(2);
    const elsewhere = (await api(filled('total-elsewhere', 5), path)).json.data;
    expect(elsewhere).not.toHaveProperty('total');
    expect(elsewhere.pagination).toEqual({ total: 5 });
  });

  it('page_size capped at 50 while the answer echoes the 100 asked; pages are of 50', async () => {
    const hub = filled('page-size-50', 120);
    const pages = [];
    for (let page = 1; page <= 4; page++)
      pages.push((await api(hub, `/points/users/logs?client_user_id=u1&page=${page}&page_size=100`)).json.data);
    expect(pages.map((data) => data.list.length)).toEqual([50, 50, 20, 0]);
    expect(pages.every((data) => data.page_size === 100)).toBe(true);
  });

  it('a gateway\u2019s HTML error instead of the logs: on every read, or on one page only', async () => {
    const every = await api(filled('gateway-404', 3), '/points/users/logs?client_user_id=u1');
    expect(every.status).toBe(404);
    expect(every.text).toContain('<html>');
    expect(every.json).toBeUndefined();
    const hub = filled('gateway-404-page-2', 3);
    expect((await api(hub, '/points/users/logs?client_user_id=u1&page=1')).status).toBe(200);
    expect((await api(hub, '/points/users/logs?client_user_id=u1&page=2')).status).toBe(404);
    expect((await api(filled('gateway-502', 1), '/points/users/logs?client_user_id=u1')).status).toBe(502);
  });

  it('a lagging log shows a record only logLagMs after it is written', async () => {
    const hub = createSimulator({ profile: { logLagMs: 60_000 } });
    hub.clock.set(Date.UTC(2026, 10, 26, 10));
    hub.transfer({ clientUserId: 'u1', amountCents: 1 });
    expect((await api(hub, '/points/users/logs?client_user_id=u1')).json.data.list).toEqual([]);
    hub.clock.advance(60_000);
    expect((await api(hub, '/points/users/logs?client_user_id=u1')).json.data.list).toHaveLength(1);
  });
});

describe('service profiles: late applies behind a gateway', () => {
  it('a recharge applied applyDelayMs after it arrives; a gateway answers 504 (HTML) first and the apply goes on', async () => {
    const hub = createSimulator({ profile: { applyDelayMs: 200, gatewayTimeoutMs: 20 } });
    const answer = await api(hub, '/points/users/recharge', { client_user_id: 'u1', amount_cents: 5 });
    expect(answer.status).toBe(504);
    expect(answer.text).toContain('504 Gateway Time-out');
    expect(hub.transfers(1, 10).list).toHaveLength(0);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(hub.transfers(1, 10).list).toHaveLength(1);
  });

  it('without a gateway the recharge is answered when it is applied', async () => {
    const hub = createSimulator({ profile: { applyDelayMs: 30 } });
    const answer = await api(hub, '/points/users/recharge', { client_user_id: 'u1', amount_cents: 5 });
    expect(answer.status).toBe(200);
    expect(hub.transfers(1, 10).list).toHaveLength(1);
  });
});

describe('service profiles: names and checks', () => {
  it('every built-in profile is a valid profile; the CLI merges names in order, later ones winning', () => {
    for (const name of Object.keys(PROFILES)) expect(() => checkProfile(name), name).not.toThrow();
    expect(profileOfNames(['oldest-first', 'page-size-50', 'bytes-64'])).toEqual({
      logsOrder: 'oldest-first',
      pageSizeCap: 50,
      reasonLimit: { length: 64, unit: 'bytes' },
    });
    expect(() => profileOfNames(['nope'])).toThrow(/--profile must be one of/);
  });

  it('a bad profile is a TypeError naming the field, at construction', () => {
    const bad: [unknown, RegExp][] = [
      ['nope', /profile must be one of/],
      [{ logsOrder: 'random' }, /profile\.logsOrder/],
      [{ pageSizeCap: 0 }, /profile\.pageSizeCap/],
      [{ reasonLimit: { length: -1, unit: 'bytes' } }, /profile\.reasonLimit\.length/],
      [{ reasonLimit: { length: 5, unit: 'words' } }, /profile\.reasonLimit\.unit/],
      [{ logsError: { status: 200 } }, /profile\.logsError\.status/],
      [{ logLagMs: 1.5 }, /profile\.logLagMs/],
      [{ clockOffsetMs: 8 * 24 * 3600 * 1000 }, /profile\.clockOffsetMs/],
      [{ lagMs: 5 }, /profile\.lagMs is not a profile field/],
      [[], /profile must be/],
    ];
    for (const [profile, message] of bad)
      expect(() => createSimulator({ profile: profile as ServiceProfile }), JSON.stringify(profile)).toThrow(message);
  });
});

describe('service profiles: a clock of its own, a proxy that repeats POSTs, failed attempts in the log', () => {
  it('clockOffsetMs moves every created_at the logs show by that much, and nothing else', async () => {
    const plain = createSimulator();
    const ahead = createSimulator({ profile: 'beijing-time-labelled-utc' });
    for (const hub of [plain, ahead]) {
      hub.clock.set(Date.parse('2026-11-28T01:00:00.000Z'));
      await api(hub, '/points/users/recharge', { client_user_id: 'u1', amount_cents: 5 });
    }
    const [plainRecord] = (await api(plain, '/points/users/logs?client_user_id=u1')).json.data.list;
    const [aheadRecord] = (await api(ahead, '/points/users/logs?client_user_id=u1')).json.data.list;
    expect(plainRecord.created_at).toBe('2026-11-28T01:00:00Z');
    expect(aheadRecord.created_at).toBe('2026-11-28T09:00:00Z');
    expect({ ...aheadRecord, created_at: undefined }).toEqual({ ...plainRecord, created_at: undefined });
  });

  it('proxyRepeatsPost sends a recharge twice: one credit, and the caller hears the repeat\u2019s 409', async () => {
    const hub = createSimulator({ profile: 'proxy-repeats-post' });
    const answer = await api(hub, '/points/users/recharge', {
      client_user_id: 'u1',
      amount_cents: 7,
      external_order_id: 'o1',
    });
    expect(answer.status).toBe(409);
    expect(
      hub.requestLog.filter((entry) => entry.path.endsWith('/points/users/recharge')).map((e) => e.status),
    ).toEqual([200, 409]);
    expect(hub.userLogs('u1', 1, 10).list.map((record) => record.change_cents)).toEqual([7]);
  });

  it('embedderPolicy: the form site sends its COEP and CORP cross-origin on every page, the icons CORP; none of it by default', async () => {
    const icon = (hub: Simulator) => `${hub.baseUrl}/static/icons/${defaultSeed.tables[0]!.icon}.png`;
    for (const policy of ['require-corp', 'credentialless'] as const) {
      const hub = createSimulator({ profile: { embedderPolicy: policy } });
      // A form page (here its error page: no token), and an icon of the API site.
      const page = await hub.fetch(`${hub.formUrl}/no-such-table`);
      expect(page.headers.get('cross-origin-embedder-policy')).toBe(policy);
      expect(page.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
      const png = await hub.fetch(icon(hub));
      expect(png.status).toBe(200);
      expect(png.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
      expect(png.headers.get('cross-origin-embedder-policy')).toBeNull();
    }
    const plain = createSimulator();
    for (const url of [`${plain.formUrl}/no-such-table`, icon(plain)]) {
      const answer = await plain.fetch(url);
      expect(answer.headers.get('cross-origin-embedder-policy')).toBeNull();
      expect(answer.headers.get('cross-origin-resource-policy')).toBeNull();
    }
    expect(PROFILES['embeddable-require-corp']).toEqual({ embedderPolicy: 'require-corp' });
    expect(PROFILES['embeddable-credentialless']).toEqual({ embedderPolicy: 'credentialless' });
    expect(() => checkProfile({ embedderPolicy: 'unsafe-none' as never })).toThrow(/embedderPolicy/);
  });

  it('a failed-attempt fault logs the attempt with its remark, status failed and change 0, credits nothing, answers 500', async () => {
    const hub = createSimulator({ rechargeFaults: { failedAttemptRate: 1 } });
    const answer = await api(hub, '/points/users/recharge', {
      client_user_id: 'u1',
      amount_cents: 9,
      reason: 'hubmark Top-up',
    });
    expect(answer.status).toBe(500);
    const [record] = hub.userLogs('u1', 1, 10).list;
    expect(record).toMatchObject({
      record_type: 'recharge',
      status: 'failed',
      change_cents: 0,
      reason: 'hubmark Top-up',
    });
    expect(hub.userLogs('u1', 1, 10).list).toHaveLength(1);
  });
});
