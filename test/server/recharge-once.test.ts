/**
 * Points credited exactly once (issue 47, item 2): a recharge whose answer is lost is resolved from the
 * logs, never guessed. Every test runs the real simulator; the faults are the simulator's own
 * (rechargeFaults) or a fetch in front of it that loses what a network would lose.
 */
import { describe, expect, it } from 'vitest';
import { createSimulator, type Simulator } from '../../src/mock/hub.js';
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
    expect(record?.reason).toBe(`Top-up ${orderMarker('o-1')}`);
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
    expect((error as Error).message).toContain('may not copy');
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
