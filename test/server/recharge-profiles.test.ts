/**
 * Credit only on evidence, against every service the spec allows: each case a reviewer found where
 * `recharge()` concluded "not applied" from an assumption the spec does not make, run against the
 * simulator's service profile that makes that choice. Each ends with 1 credit, or pending and nothing
 * sent again (issue 79: no second send without proof); what resolveRecharge later says of a pending order
 * holds the same rules.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createSimulator, type Simulator } from '../../packages/hub-embed-mock/src/hub.js';
import { PROFILES, type ProfileName } from '../../packages/hub-embed-mock/src/profiles.js';
import type { RechargeFault, ServiceProfile } from '../../packages/hub-embed-mock/src/types.js';
import { createServerClient, type ServerClientOptions } from '../../src/server/server-client.js';
import { orderMarker, reasonWithMarker } from '../../src/server/order-marker.js';
import { MAX_EVIDENCE_PAGES, readRechargeEvidence } from '../../src/server/recharge-evidence.js';
import { HubRechargePendingError } from '../../src/server/recharge-pending.js';
import { DEFAULT_SETTLE_WINDOW_MS } from '../../src/server/recharge-decision.js';
import type { LogsPage, PointsLogRecord } from '../../src/server/results.js';
import { HubApiError } from '../../src/server/errors.js';
import { isHubError } from '../../src/core/errors.js';
import { rejectionOf } from '../rejection.js';

const RECHARGE = '/api/v1/hub/points/users/recharge';
const LOGS = '/api/v1/hub/points/users/logs';

/** A simulator with this profile whose recharges meet these faults, one a recharge, then none. */
function service(profile: ServiceProfile | string, ...faults: RechargeFault[]): Simulator {
  return createSimulator({ profile, logLimit: 10_000, rechargeFaults: { pick: () => faults.shift() } });
}

/** Recharge sends that reached the service (answered or applied), counted at the fetch in front of it. */
function counted(hub: Simulator): { fetch: typeof fetch; recharges: () => number } {
  let recharges = 0;
  return {
    fetch: (input, init) => {
      if (String(input instanceof Request ? input.url : input).endsWith(RECHARGE)) recharges++;
      return hub.fetch(input, init);
    },
    recharges: () => recharges,
  };
}

function clientOf(hub: Simulator, fetchImpl: typeof fetch, options: Partial<ServerClientOptions> = {}) {
  return createServerClient({
    apiKey: hub.apiKey,
    baseUrl: hub.baseUrl,
    fetch: fetchImpl,
    recharge: { settleMs: 0 },
    ...options,
  });
}

/** How many times the service credited this order: its transfer records keep the order id whatever the remark became. */
function creditsOf(hub: Simulator, orderId: string): number {
  return hub.transfers(1, 100).list.filter((transfer) => transfer.external_order_id === orderId).length;
}

/** `count` earlier transfers of another amount to the user, so the logs run to several pages. */
function history(hub: Simulator, user: string, count: number): void {
  for (let n = 0; n < count; n++) hub.transfer({ clientUserId: user, amountCents: 7, reason: `Earlier ${n}` });
}

const WINDOW = DEFAULT_SETTLE_WINDOW_MS;

/**
 * One order through `recharge()`: its outcome, the sends that reached the service, its credits, and what
 * resolveRecharge says of it `waitedMs` after its send (by the caller's clock).
 */
async function rechargeOrder(
  hub: Simulator,
  order: { orderId: string; cents?: number; reason?: string; user?: string },
) {
  const { fetch, recharges } = counted(hub);
  const client = clientOf(hub, fetch);
  const input = { clientUserId: order.user ?? 'u1', amountCents: order.cents ?? 500, externalOrderId: order.orderId };
  const sentAt = Date.now();
  const outcome = await client
    .recharge({ ...input, ...(order.reason === undefined ? {} : { reason: order.reason }) })
    .then(
      (result) => ({ result, error: undefined }),
      (error: unknown) => ({ result: undefined, error }),
    );
  const resolvedAfter = (waitedMs: number) => client.resolveRecharge({ ...input, sentAt, now: sentAt + waitedMs });
  return { ...outcome, sends: recharges(), credits: creditsOf(hub, order.orderId), resolvedAfter };
}

describe('recharge: the remark as a service stores it cannot hide or forge an order', () => {
  it('a service that keeps 64 UTF-8 bytes of a non-ASCII remark: a lost answer is found, 1 credit', async () => {
    const hub = service('bytes-64', { kind: 'drop' });
    const reason = '充值 — 会员月卡 🎉 '.repeat(6);
    const run = await rechargeOrder(hub, { orderId: 'o-bytes', reason });
    expect(new TextEncoder().encode(hub.userLogs('u1', 1, 1).list[0]!.reason).byteLength).toBeLessThanOrEqual(64);
    expect(run.error).toBeUndefined();
    expect(run.result?.amountCents).toBe(500);
    expect([run.sends, run.credits]).toEqual([1, 1]);
  });

  it('a service that cuts the remark at its first 4-byte character (utf8mb3): found, 1 credit', async () => {
    const hub = service('utf8mb3', { kind: 'drop' });
    const run = await rechargeOrder(hub, { orderId: 'o-mb3', reason: '🎉 Top-up' });
    expect(hub.userLogs('u1', 1, 1).list[0]!.reason).not.toContain('Top-up');
    expect([run.error, run.sends, run.credits]).toEqual([undefined, 1, 1]);
  });

  it('a service that cuts, then trims trailing spaces: found when the marker fits, pending for good and sent once when not', async () => {
    const fits = service({ reasonLimit: { length: 36, unit: 'characters' }, trimReason: true }, { kind: 'drop' });
    const found = await rechargeOrder(fits, { orderId: 'o-trim', reason: 'Top-up' });
    expect(fits.userLogs('u1', 1, 1).list[0]!.reason).toMatch(/^hub[0-9a-f]{32}$/);
    expect([found.error, found.sends, found.credits]).toEqual([undefined, 1, 1]);
    const cut = service({ reasonLimit: { length: 20, unit: 'characters' }, trimReason: true }, { kind: 'drop' });
    const pending = await rechargeOrder(cut, { orderId: 'o-trim', reason: 'Top-up' });
    expect(pending.error).toBeInstanceOf(HubRechargePendingError);
    expect([pending.sends, pending.credits]).toEqual([1, 1]);
    expect(await pending.resolvedAfter(10 * WINDOW)).toMatchObject({ outcome: 'pending', retryAfterMs: undefined });
  });

  for (const profile of ['html-escaped', 'backslash-escaped'] as const) {
    it(`a service that stores the remark ${profile} (order o'brien-42): found, 1 credit`, async () => {
      const hub = service(profile, { kind: 'drop' });
      const run = await rechargeOrder(hub, { orderId: "o'brien-42", reason: "Top-up for O'Brien" });
      expect(hub.userLogs('u1', 1, 1).list[0]!.reason).not.toContain("O'Brien");
      expect([run.error, run.sends, run.credits]).toEqual([undefined, 1, 1]);
    });
  }

  it('a console transfer of 1 cent whose remark quotes an order\u2019s marker is not that order: a lost send is pending, then not-applied after the window', async () => {
    const hub = service('spec', { kind: 'drop-before' });
    hub.transfer({ clientUserId: 'u1', amountCents: 1, reason: 'Goodwill, re [hub-order:o-77]' });
    hub.transfer({ clientUserId: 'u1', amountCents: 1, reason: `Goodwill, re ${await orderMarker('o-77')}` });
    const run = await rechargeOrder(hub, { orderId: 'o-77' });
    expect(run.error).toBeInstanceOf(HubRechargePendingError);
    expect([run.sends, run.credits]).toEqual([1, 0]);
    expect(await run.resolvedAfter(WINDOW)).toEqual({ outcome: 'not-applied' });
  });

  it('a record that starts with this order\u2019s marker but is of another amount is pending for good: nothing sent again', async () => {
    const hub = service('spec', { kind: 'drop-before' });
    hub.transfer({ clientUserId: 'u1', amountCents: 1, reason: `${await orderMarker('o-78')} forged` });
    const run = await rechargeOrder(hub, { orderId: 'o-78' });
    expect(run.error).toBeInstanceOf(HubRechargePendingError);
    expect((run.error as Error).message).toContain('carries this order\u2019s marker, not one of 500');
    expect([run.sends, run.credits]).toEqual([1, 0]);
    expect(await run.resolvedAfter(10 * WINDOW)).toMatchObject({ outcome: 'pending', retryAfterMs: undefined });
  });
});

describe('recharge: every page of the logs is read, whatever total and page_size claim, in an order that is checked', () => {
  // The order's record (or an unmarked credit of its amount) lands past the first page of 100 in each: a
  // paging stop that trusts the answer reads too little and finds nothing.
  const cases: [string, ServiceProfile, number][] = [
    ['lists the logs newest first', {}, 120],
    ['lists the logs oldest first', { logsOrder: 'oldest-first' }, 120],
    ['puts total elsewhere', { logsOrder: 'oldest-first', logsTotal: 'elsewhere' }, 120],
    ['makes total the page\u2019s count', { logsOrder: 'oldest-first', logsTotal: 'page' }, 120],
    ['leaves total out', { logsOrder: 'oldest-first', logsTotal: 'missing' }, 120],
    ['caps page_size at 50 while echoing 100', { logsOrder: 'oldest-first', pageSizeCap: 50 }, 120],
  ];
  for (const [what, profile, earlier] of cases) {
    it(`a service that ${what}: a lost answer is found (1 credit); a lost send is pending, not-applied after the window only when no page holds a credit of its amount`, async () => {
      // Applied, answer lost: found on a later page.
      const lost = service(profile, { kind: 'drop' });
      history(lost, 'u1', earlier);
      const found = await rechargeOrder(lost, { orderId: 'o-paged' });
      expect([found.error, found.sends, found.credits]).toEqual([undefined, 1, 1]);
      // Lost before the service: pending, sent once; after the window every page read shows it absent.
      const before = service(profile, { kind: 'drop-before' });
      history(before, 'u1', earlier);
      const pending = await rechargeOrder(before, { orderId: 'o-paged' });
      expect(pending.error).toBeInstanceOf(HubRechargePendingError);
      expect([pending.sends, pending.credits]).toEqual([1, 0]);
      expect(await pending.resolvedAfter(WINDOW)).toEqual({ outcome: 'not-applied' });
      // The same with an unmarked credit of the amount in the middle of the logs, past page 1 either way.
      const hidden = service(profile, { kind: 'drop-before' });
      history(hidden, 'u1', earlier);
      hidden.transfer({ clientUserId: 'u1', amountCents: 500, reason: 'Console credit' });
      history(hidden, 'u1', earlier);
      const unclear = await rechargeOrder(hidden, { orderId: 'o-paged' });
      expect(unclear.error).toBeInstanceOf(HubRechargePendingError);
      expect(await unclear.resolvedAfter(WINDOW)).toMatchObject({ outcome: 'pending', retryAfterMs: undefined });
    });
  }

  it('a gateway\u2019s HTML 404 on the first logs read is not "never met": pending, never not-applied, sent once', async () => {
    const hub = service('gateway-404', { kind: 'drop' });
    const run = await rechargeOrder(hub, { orderId: 'o-404', user: 'new-user' });
    expect(run.error).toBeInstanceOf(HubRechargePendingError);
    expect([run.sends, run.credits]).toEqual([1, 1]);
    expect(await run.resolvedAfter(WINDOW)).toMatchObject({ outcome: 'pending', retryAfterMs: undefined });
  });

  it('a 404 on a later log page (page 2) is pending, never not-applied: not sent again', async () => {
    const hub = service('gateway-404-page-2', { kind: 'drop-before' });
    history(hub, 'u1', 3);
    const run = await rechargeOrder(hub, { orderId: 'o-page-2' });
    expect(run.error).toBeInstanceOf(HubRechargePendingError);
    expect((run.error as Error).message).toContain('page 2');
    expect([run.sends, run.credits]).toEqual([1, 0]);
    expect(await run.resolvedAfter(WINDOW)).toMatchObject({ outcome: 'pending', retryAfterMs: undefined });
  });

  it('the service\u2019s own 404 envelope for a user it never met is absence: pending, sent once, not-applied after the window', async () => {
    const hub = service('spec', { kind: 'drop-before' });
    const run = await rechargeOrder(hub, { orderId: 'o-new', user: 'never-met' });
    expect(run.error).toBeInstanceOf(HubRechargePendingError);
    expect([run.sends, run.credits]).toEqual([1, 0]);
    expect(await run.resolvedAfter(WINDOW - 1)).toMatchObject({ outcome: 'pending', retryAfterMs: 1 });
    expect(await run.resolvedAfter(WINDOW)).toEqual({ outcome: 'not-applied' });
  });
});

describe('readRechargeEvidence: absent needs a complete read in a checked order; credited needs a success credit of the amount', () => {
  const record = (
    id: number,
    createdAt: string,
    reason = 'other',
    more: Partial<PointsLogRecord> = {},
  ): PointsLogRecord => ({
    id,
    source: 'transfer',
    recordType: 'recharge',
    changeCents: 7,
    amountCents: 7,
    balanceAfter: 7,
    reason,
    status: 'success',
    shortCode: null,
    projectId: null,
    createdAt,
    ...more,
  });
  const pages =
    (...lists: PointsLogRecord[][]) =>
    (page: number): Promise<LogsPage> =>
      Promise.resolve({ clientUserId: 'u1', userId: 1, list: lists[page - 1] ?? [], total: 1, page, pageSize: 100 });
  const t = (second: number) => `2026-11-26T10:00:${String(second).padStart(2, '0')}Z`;

  it('records listed in one order, newest or oldest first, to an empty page: absent', async () => {
    const newest = pages([record(3, t(3)), record(2, t(2))], [record(1, t(1))]);
    const oldest = pages([record(1, t(1)), record(2, t(2))], [record(3, t(3))]);
    for (const read of [newest, oldest])
      expect(await readRechargeEvidence(read, await orderMarker('o'), 500)).toEqual({
        kind: 'absent',
        failedAttempts: 0,
      });
  });

  it('records whose times go back and forth across pages: unclear (pages may skip records)', async () => {
    const mixed = pages([record(3, t(3)), record(2, t(2))], [record(4, t(4))]);
    expect((await readRechargeEvidence(mixed, await orderMarker('o'), 500)).kind).toBe('unclear');
  });

  it('a page that repeats the last one (a service that ignores page): unclear', async () => {
    const same = [record(1, t(1))];
    expect((await readRechargeEvidence(pages(same, same), await orderMarker('o'), 500)).kind).toBe('unclear');
  });

  it(`logs longer than ${MAX_EVIDENCE_PAGES} pages: unclear, never absent; shorter logs are read to their empty page`, async () => {
    const reads: number[] = [];
    const endless = (page: number) => {
      reads.push(page);
      return Promise.resolve({
        clientUserId: 'u1',
        userId: 1,
        list: [record(page, t(0))],
        total: 1,
        page,
        pageSize: 100,
      });
    };
    expect((await readRechargeEvidence(endless, await orderMarker('o'), 500)).kind).toBe('unclear');
    expect(Math.max(...reads)).toBe(MAX_EVIDENCE_PAGES);
    // One page fewer, then the empty page that ends the logs: read whole, absent.
    const shorter = (page: number) => (page < MAX_EVIDENCE_PAGES ? endless(page) : pages()(page));
    expect((await readRechargeEvidence(shorter, await orderMarker('o'), 500)).kind).toBe('absent');
  });

  it('the service\u2019s own 404 envelope on page 1 is absent; on a later page (page 2), or a gateway\u2019s 404 on page 1, unclear', async () => {
    const marker = await orderMarker('o');
    const notFound = new HubApiError(404, 'user not found', 404);
    const first = (page: number) => (page === 1 ? Promise.reject(notFound) : pages()(page));
    expect(await readRechargeEvidence(first, marker, 500)).toEqual({ kind: 'absent', failedAttempts: 0 });
    const later = (page: number) => (page === 2 ? Promise.reject(notFound) : pages([record(1, t(1))])(page));
    const found = await readRechargeEvidence(later, marker, 500);
    expect(found.kind).toBe('unclear');
    expect(found.kind === 'unclear' && found.why).toContain('page 2');
    const gateway = () => Promise.reject(new HubApiError(404, 'Not Found'));
    expect((await readRechargeEvidence(gateway, marker, 500)).kind).toBe('unclear');
  });

  it('a created_at that is not a time: unclear', async () => {
    expect((await readRechargeEvidence(pages([record(1, 'yesterday')]), await orderMarker('o'), 500)).kind).toBe(
      'unclear',
    );
  });

  it('a success credit of the amount with the whole marker first is credited, with its record and the user', async () => {
    const marker = await orderMarker('o');
    const credit = record(2, t(2), `${marker} Top-up`, { changeCents: 500, amountCents: 500 });
    expect(await readRechargeEvidence(pages([record(3, t(3)), credit], [record(1, t(1))]), marker, 500)).toEqual({
      kind: 'credited',
      record: credit,
      userId: 1,
    });
  });

  it('a marked record that is not a success credit, on any page and in any number, is never credited: absent with its failed attempts', async () => {
    const marker = await orderMarker('o');
    const attempt = fc.oneof(
      fc.record({
        status: fc.constantFrom('failed', 'pending', 'FAILED', '', 'processing'),
        changeCents: fc.integer({ min: -500, max: 500 }),
      }),
      fc.record({ status: fc.constant('success'), changeCents: fc.integer({ min: -500, max: 0 }) }),
      fc.record({
        status: fc.constant('success'),
        changeCents: fc.constant(500),
        recordType: fc.constantFrom('deduct', 'refund', 'reward', 'failed'),
      }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(attempt, fc.boolean()), { minLength: 1, maxLength: 6 }),
        fc.nat(150),
        async (attempts, others) => {
          // Newest first: ids and times fall together; the attempts spread among `others` unrelated records.
          const all: PointsLogRecord[] = [];
          let id = others + attempts.length;
          for (const [fields, late] of attempts) {
            const at = late ? id : Math.floor(id / 2);
            all.push(
              record(id--, new Date(Date.UTC(2026, 0, 1) + at * 1000).toISOString(), `${marker} Top-up`, {
                amountCents: 500,
                ...fields,
              } as Partial<PointsLogRecord>),
            );
          }
          for (let n = 0; n < others; n++)
            all.push(record(id--, new Date(Date.UTC(2026, 0, 1) + (id + 1) * 1000).toISOString()));
          all.sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || b.id - a.id);
          const read = (page: number) => pages(...chunks(all, 100))(page);
          expect(await readRechargeEvidence(read, marker, 500)).toEqual({
            kind: 'absent',
            failedAttempts: attempts.length,
          });
        },
      ),
      { numRuns: 60 },
    );
  });

  it('an unmarked success credit of the same amount anywhere in the logs, at any time, makes it unclear, never absent', async () => {
    const marker = await orderMarker('o');
    await fc.assert(
      fc.asyncProperty(
        fc.nat(250),
        fc.nat(250),
        fc.integer({ min: 0, max: 4_000_000_000_000 }),
        fc.constantFrom('bonus', '', 'hub', `${marker.slice(0, 20)} Top-up`, 'Top-up hub0123'),
        async (before, after, start, reason) => {
          // Newest first: `after` later records, the unmarked credit, `before` earlier ones.
          const all: PointsLogRecord[] = [];
          const total = before + after + 1;
          for (let id = total; id >= 1; id--) {
            const at = new Date(start + id * 1000).toISOString();
            all.push(
              id === before + 1 ? record(id, at, reason, { changeCents: 500, amountCents: 500 }) : record(id, at),
            );
          }
          const found = await readRechargeEvidence((page) => pages(...chunks(all, 100))(page), marker, 500);
          expect(found.kind).toBe('unclear');
        },
      ),
      { numRuns: 60 },
    );
  });
});

function chunks<T>(list: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let at = 0; at < list.length; at += size) out.push(list.slice(at, at + size));
  return out;
}

describe('recharge: what proves failure, and how long to wait', () => {
  it('a 303 after the credit proves nothing: resolved from the logs, 1 credit, not sent again', async () => {
    const hub = service('spec');
    const redirected: typeof fetch = async (input, init) => {
      const response = await hub.fetch(input, init);
      const url = String(input instanceof Request ? input.url : input);
      return url.endsWith(RECHARGE) ? new Response(null, { status: 303, headers: { location: '/done' } }) : response;
    };
    const result = await clientOf(hub, redirected).recharge({
      clientUserId: 'u1',
      amountCents: 500,
      externalOrderId: 'o-303',
    });
    expect(result.amountCents).toBe(500);
    expect(creditsOf(hub, 'o-303')).toBe(1);
    expect(hub.requestLog.filter((entry) => entry.path === RECHARGE)).toHaveLength(1);
  });

  it('a 4xx without the service\u2019s envelope (a gateway\u2019s page) proves nothing: the logs are read', async () => {
    const hub = service('spec');
    const gateway: typeof fetch = async (input, init) => {
      const response = await hub.fetch(input, init);
      const url = String(input instanceof Request ? input.url : input);
      return url.endsWith(RECHARGE) ? new Response('<h1>404 Not Found</h1>', { status: 404 }) : response;
    };
    const result = await clientOf(hub, gateway).recharge({
      clientUserId: 'u1',
      amountCents: 500,
      externalOrderId: 'o-gw',
    });
    expect(result.amountCents).toBe(500);
    expect(hub.requestLog.filter((entry) => entry.path === LOGS).length).toBeGreaterThan(0);
  });

  it('an order id with a lone surrogate is a clear config error, never a bare URIError; nothing is sent or read', async () => {
    const hub = service('spec');
    const { fetch, recharges } = counted(hub);
    const client = clientOf(hub, fetch);
    for (const call of [
      client.recharge({ clientUserId: 'u1', amountCents: 5, externalOrderId: 'o-\uD800' }),
      client.findRecharge({ clientUserId: 'u1', amountCents: 5, externalOrderId: '\uDC00o' }),
      client.resolveRecharge({ clientUserId: 'u1', amountCents: 5, externalOrderId: 'o\uDBFF', sentAt: 0 }),
    ]) {
      const error = await rejectionOf(call);
      expect(isHubError(error, 'config')).toBe(true);
      expect((error as Error).message).toContain('lone surrogate');
    }
    expect(recharges()).toBe(0);
    expect(hub.requestLog.filter((entry) => entry.path === LOGS)).toHaveLength(0);
  });

  it('after a timeout, a credit the log shows only after the read is pending, sent once; applied once the log caught up', async () => {
    // Applied 150 ms in (after the 100 ms timeout), shown 1 s later: 1150 ms. Read at about 200 ms.
    const hub = service({ applyDelayMs: 150, logLagMs: 1000 });
    const { fetch, recharges } = counted(hub);
    const client = clientOf(hub, fetch, { timeoutMs: 100, recharge: { settleMs: 100 } });
    const input = { clientUserId: 'u1', amountCents: 500, externalOrderId: 'o-lag' };
    const error = await rejectionOf(client.recharge(input));
    expect(error).toBeInstanceOf(HubRechargePendingError);
    await new Promise((resolve) => setTimeout(resolve, 1300));
    expect([recharges(), creditsOf(hub, 'o-lag')]).toEqual([1, 1]);
    const sentAt = (error as HubRechargePendingError).sentAt;
    expect(await client.resolveRecharge({ ...input, sentAt })).toMatchObject({ outcome: 'applied' });
  });

  it('after a gateway\u2019s 504, a recharge applied late within settleMs is found: 1 credit', async () => {
    // The gateway gives up at 50 ms; the service applies at 300 ms; the logs are read at about 1050 ms.
    const hub = service({ applyDelayMs: 300, gatewayTimeoutMs: 50 });
    const { fetch, recharges } = counted(hub);
    const result = await clientOf(hub, fetch, { timeoutMs: 1000, recharge: { settleMs: 1000 } }).recharge({
      clientUserId: 'u1',
      amountCents: 500,
      externalOrderId: 'o-504',
    });
    expect(result.amountCents).toBe(500);
    expect(hub.requestLog.filter((entry) => entry.path === RECHARGE).map((entry) => entry.status)).toContain(504);
    expect([recharges(), creditsOf(hub, 'o-504')]).toEqual([1, 1]);
  });

  it('after a gateway\u2019s 504, a recharge applied after settleMs is pending, sent once: the late apply is the one credit', async () => {
    const hub = service({ applyDelayMs: 800, gatewayTimeoutMs: 50 });
    const { fetch, recharges } = counted(hub);
    const client = clientOf(hub, fetch, { recharge: { settleMs: 0 } });
    const input = { clientUserId: 'u1', amountCents: 500, externalOrderId: 'o-504-late' };
    const error = await rejectionOf(client.recharge(input));
    expect(error).toBeInstanceOf(HubRechargePendingError);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect([recharges(), creditsOf(hub, 'o-504-late')]).toEqual([1, 1]);
    const sentAt = (error as HubRechargePendingError).sentAt;
    expect(await client.resolveRecharge({ ...input, sentAt })).toMatchObject({ outcome: 'applied' });
  });
});

describe('findRecharge: the same rules as recharge(), under every built-in profile', () => {
  type Answer = 'found' | 'null' | 'pending';
  // What findRecharge must answer under each profile for [an order applied with 120 records on either side
  // of it, so past the first page in either order, an order never sent, a user the service never met]. Found only when a record keeps the whole marker; null
  // only when every page was read (and the only 404 taken as "never met" is the service's own); pending
  // otherwise, never null: null with the window passed lets an order be sent again. Every built-in profile
  // is listed, so a new one needs its answers here.
  const expected: Record<ProfileName, [Answer, Answer, Answer]> = {
    spec: ['found', 'null', 'null'],
    'bytes-64': ['found', 'null', 'null'],
    'characters-64': ['found', 'null', 'null'],
    // The marker is cut: the order's own record could be any order of that amount.
    'characters-32-trimmed': ['pending', 'pending', 'null'],
    utf8mb3: ['found', 'null', 'null'],
    'html-escaped': ['found', 'null', 'null'],
    'backslash-escaped': ['found', 'null', 'null'],
    'oldest-first': ['found', 'null', 'null'],
    'total-missing': ['found', 'null', 'null'],
    'total-per-page': ['found', 'null', 'null'],
    'total-elsewhere': ['found', 'null', 'null'],
    'page-size-50': ['found', 'null', 'null'],
    'gateway-404': ['pending', 'pending', 'pending'],
    'gateway-404-page-2': ['pending', 'pending', 'null'],
    'gateway-502': ['pending', 'pending', 'pending'],
    'log-lag': ['found', 'null', 'null'],
    'late-apply': ['found', 'null', 'null'],
    // Clocks are not trusted: a service's clock off changes no answer.
    'clock-10-minutes-ahead': ['found', 'null', 'null'],
    'beijing-time-labelled-utc': ['found', 'null', 'null'],
    // The repeated POST meets the service's 409 for a used order id: one credit, found.
    'proxy-repeats-post': ['found', 'null', 'null'],
    // What the form site and icons send for isolated pages touches no money.
    'embeddable-require-corp': ['found', 'null', 'null'],
    'embeddable-credentialless': ['found', 'null', 'null'],
  };

  it('every built-in profile has its expected answers', () => {
    expect(Object.keys(expected).sort()).toEqual(Object.keys(PROFILES).sort());
  });

  const answerOf = (call: Promise<PointsLogRecord | null>): Promise<unknown> =>
    call.then(
      (record) => (record === null ? 'null' : record.amountCents === 500 ? 'found' : record),
      (error: unknown) => (error instanceof HubRechargePendingError ? 'pending' : error),
    );

  for (const name of Object.keys(expected) as ProfileName[]) {
    it(`${name}: applied, never sent and never-met user answer ${expected[name].join(', ')}`, async () => {
      const hub = createSimulator({ profile: name, logLimit: 10_000 });
      history(hub, 'u1', 120);
      // Sent as recharge() sends it (the marker, then a non-ASCII remark with a quote), straight to the
      // service: under late-apply its gateway answers 504 and the apply lands later.
      const orderId = "o'find-1";
      const reason = reasonWithMarker(await orderMarker(orderId), "充值 🎉 Top-up for O'Brien");
      await hub.fetch(`${hub.apiUrl}/points/users/recharge`, {
        method: 'POST',
        headers: { 'x-api-key': hub.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ client_user_id: 'u1', amount_cents: 500, external_order_id: orderId, reason }),
      });
      while (creditsOf(hub, orderId) === 0) await new Promise((resolve) => setTimeout(resolve, 50));
      history(hub, 'u1', 120);
      // findRecharge is for later (after a crash): the service has logged what it applied.
      const profile: ServiceProfile = PROFILES[name];
      const lag = profile.logLagMs ?? 0;
      await new Promise((resolve) => setTimeout(resolve, lag + 50));
      const client = clientOf(hub, hub.fetch);
      const answers = [
        await answerOf(client.findRecharge({ clientUserId: 'u1', externalOrderId: orderId, amountCents: 500 })),
        await answerOf(client.findRecharge({ clientUserId: 'u1', externalOrderId: 'o-never-sent', amountCents: 500 })),
        await answerOf(client.findRecharge({ clientUserId: 'never-met', externalOrderId: 'o-x', amountCents: 500 })),
      ];
      expect(answers).toEqual(expected[name]);
    });
  }
});
