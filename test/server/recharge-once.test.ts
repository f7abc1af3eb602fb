/**
 * Points credited exactly once (issue 47, item 2): a recharge whose answer is lost is resolved from the
 * logs, never guessed. Every test runs the real simulator; the faults are the simulator's own
 * (rechargeFaults) or a fetch in front of it that loses what a network would lose.
 */
import { describe, expect, it } from 'vitest';
import { createSimulator, type Simulator } from '../../packages/hub-embed-mock/src/hub.js';
import type { RechargeFault } from '../../packages/hub-embed-mock/src/types.js';
import { createServerClient, type ServerClientOptions } from '../../src/server/server-client.js';
import { HubRechargeUnknownError, orderMarker } from '../../src/server/recharge-orders.js';
import { isHubError } from '../../src/core/errors.js';
import { rejectionOf } from '../rejection.js';

const RECHARGE = '/api/v1/hub/points/users/recharge';

function rechargesSent(hub: Simulator): number {
  return hub.requestLog.filter((entry) => entry.path === RECHARGE).length;
}

function credited(hub: Simulator, user: string): number {
  return hub.userLogs(user, 1, 100).list.filter((record) => record.record_type === 'recharge').length;
}

function clientOf(hub: Simulator, options: Partial<ServerClientOptions> = {}, fetchImpl: typeof fetch = hub.fetch) {
  return createServerClient({
    apiKey: hub.apiKey,
    baseUrl: hub.baseUrl,
    fetch: fetchImpl,
    recharge: { settleMs: 0 },
    ...options,
  });
}

/** A fetch in front of the simulator: `before` may lose a request before the service sees it. */
function lossy(hub: Simulator, before: (url: string, body: string | undefined) => 'pass' | 'lose'): typeof fetch {
  return async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    if (before(url, init?.body as string | undefined) === 'lose') throw new TypeError('fetch failed');
    return hub.fetch(input, init);
  };
}

describe('recharge: points credited exactly once', () => {
  it('sends the order marker in reason, and the simulator copies the reason into the log record', async () => {
    const hub = createSimulator();
    await clientOf(hub).recharge({ clientUserId: 'u1', amountCents: 100, externalOrderId: 'o-1', reason: 'Top-up' });
    const [record] = hub.userLogs('u1', 1, 1).list;
    expect(record?.reason).toBe(`${await orderMarker('o-1')} Top-up`);
  });

  it('an applied recharge whose answer is dropped is answered from the logs, credited once, not sent again', async () => {
    const hub = createSimulator({ rechargeFaults: { dropRate: 1 } });
    const result = await clientOf(hub).recharge({ clientUserId: 'u1', amountCents: 250, externalOrderId: 'o-2' });
    expect(result).toMatchObject({
      clientUserId: 'u1',
      amountCents: 250,
      externalOrderId: 'o-2',
      userBalanceCents: 250,
    });
    expect(rechargesSent(hub)).toBe(1);
    expect(credited(hub, 'u1')).toBe(1);
  });

  it('an applied recharge answered after the timeout is answered from the logs and not sent again', async () => {
    const hub = createSimulator({ rechargeFaults: { delayRate: 1, delayMs: 300 } });
    const result = await clientOf(hub, { timeoutMs: 50 }).recharge({ clientUserId: 'u1', amountCents: 70 });
    expect(result.userBalanceCents).toBe(70);
    expect(rechargesSent(hub)).toBe(1);
    expect(credited(hub, 'u1')).toBe(1);
  });

  it('a recharge lost before the service applied it is sent again (the logs show it absent) and credited once', async () => {
    const hub = createSimulator();
    let lost = 0;
    const fetchImpl = lossy(hub, (url) => (url.endsWith(RECHARGE) && lost++ === 0 ? 'lose' : 'pass'));
    const result = await clientOf(hub, {}, fetchImpl).recharge({
      clientUserId: 'u1',
      amountCents: 90,
      externalOrderId: 'o-3',
    });
    expect(result.userBalanceCents).toBe(90);
    expect(rechargesSent(hub)).toBe(1);
    expect(credited(hub, 'u1')).toBe(1);
  });

  it('a retry refused as a repeated order (409) is resolved from the logs, not reported as an error', async () => {
    const hub = createSimulator();
    // A slow service: the first attempt's answer is lost and it lands only after the logs were read, so
    // the retry goes out and meets the simulator's 409 for a repeated external_order_id.
    let late: (() => Promise<Response>) | undefined;
    let attempts = 0;
    const fetchImpl: typeof fetch = async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (!url.endsWith(RECHARGE)) return hub.fetch(input, init);
      if (attempts++ === 0) {
        late = () => hub.fetch(input, init);
        throw new TypeError('fetch failed');
      }
      await late?.();
      return hub.fetch(input, init);
    };
    const result = await clientOf(hub, {}, fetchImpl).recharge({
      clientUserId: 'u1',
      amountCents: 40,
      externalOrderId: 'o-4',
    });
    expect(result.amountCents).toBe(40);
    expect(hub.requestLog.filter((entry) => entry.path === RECHARGE).map((entry) => entry.status)).toEqual([200, 409]);
    expect(credited(hub, 'u1')).toBe(1);
  });

  it('when the logs hold an unmarked recharge of that amount (reason not copied), it reports unknown and sends nothing more', async () => {
    const hub = createSimulator({ rechargeFaults: { dropRate: 1 } });
    // A deployment that does not copy the remark: the recharge arrives without its reason.
    const fetchImpl: typeof fetch = (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (!url.endsWith(RECHARGE)) return hub.fetch(input, init);
      const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
      delete body.reason;
      return hub.fetch(input, { ...init, body: JSON.stringify(body) });
    };
    const error = await rejectionOf(
      clientOf(hub, {}, fetchImpl).recharge({ clientUserId: 'u1', amountCents: 60, externalOrderId: 'o-5' }),
    );
    expect(error).toBeInstanceOf(HubRechargeUnknownError);
    expect((error as HubRechargeUnknownError).outcome).toBe('unknown');
    expect((error as Error).message).toContain('without an order marker');
    expect(rechargesSent(hub)).toBe(1);
  });

  it('when the logs cannot be read, it reports unknown and sends nothing more', async () => {
    const hub = createSimulator({ rechargeFaults: { dropRate: 1 } });
    const fetchImpl = lossy(hub, (url) => (url.includes('/points/users/logs') ? 'lose' : 'pass'));
    const error = await rejectionOf(clientOf(hub, {}, fetchImpl).recharge({ clientUserId: 'u1', amountCents: 60 }));
    expect(error).toBeInstanceOf(HubRechargeUnknownError);
    expect(rechargesSent(hub)).toBe(1);
    expect(credited(hub, 'u1')).toBe(1);
  });

  it('never retries a refusal that says nothing was applied (402 pool insufficient)', async () => {
    const hub = createSimulator();
    const error = await rejectionOf(clientOf(hub).recharge({ clientUserId: 'u1', amountCents: 10_000_000_000 }));
    expect(isHubError(error)).toBe(true);
    expect((error as { status?: number }).status).toBe(402);
    expect(rechargesSent(hub)).toBe(1);
  });

  it('findRecharge finds an applied order, null for one never sent, unknown when the logs cannot tell', async () => {
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
    const error = await rejectionOf(
      clientOf(fresh).findRecharge({ clientUserId: 'u2', externalOrderId: 'o-8', amountCents: 45 }),
    );
    expect(error).toBeInstanceOf(HubRechargeUnknownError);
  });
});

/** A simulator whose recharges meet these faults, one a recharge, then none. */
function faulty(...faults: RechargeFault[]): Simulator {
  return createSimulator({ rechargeFaults: { pick: () => faults.shift() } });
}

/** A fetch in front of the simulator that answers each recharge the service applied with `answer` instead. */
function answeredWith(hub: Simulator, answer: () => Response): typeof fetch {
  return async (input, init) => {
    const response = await hub.fetch(input, init);
    const url = String(input instanceof Request ? input.url : input);
    return url.endsWith(RECHARGE) && response.status === 200 ? answer() : response;
  };
}

describe('recharge: an answer that does not prove failure is outcome unknown, resolved from the logs', () => {
  for (const status of [500, 502, 504]) {
    it(`a ${status} after the service applied the recharge is answered from the logs, credited once`, async () => {
      const hub = faulty({ kind: 'error-after', status });
      const result = await clientOf(hub, { timeoutMs: 50 }).recharge({
        clientUserId: 'u1',
        amountCents: 500,
        externalOrderId: 'o-5xx',
      });
      expect(result).toMatchObject({ amountCents: 500, userBalanceCents: 500, externalOrderId: 'o-5xx' });
      expect(rechargesSent(hub)).toBe(1);
      expect(credited(hub, 'u1')).toBe(1);
    });
  }

  it('a 502 before the service applied the recharge is looked up, found absent, sent again and credited once', async () => {
    const hub = faulty({ kind: 'error-before', status: 502 });
    const result = await clientOf(hub).recharge({ clientUserId: 'u1', amountCents: 500, externalOrderId: 'o-502' });
    expect(result.userBalanceCents).toBe(500);
    expect(hub.requestLog.filter((entry) => entry.path === RECHARGE).map((entry) => entry.status)).toEqual([502, 200]);
    expect(credited(hub, 'u1')).toBe(1);
  });

  it('an HTTP 200 whose envelope code is 500 or more is answered from the logs, credited once', async () => {
    const hub = createSimulator();
    const envelope500 = () => Response.json({ code: 500, message: 'internal error', data: null });
    const result = await clientOf(hub, {}, answeredWith(hub, envelope500)).recharge({
      clientUserId: 'u1',
      amountCents: 500,
    });
    expect(result.userBalanceCents).toBe(500);
    expect(rechargesSent(hub)).toBe(1);
    expect(credited(hub, 'u1')).toBe(1);
  });

  it('a body that is not the envelope (a proxy page) is answered from the logs, credited once', async () => {
    const hub = createSimulator();
    const page = () => new Response('<html>upstream hiccup</html>', { headers: { 'content-type': 'text/html' } });
    const result = await clientOf(hub, {}, answeredWith(hub, page)).recharge({ clientUserId: 'u1', amountCents: 500 });
    expect(result.userBalanceCents).toBe(500);
    expect(rechargesSent(hub)).toBe(1);
    expect(credited(hub, 'u1')).toBe(1);
  });

  it('a refusal (4xx) proves failure: thrown as it came, the logs never read, nothing sent again', async () => {
    const hub = createSimulator();
    const refused = await rejectionOf(
      clientOf(
        hub,
        {},
        answeredWith(hub, () => Response.json({ code: 400, message: 'no', data: null }, { status: 400 })),
      ).recharge({ clientUserId: 'u1', amountCents: 5 }),
    );
    expect((refused as { status?: number }).status).toBe(400);
    expect(hub.requestLog.filter((entry) => entry.path.endsWith('/points/users/logs'))).toEqual([]);
  });

  it('a remark cut inside the order marker by the service makes a lost answer unknown, never not-applied: not sent again', async () => {
    // A varchar(20): part of the marker survives, the rest and the remark do not.
    const hub = createSimulator({
      profile: { reasonLimit: { length: 20, unit: 'characters' } },
      rechargeFaults: { pick: () => ({ kind: 'drop' }) },
    });
    const orderId = 'order-2026-11-26-0000000000000000000042';
    const error = await rejectionOf(
      clientOf(hub).recharge({ clientUserId: 'u1', amountCents: 500, externalOrderId: orderId, reason: 'Top-up' }),
    );
    expect(error).toBeInstanceOf(HubRechargeUnknownError);
    expect((error as Error).message).toContain('cut');
    expect(rechargesSent(hub)).toBe(1);
    expect(credited(hub, 'u1')).toBe(1);
  });

  it('a log record holding the marker prefix but not the whole marker is unknown, never not-applied', async () => {
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
      expect(error, cut).toBeInstanceOf(HubRechargeUnknownError);
    }
  });

  it('a recharge of this amount without a marker counts only inside the attempt\u2019s window; findRecharge counts every one', async () => {
    const hub = faulty({ kind: 'drop-before' });
    const client = clientOf(hub, { recharge: { settleMs: 0, retries: 1 } });
    // A console transfer of the same amount a day ago: outside the window, so the lost recharge is sent again.
    hub.clock.set(Date.now() - 24 * 60 * 60 * 1000);
    hub.transfer({ clientUserId: 'u1', amountCents: 300, reason: 'bonus' });
    hub.clock.resume();
    const result = await client.recharge({ clientUserId: 'u1', amountCents: 300, externalOrderId: 'o-2' });
    expect(result.amountCents).toBe(300);
    // The second send, answered: the first was dropped before the service saw it.
    expect(hub.transfers(1, 10).list.filter((transfer) => transfer.external_order_id === 'o-2')).toHaveLength(1);
    expect(rechargesSent(hub)).toBe(1);
    // findRecharge does not know when the order was sent: that day-old transfer could be it.
    const error = await rejectionOf(
      client.findRecharge({ clientUserId: 'u1', externalOrderId: 'o-3', amountCents: 300 }),
    );
    expect(error).toBeInstanceOf(HubRechargeUnknownError);
    // The same transfer a minute ago is inside the window: the lost recharge is unknown, not sent again.
    const recent = faulty({ kind: 'drop-before' });
    recent.transfer({ clientUserId: 'u1', amountCents: 300, reason: 'bonus' });
    const unknown = await rejectionOf(
      clientOf(recent, { recharge: { settleMs: 0, retries: 1 } }).recharge({
        clientUserId: 'u1',
        amountCents: 300,
        externalOrderId: 'o-2',
      }),
    );
    expect(unknown).toBeInstanceOf(HubRechargeUnknownError);
    // Not sent again: a second send would have been applied.
    expect(recent.transfers(1, 10).list.filter((transfer) => transfer.external_order_id === 'o-2')).toHaveLength(0);
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

  it('the logs are read only after settleMs: a recharge applied late is found, not sent again', async () => {
    const hub = faulty({ kind: 'late-apply', ms: 30 });
    const result = await clientOf(hub, { recharge: { settleMs: 300 } }).recharge({
      clientUserId: 'u1',
      amountCents: 80,
    });
    expect(result.userBalanceCents).toBe(80);
    // Long after the late apply: had the logs been read before it landed, a second recharge would be in them.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(rechargesSent(hub)).toBe(1);
    expect(credited(hub, 'u1')).toBe(1);
  });

  it('retries counts the sends after the first: every attempt lost before the service, retries + 1 sends, then not applied', async () => {
    for (const retries of [0, 1, 3]) {
      const hub = createSimulator({ rechargeFaults: { pick: () => ({ kind: 'error-before', status: 502 }) } });
      const error = await rejectionOf(
        clientOf(hub, { recharge: { settleMs: 0, retries } }).recharge({ clientUserId: 'u1', amountCents: 10 }),
      );
      expect(rechargesSent(hub), `retries ${retries}`).toBe(retries + 1);
      expect((error as Error).message).toContain(`${retries + 1} attempts`);
      expect((error as Error).message).toContain('was not applied');
    }
    // Without retries given: 2, so three sends.
    const defaults = createSimulator({ rechargeFaults: { pick: () => ({ kind: 'error-before', status: 502 }) } });
    await rejectionOf(clientOf(defaults).recharge({ clientUserId: 'u1', amountCents: 10 }));
    expect(rechargesSent(defaults)).toBe(3);
  });

  it('a 409 on the first attempt is the caller\u2019s reused order id: thrown, the logs not read, nothing sent again', async () => {
    const hub = faulty({ kind: 'conflict' });
    const error = await rejectionOf(
      clientOf(hub).recharge({ clientUserId: 'u1', amountCents: 10, externalOrderId: 'o-reused' }),
    );
    expect((error as { status?: number }).status).toBe(409);
    expect(rechargesSent(hub)).toBe(1);
    expect(hub.requestLog.filter((entry) => entry.path.endsWith('/points/users/logs'))).toEqual([]);
  });
});
