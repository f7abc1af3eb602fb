/**
 * A recharge is sent once, and never again without proof (issue 47, item 2; issue 79, item 1). Its answer
 * proves the outcome only when it is a success or the service's own refusal; anything else is resolved
 * from the logs once, and what the logs do not show is pending (HubRechargePendingError), never guessed
 * and never sent again. Every test runs the real simulator; the faults are the simulator's own
 * (rechargeFaults, profiles) or a fetch in front of it that loses or rewrites what a network or another
 * service would.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createSimulator, type Simulator } from '../../packages/hub-embed-mock/src/hub.js';
import type { RechargeFault, ServiceProfile } from '../../packages/hub-embed-mock/src/types.js';
import { createServerClient, type ServerClientOptions } from '../../src/server/server-client.js';
import { orderMarker } from '../../src/server/order-marker.js';
import { HubRechargePendingError, HubRechargeUnknownError } from '../../src/server/recharge-pending.js';
import { DEFAULT_SETTLE_WINDOW_MS } from '../../src/server/recharge-decision.js';
import { isHubError } from '../../src/core/errors.js';
import { rejectionOf } from '../rejection.js';

const RECHARGE = '/api/v1/hub/points/users/recharge';
const LOGS = '/api/v1/hub/points/users/logs';
const WINDOW = DEFAULT_SETTLE_WINDOW_MS;

const urlOf = (input: RequestInfo | URL): string => String(input instanceof Request ? input.url : input);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Recharges and logs reads that left the client, counted at the fetch in front of everything else. */
function counted(fetchImpl: typeof fetch): { fetch: typeof fetch; sends: () => number; logReads: () => number } {
  let sends = 0;
  let logReads = 0;
  return {
    fetch: (input, init) => {
      const url = new URL(urlOf(input));
      if (url.pathname === RECHARGE) sends++;
      if (url.pathname === LOGS) logReads++;
      return fetchImpl(input, init);
    },
    sends: () => sends,
    logReads: () => logReads,
  };
}

/** How many recharge records the user's logs hold (whatever their remark). */
function credited(hub: Simulator, user: string): number {
  return hub.userLogs(user, 1, 100).list.filter((record) => record.record_type === 'recharge').length;
}

/** How many times the service credited this order: its transfer records keep the order id whatever the remark became. */
function creditsOf(hub: Simulator, orderId: string): number {
  return hub.transfers(1, 100).list.filter((transfer) => transfer.external_order_id === orderId).length;
}

/** A client of the simulator through `fetchImpl`, with the recharges and log reads it makes counted. */
function clientOf(hub: Simulator, options: Partial<ServerClientOptions> = {}, fetchImpl: typeof fetch = hub.fetch) {
  const count = counted(fetchImpl);
  const client = createServerClient({
    apiKey: hub.apiKey,
    baseUrl: hub.baseUrl,
    fetch: count.fetch,
    recharge: { settleMs: 0 },
    ...options,
  });
  return { ...client, sends: count.sends, logReads: count.logReads };
}

/** A simulator whose recharges meet these faults, one a recharge, then none. */
function faulty(...faults: RechargeFault[]): Simulator {
  return createSimulator({ rechargeFaults: { pick: () => faults.shift() } });
}

/** A simulator with this profile whose recharges meet these faults, one a recharge, then none. */
function service(profile: ServiceProfile, ...faults: RechargeFault[]): Simulator {
  return createSimulator({ profile, rechargeFaults: { pick: () => faults.shift() } });
}

/** A fetch in front of the simulator that answers each recharge the service applied with `answer` instead. */
function answeredWith(hub: Simulator, answer: () => Response): typeof fetch {
  return async (input, init) => {
    const response = await hub.fetch(input, init);
    return urlOf(input).endsWith(RECHARGE) && response.status === 200 ? answer() : response;
  };
}

/** A fetch in front of the simulator that answers every recharge with `answer`; the service never sees it. */
function refusedBefore(hub: Simulator, answer: () => Response): typeof fetch {
  return async (input, init) => (urlOf(input).endsWith(RECHARGE) ? answer() : hub.fetch(input, init));
}

/** A fetch in front of the simulator that loses a request before the service sees it when `lose` says so. */
function lossy(hub: Simulator, lose: (url: string) => boolean): typeof fetch {
  return async (input, init) => {
    if (lose(urlOf(input))) throw new TypeError('fetch failed');
    return hub.fetch(input, init);
  };
}

type WireRecord = Record<string, unknown> & { reason: string; created_at: string };

/** A fetch in front of the simulator that rewrites every record of every logs answer: another service's logs. */
function rewritingLogs(hub: Simulator, rewrite: (record: WireRecord) => WireRecord, base: typeof fetch = hub.fetch) {
  return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const response = await base(input, init);
    if (!urlOf(input).includes('/points/users/logs') || response.status !== 200) return response;
    const body = (await response.json()) as { data: { list: WireRecord[] } };
    body.data.list = body.data.list.map(rewrite);
    return Response.json(body, { status: response.status });
  };
}

const envelope =
  (code: number, status = code) =>
  () =>
    Response.json({ code, message: `answered ${code}`, data: null }, { status });

async function pendingOf(call: Promise<unknown>): Promise<HubRechargePendingError> {
  const error = await rejectionOf(call);
  expect(error).toBeInstanceOf(HubRechargePendingError);
  return error as HubRechargePendingError;
}

describe('recharge: a success or a lost answer found in the logs, sent once', () => {
  it('sends the order marker first in reason, and the simulator copies the reason into the log record', async () => {
    const hub = createSimulator();
    await clientOf(hub).recharge({ clientUserId: 'u1', amountCents: 100, externalOrderId: 'o-1', reason: 'Top-up' });
    const [record] = hub.userLogs('u1', 1, 1).list;
    expect(record?.reason).toBe(`${await orderMarker('o-1')} Top-up`);
  });

  it('an answered success is the outcome: the logs are not read', async () => {
    const hub = createSimulator();
    const client = clientOf(hub);
    const result = await client.recharge({ clientUserId: 'u1', amountCents: 100, externalOrderId: 'o-ok' });
    expect(result.developerBalanceCents).not.toBeNaN();
    expect([client.sends(), client.logReads(), creditsOf(hub, 'o-ok')]).toEqual([1, 0, 1]);
  });

  it('an applied recharge whose answer is dropped is answered from its log record (pool not known: NaN), sent once', async () => {
    const hub = createSimulator({ rechargeFaults: { dropRate: 1 } });
    const client = clientOf(hub);
    const result = await client.recharge({ clientUserId: 'u1', amountCents: 250, externalOrderId: 'o-2' });
    expect(result).toMatchObject({
      clientUserId: 'u1',
      amountCents: 250,
      externalOrderId: 'o-2',
      userBalanceCents: 250,
    });
    expect(result.developerBalanceCents).toBeNaN();
    expect([client.sends(), credited(hub, 'u1')]).toEqual([1, 1]);
  });

  it('an applied recharge answered after the timeout is answered from the logs, sent once', async () => {
    const hub = createSimulator({ rechargeFaults: { delayRate: 1, delayMs: 300 } });
    const client = clientOf(hub, { timeoutMs: 50 });
    const result = await client.recharge({ clientUserId: 'u1', amountCents: 70 });
    expect(result.userBalanceCents).toBe(70);
    expect([client.sends(), credited(hub, 'u1')]).toEqual([1, 1]);
  });

  it('a recharge lost before the service saw it is pending, never sent again: 1 send, 0 credits', async () => {
    const hub = createSimulator();
    const client = clientOf(
      hub,
      {},
      lossy(hub, (url) => url.endsWith(RECHARGE)),
    );
    const before = Date.now();
    const error = await pendingOf(client.recharge({ clientUserId: 'u1', amountCents: 90, externalOrderId: 'o-3' }));
    expect(error.outcome).toBe('pending');
    expect(error.orderId).toBe('o-3');
    expect(error.sentAt).toBeGreaterThanOrEqual(before);
    expect(error.sentAt).toBeLessThanOrEqual(Date.now());
    expect(error.seen).toContain('no credit for it yet');
    expect([client.sends(), client.logReads(), creditsOf(hub, 'o-3')]).toEqual([1, 1, 0]);
  });

  it('HubRechargeUnknownError is the same class as HubRechargePendingError', async () => {
    expect(HubRechargeUnknownError).toBe(HubRechargePendingError);
    const hub = faulty({ kind: 'drop-before' });
    const error = await rejectionOf(clientOf(hub).recharge({ clientUserId: 'u1', amountCents: 5 }));
    expect(error).toBeInstanceOf(HubRechargeUnknownError);
    expect(isHubError(error)).toBe(true);
  });

  it('when the logs hold an unmarked recharge of that amount (reason not copied), it is pending: sent once', async () => {
    const hub = createSimulator({ rechargeFaults: { dropRate: 1 } });
    // A deployment that does not copy the remark: the recharge arrives without its reason.
    const fetchImpl: typeof fetch = (input, init) => {
      if (!urlOf(input).endsWith(RECHARGE)) return hub.fetch(input, init);
      const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
      delete body.reason;
      return hub.fetch(input, { ...init, body: JSON.stringify(body) });
    };
    const client = clientOf(hub, {}, fetchImpl);
    const error = await pendingOf(client.recharge({ clientUserId: 'u1', amountCents: 60, externalOrderId: 'o-5' }));
    expect(error.message).toContain('without an order marker');
    expect([client.sends(), creditsOf(hub, 'o-5')]).toEqual([1, 1]);
  });

  it('when the logs cannot be read, it is pending: sent once', async () => {
    const hub = createSimulator({ rechargeFaults: { dropRate: 1 } });
    const client = clientOf(
      hub,
      {},
      lossy(hub, (url) => url.includes('/points/users/logs')),
    );
    await pendingOf(client.recharge({ clientUserId: 'u1', amountCents: 60 }));
    expect([client.sends(), credited(hub, 'u1')]).toEqual([1, 1]);
  });

  it('findRecharge finds an applied order, null for one never sent, pending when the logs cannot tell', async () => {
    const hub = createSimulator();
    const client = clientOf(hub);
    await client.recharge({ clientUserId: 'u1', amountCents: 30, externalOrderId: 'o-6' });
    expect(await client.findRecharge({ clientUserId: 'u1', externalOrderId: 'o-6', amountCents: 30 })).toMatchObject({
      recordType: 'recharge',
      amountCents: 30,
    });
    expect(await client.findRecharge({ clientUserId: 'u1', externalOrderId: 'o-7', amountCents: 30 })).toBeNull();
    expect(await client.findRecharge({ clientUserId: 'nobody', externalOrderId: 'o-7', amountCents: 30 })).toBeNull();
    // A user whose only recharge of that amount carries no marker (a console transfer): it could be the order.
    const fresh = createSimulator();
    fresh.transfer({ clientUserId: 'u2', amountCents: 45 });
    await pendingOf(clientOf(fresh).findRecharge({ clientUserId: 'u2', externalOrderId: 'o-8', amountCents: 45 }));
  });
});

describe('recharge: only the service\u2019s own refusal proves nothing was applied', () => {
  for (const status of [400, 401, 402, 403, 422]) {
    it(`a ${status} in the service\u2019s envelope is a refusal: thrown as it came, the logs not read, sent once`, async () => {
      const hub = createSimulator();
      const client = clientOf(hub, {}, refusedBefore(hub, envelope(status)));
      const error = await rejectionOf(client.recharge({ clientUserId: 'u1', amountCents: 5, externalOrderId: 'o-r' }));
      expect(error).not.toBeInstanceOf(HubRechargePendingError);
      expect(isHubError(error)).toBe(true);
      expect((error as { status?: number }).status).toBe(status);
      expect([client.sends(), client.logReads()]).toEqual([1, 0]);
    });
  }

  it('the simulator\u2019s own 402 (the pool cannot cover it) is thrown, the logs not read, sent once', async () => {
    const hub = createSimulator();
    const client = clientOf(hub);
    const error = await rejectionOf(client.recharge({ clientUserId: 'u1', amountCents: 10_000_000_000 }));
    expect((error as { status?: number }).status).toBe(402);
    expect([client.sends(), client.logReads()]).toEqual([1, 0]);
  });

  const unproven: [string, () => Response][] = [
    ['a 408 in the envelope', envelope(408)],
    ['a 429 in the envelope', envelope(429)],
    ['a 400 status whose envelope code is 500', envelope(500, 400)],
    ['an HTTP 200 whose envelope code is 408', envelope(408, 200)],
    ['a 402 page that is not the envelope', () => new Response('<h1>402</h1>', { status: 402 })],
  ];
  for (const [what, answer] of unproven) {
    it(`${what} proves nothing: applied, it is answered from the logs; not applied, it is pending; sent once`, async () => {
      const applied = createSimulator();
      const found = clientOf(applied, {}, answeredWith(applied, answer));
      const result = await found.recharge({ clientUserId: 'u1', amountCents: 500, externalOrderId: 'o-a' });
      expect(result.amountCents).toBe(500);
      expect(result.developerBalanceCents).toBeNaN();
      expect([found.sends(), creditsOf(applied, 'o-a')]).toEqual([1, 1]);
      const lost = createSimulator();
      const pending = clientOf(lost, {}, refusedBefore(lost, answer));
      await pendingOf(pending.recharge({ clientUserId: 'u1', amountCents: 500, externalOrderId: 'o-b' }));
      expect(pending.sends()).toBe(1);
      expect(pending.logReads()).toBeGreaterThan(0);
      expect(creditsOf(lost, 'o-b')).toBe(0);
    });
  }

  it('a 409 on the first attempt proves nothing (the order may exist): pending, sent once, the logs read', async () => {
    const hub = faulty({ kind: 'conflict' });
    const client = clientOf(hub);
    await pendingOf(client.recharge({ clientUserId: 'u1', amountCents: 10, externalOrderId: 'o-reused' }));
    expect(client.sends()).toBe(1);
    expect(client.logReads()).toBeGreaterThan(0);
    expect(creditsOf(hub, 'o-reused')).toBe(0);
  });

  it('a 409 for an order the service applied before is answered from its log record: still 1 credit', async () => {
    const hub = createSimulator();
    const client = clientOf(hub);
    await client.recharge({ clientUserId: 'u1', amountCents: 40, externalOrderId: 'o-4' });
    const again = await client.recharge({ clientUserId: 'u1', amountCents: 40, externalOrderId: 'o-4' });
    expect(again).toMatchObject({ amountCents: 40, userBalanceCents: 40, externalOrderId: 'o-4' });
    expect(hub.requestLog.filter((entry) => entry.path === RECHARGE).map((entry) => entry.status)).toEqual([200, 409]);
    expect(creditsOf(hub, 'o-4')).toBe(1);
  });
});

describe('recharge: an answer that proves nothing is resolved from the logs once, or pending', () => {
  for (const status of [500, 502, 504]) {
    it(`a ${status} after the service applied the recharge is answered from the logs, credited once`, async () => {
      const hub = faulty({ kind: 'error-after', status });
      const client = clientOf(hub, { timeoutMs: 50 });
      const result = await client.recharge({ clientUserId: 'u1', amountCents: 500, externalOrderId: 'o-5xx' });
      expect(result).toMatchObject({ amountCents: 500, userBalanceCents: 500, externalOrderId: 'o-5xx' });
      expect([client.sends(), creditsOf(hub, 'o-5xx')]).toEqual([1, 1]);
    });
  }

  it('a 502 before the service applied the recharge is pending, never sent again: 1 send, 0 credits', async () => {
    const hub = faulty({ kind: 'error-before', status: 502 });
    const client = clientOf(hub);
    const error = await pendingOf(client.recharge({ clientUserId: 'u1', amountCents: 500, externalOrderId: 'o-502' }));
    expect(error.cause).toMatchObject({ status: 502 });
    expect(hub.requestLog.filter((entry) => entry.path === RECHARGE).map((entry) => entry.status)).toEqual([502]);
    expect(creditsOf(hub, 'o-502')).toBe(0);
  });

  it('an HTTP 200 whose envelope code is 500 or more is answered from the logs, credited once', async () => {
    const hub = createSimulator();
    const client = clientOf(hub, {}, answeredWith(hub, envelope(500, 200)));
    const result = await client.recharge({ clientUserId: 'u1', amountCents: 500 });
    expect(result.userBalanceCents).toBe(500);
    expect([client.sends(), credited(hub, 'u1')]).toEqual([1, 1]);
  });

  it('a body that is not the envelope (a proxy page) is answered from the logs, credited once', async () => {
    const hub = createSimulator();
    const page = () => new Response('<html>upstream hiccup</html>', { headers: { 'content-type': 'text/html' } });
    const client = clientOf(hub, {}, answeredWith(hub, page));
    const result = await client.recharge({ clientUserId: 'u1', amountCents: 500 });
    expect(result.userBalanceCents).toBe(500);
    expect([client.sends(), credited(hub, 'u1')]).toEqual([1, 1]);
  });

  // The log shows the credit 1 s after it is written; the logs are read at once (settleMs 0).
  const lagging: [string, () => { hub: Simulator; fetch?: typeof fetch }][] = [
    ['a 500', () => ({ hub: service({ logLagMs: 1000 }, { kind: 'error-after', status: 500 }) })],
    ['a reset connection', () => ({ hub: service({ logLagMs: 1000 }, { kind: 'drop' }) })],
    [
      'an HTTP 200 whose envelope code is 500',
      () => {
        const hub = service({ logLagMs: 1000 });
        return { hub, fetch: answeredWith(hub, envelope(500, 200)) };
      },
    ],
  ];
  for (const [what, make] of lagging) {
    it(`${what} after an apply whose log lags beyond settleMs is pending, sent once; resolved applied once the log caught up`, async () => {
      const { hub, fetch } = make();
      const client = clientOf(hub, {}, fetch ?? hub.fetch);
      const input = { clientUserId: 'u1', amountCents: 500, externalOrderId: 'o-lag' };
      const error = await pendingOf(client.recharge(input));
      expect(client.sends()).toBe(1);
      // Applied all along: a second send would have been a second credit.
      expect(creditsOf(hub, 'o-lag')).toBe(1);
      await sleep(1200);
      const resolved = await client.resolveRecharge({ ...input, sentAt: error.sentAt });
      expect(resolved).toMatchObject({ outcome: 'applied', record: { amountCents: 500 } });
      expect([client.sends(), creditsOf(hub, 'o-lag')]).toEqual([1, 1]);
    });
  }

  it('a remark cut inside the order marker by the service makes a lost answer pending, never not-applied: sent once', async () => {
    // A varchar(20): part of the marker survives, the rest and the remark do not.
    const hub = createSimulator({
      profile: { reasonLimit: { length: 20, unit: 'characters' } },
      rechargeFaults: { pick: () => ({ kind: 'drop' }) },
    });
    const orderId = 'order-2026-11-26-0000000000000000000042';
    const client = clientOf(hub);
    const input = { clientUserId: 'u1', amountCents: 500, externalOrderId: orderId };
    const error = await pendingOf(client.recharge({ ...input, reason: 'Top-up' }));
    expect(error.message).toContain('cut');
    expect([client.sends(), credited(hub, 'u1')]).toEqual([1, 1]);
    const later = await client.resolveRecharge({ ...input, sentAt: error.sentAt, now: error.sentAt + WINDOW });
    expect(later).toMatchObject({ outcome: 'pending', retryAfterMs: undefined });
  });

  it('a log record holding the marker prefix but not the whole marker is pending, never null', async () => {
    const hub = createSimulator();
    const client = clientOf(hub);
    // Another order of another amount, whole: the service copies reasons (up to some length).
    await client.recharge({ clientUserId: 'u1', amountCents: 100, externalOrderId: 'o-1' });
    const marker = await orderMarker('o-123456789');
    for (const cut of [marker.slice(0, 5), marker.slice(0, 20), `${marker.slice(0, 16)}\u2026`, `${marker}0`]) {
      hub.transfer({ clientUserId: 'u1', amountCents: 300, reason: `${cut} Top-up` });
      const error = await rejectionOf(
        client.findRecharge({ clientUserId: 'u1', externalOrderId: 'o-123456789', amountCents: 300 }),
      );
      expect(error, cut).toBeInstanceOf(HubRechargePendingError);
    }
  });

  it('an unmarked credit of the same amount anywhere in the logs (a day or a year ago) makes a lost send pending, at any time', async () => {
    for (const ago of [60_000, 24 * 3600_000, 365 * 24 * 3600_000]) {
      const hub = faulty({ kind: 'drop-before' });
      hub.clock.set(Date.now() - ago);
      hub.transfer({ clientUserId: 'u1', amountCents: 300, reason: 'bonus' });
      hub.clock.resume();
      const client = clientOf(hub);
      const input = { clientUserId: 'u1', amountCents: 300, externalOrderId: 'o-2' };
      const error = await pendingOf(client.recharge(input));
      expect(error.message, `${ago}`).toContain('without an order marker');
      expect([client.sends(), creditsOf(hub, 'o-2')]).toEqual([1, 0]);
      // Never not-applied, however long after: a person decides.
      const later = await client.resolveRecharge({ ...input, sentAt: error.sentAt, now: error.sentAt + 10 * WINDOW });
      expect(later).toMatchObject({ outcome: 'pending', retryAfterMs: undefined });
      await pendingOf(client.findRecharge(input));
      // Another amount is not this order.
      expect(await client.findRecharge({ ...input, amountCents: 301 })).toBeNull();
    }
  });
});

describe('recharge: a credit is a success record with a positive change, never a failed attempt', () => {
  // A service that logs a failed attempt with the order's remark: the record carries the marker and
  // credits nothing. Rewritten at the fetch in front of the simulator, every record that starts with
  // this order's marker is that attempt.
  const attempts: [string, (record: WireRecord) => WireRecord][] = [
    ['status failed', (record) => ({ ...record, status: 'failed' })],
    ['status pending', (record) => ({ ...record, status: 'pending' })],
    ['status success with change 0', (record) => ({ ...record, change_cents: 0 })],
    [
      'record_type failed, change 0',
      (record) => ({ ...record, record_type: 'failed', status: 'failed', change_cents: 0 }),
    ],
    ['a deduct of the amount', (record) => ({ ...record, record_type: 'deduct', change_cents: -500 })],
  ];
  for (const [what, rewrite] of attempts) {
    it(`a marked record with ${what} is not a credit: recharge() pending, findRecharge null, resolveRecharge not-applied after the window`, async () => {
      const hub = faulty({ kind: 'drop' });
      const marker = await orderMarker('o-failed');
      const fetchImpl = rewritingLogs(hub, (record) => (record.reason.startsWith(marker) ? rewrite(record) : record));
      const client = clientOf(hub, {}, fetchImpl);
      const input = { clientUserId: 'u1', amountCents: 500, externalOrderId: 'o-failed' };
      const error = await pendingOf(client.recharge(input));
      expect(error.seen).toContain('1 failed attempt');
      expect(client.sends()).toBe(1);
      expect(await client.findRecharge(input)).toBeNull();
      expect(await client.resolveRecharge({ ...input, sentAt: error.sentAt, now: error.sentAt + WINDOW })).toEqual({
        outcome: 'not-applied',
      });
      expect(client.sends()).toBe(1);
    });
  }

  it('the same record as the service logs it (status success, change of the amount) is the credit', async () => {
    const hub = faulty({ kind: 'drop' });
    const client = clientOf(
      hub,
      {},
      rewritingLogs(hub, (record) => record),
    );
    const result = await client.recharge({ clientUserId: 'u1', amountCents: 500, externalOrderId: 'o-failed' });
    expect(result.amountCents).toBe(500);
  });
});

describe('resolveRecharge: not-applied only after the settle window since the last send, by the caller\u2019s clock', () => {
  it('absent before the window: pending with the time left; absent after it: not-applied; never sent: not-applied', async () => {
    const hub = createSimulator();
    const client = clientOf(hub);
    const input = { clientUserId: 'u1', externalOrderId: 'o-never', amountCents: 500 };
    const sentAt = 1_800_000_000_000;
    expect(await client.resolveRecharge({ ...input, sentAt, now: sentAt + 60_000 })).toMatchObject({
      outcome: 'pending',
      retryAfterMs: WINDOW - 60_000,
    });
    expect(await client.resolveRecharge({ ...input, sentAt, now: sentAt + WINDOW - 1 })).toMatchObject({
      outcome: 'pending',
      retryAfterMs: 1,
    });
    expect(await client.resolveRecharge({ ...input, sentAt, now: sentAt + WINDOW })).toEqual({
      outcome: 'not-applied',
    });
    expect(await client.resolveRecharge({ ...input, sentAt: undefined })).toEqual({ outcome: 'not-applied' });
    // Without `now`: this process's clock. Sent a moment ago: pending.
    expect(await client.resolveRecharge({ ...input, sentAt: Date.now() })).toMatchObject({ outcome: 'pending' });
    expect(client.sends()).toBe(0);
  });

  it('the settle window is the client\u2019s recharge.settleWindowMs', async () => {
    const hub = createSimulator();
    const client = clientOf(hub, { recharge: { settleMs: 0, settleWindowMs: 1000 } });
    const input = { clientUserId: 'u1', externalOrderId: 'o-never', amountCents: 500, sentAt: 5_000_000 };
    expect(await client.resolveRecharge({ ...input, now: 5_000_999 })).toMatchObject({
      outcome: 'pending',
      retryAfterMs: 1,
    });
    expect(await client.resolveRecharge({ ...input, now: 5_001_000 })).toEqual({ outcome: 'not-applied' });
  });

  it('an applied order is applied at any time, even before the window', async () => {
    const hub = createSimulator();
    const client = clientOf(hub);
    const input = { clientUserId: 'u1', externalOrderId: 'o-done', amountCents: 500 };
    await client.recharge(input);
    for (const [sentAt, now] of [
      [undefined, undefined],
      [Date.now(), Date.now()],
      [0, WINDOW * 10],
    ] as const)
      expect(await client.resolveRecharge({ ...input, sentAt, ...(now === undefined ? {} : { now }) })).toMatchObject({
        outcome: 'applied',
        record: { amountCents: 500 },
      });
  });

  it('sentAt and now must be times: a config error, nothing read', async () => {
    const hub = createSimulator();
    const client = clientOf(hub);
    const input = { clientUserId: 'u1', externalOrderId: 'o', amountCents: 5 };
    for (const bad of [{ sentAt: Number.NaN }, { sentAt: -1 }, { sentAt: 1, now: Number.POSITIVE_INFINITY }])
      expect(isHubError(await rejectionOf(client.resolveRecharge({ ...input, ...bad })), 'config')).toBe(true);
    expect(client.logReads()).toBe(0);
  });

  it('a service clock hours off, or Beijing time labelled Z, changes nothing: same answers as the true clock', async () => {
    const hour = 3600_000;
    const shift = fc.oneof(
      fc.constant(8 * hour), // Beijing wall time written with a Z
      fc.integer({ min: -72, max: 72 }).map((hours) => hours * hour),
      fc.integer({ min: -3 * 24 * hour, max: 3 * 24 * hour }),
    );
    await fc.assert(
      fc.asyncProperty(shift, async (ms) => {
        const skewed = (hub: Simulator) =>
          rewritingLogs(hub, (record) => ({
            ...record,
            created_at: new Date(Date.parse(record.created_at) + ms).toISOString(),
          }));
        // Applied, answer dropped: found.
        const applied = faulty({ kind: 'drop' });
        const found = clientOf(applied, {}, skewed(applied));
        const input = { clientUserId: 'u1', amountCents: 500, externalOrderId: 'o-skew' };
        expect((await found.recharge(input)).amountCents).toBe(500);
        // Lost before the service, nothing else in the logs: pending until the window, by the caller's clock.
        const lost = faulty({ kind: 'drop-before' });
        const absent = clientOf(lost, {}, skewed(lost));
        const error = await pendingOf(absent.recharge(input));
        expect(
          await absent.resolveRecharge({ ...input, sentAt: error.sentAt, now: error.sentAt + 1000 }),
        ).toMatchObject({
          outcome: 'pending',
          retryAfterMs: WINDOW - 1000,
        });
        expect(await absent.resolveRecharge({ ...input, sentAt: error.sentAt, now: error.sentAt + WINDOW })).toEqual({
          outcome: 'not-applied',
        });
        // Lost before, with an unmarked credit of the amount whenever the service says it was: pending for good.
        const unclear = faulty({ kind: 'drop-before' });
        unclear.transfer({ clientUserId: 'u1', amountCents: 500, reason: 'bonus' });
        const client = clientOf(unclear, {}, skewed(unclear));
        const unknown = await pendingOf(client.recharge(input));
        expect(
          await client.resolveRecharge({ ...input, sentAt: unknown.sentAt, now: unknown.sentAt + 10 * WINDOW }),
        ).toMatchObject({ outcome: 'pending', retryAfterMs: undefined });
        expect([found.sends(), absent.sends(), client.sends()]).toEqual([1, 1, 1]);
      }),
      { numRuns: 25 },
    );
  });
});

describe('recharge: the rules its tests hold it to (each fails when its rule is broken)', () => {
  it('the order marker is hub and 32 hex digits of the order id\u2019s hash: order "a]b" is not order "a"', async () => {
    const hub = createSimulator();
    const client = clientOf(hub);
    await client.recharge({ clientUserId: 'u1', amountCents: 100, externalOrderId: 'a]b' });
    const marker = await orderMarker('a]b');
    expect(marker).toMatch(/^hub[0-9a-f]{32}$/);
    expect(marker).not.toBe(await orderMarker('a'));
    expect(hub.userLogs('u1', 1, 1).list[0]?.reason.startsWith(marker)).toBe(true);
    expect(await client.findRecharge({ clientUserId: 'u1', externalOrderId: 'a', amountCents: 100 })).toBeNull();
    expect(await client.findRecharge({ clientUserId: 'u1', externalOrderId: 'a]b', amountCents: 100 })).not.toBeNull();
  });

  it('the logs are read only after settleMs: a recharge applied late within it is found, sent once', async () => {
    const hub = faulty({ kind: 'late-apply', ms: 30 });
    const client = clientOf(hub, { recharge: { settleMs: 300 } });
    const result = await client.recharge({ clientUserId: 'u1', amountCents: 80 });
    expect(result.userBalanceCents).toBe(80);
    expect([client.sends(), credited(hub, 'u1')]).toEqual([1, 1]);
  });

  it('a recharge applied after settleMs is pending, never sent again: the late apply is the one credit', async () => {
    const hub = faulty({ kind: 'late-apply', ms: 500 });
    const client = clientOf(hub);
    const input = { clientUserId: 'u1', amountCents: 80, externalOrderId: 'o-late' };
    const error = await pendingOf(client.recharge(input));
    await sleep(700);
    expect([client.sends(), creditsOf(hub, 'o-late')]).toEqual([1, 1]);
    expect(await client.resolveRecharge({ ...input, sentAt: error.sentAt })).toMatchObject({ outcome: 'applied' });
  });

  it('recharge.retries is gone: a config error naming resolveRecharge, whatever its value', () => {
    const hub = createSimulator();
    for (const retries of [0, 1, 2, undefined]) {
      const make = () =>
        createServerClient({
          apiKey: hub.apiKey,
          baseUrl: hub.baseUrl,
          fetch: hub.fetch,
          recharge: { settleMs: 0, retries } as never,
        });
      expect(make, `retries ${retries}`).toThrow(/resolveRecharge/);
      try {
        make();
      } catch (error) {
        expect(isHubError(error, 'config')).toBe(true);
      }
    }
  });

  it('every unproven answer is sent once, whatever the fault: never a second send', async () => {
    const faults = fc.oneof(
      fc.constantFrom<RechargeFault>({ kind: 'drop-before' }, { kind: 'drop' }, { kind: 'conflict' }),
      fc.record({
        kind: fc.constantFrom('error-before' as const, 'error-after' as const),
        status: fc.constantFrom(500, 502, 503, 504),
      }),
      fc.record({ kind: fc.constant('late-apply' as const), ms: fc.integer({ min: 0, max: 20 }) }),
    );
    await fc.assert(
      fc.asyncProperty(faults, async (fault) => {
        const hub = faulty(fault);
        const client = clientOf(hub);
        const input = { clientUserId: 'u1', amountCents: 500, externalOrderId: 'o-any' };
        const outcome = await client.recharge(input).then(
          () => 'credited',
          (error: unknown) => (error instanceof HubRechargePendingError ? 'pending' : error),
        );
        await sleep(30);
        expect(client.sends()).toBe(1);
        // Credited is said only of a credit that happened.
        if (outcome === 'credited') expect(creditsOf(hub, 'o-any')).toBe(1);
        else expect(outcome).toBe('pending');
      }),
      { numRuns: 30 },
    );
  });
});
