/**
 * Paid orders credited exactly once, by design: one owner per order (a claim with a fencing token, renewed
 * while a credit runs: order-store.ts), a recharge sent only when the store says the claim still holds, and
 * never sent a second time without proof that the first was not applied (recharge-decision.ts). What nothing
 * proves stays `pending` and is resolved from the logs by `reconcile()` after the settle window.
 */
import { HubError } from '../core/errors.js';
import { whatAnswerProves } from './recharge-decision.js';
import { HubRechargePendingError } from './recharge-pending.js';
import type { OrderStore, PaidOrder } from './order-store.js';
import type { ServerClient } from './server-client.js';

export type CreditOutcome =
  /** This call credited it, or found it credited in the logs. */
  | 'credited'
  /** Credited before this call. */
  | 'already-credited'
  /** Another caller holds the order now. */
  | 'in-progress'
  /** Sent, and nothing proves the outcome yet: reconcile() settles it later. */
  | 'pending';

export interface RechargeOrdersOptions {
  client: ServerClient;
  store: OrderStore;
  /** How long a claim lasts without renewal; it is renewed every third of it while a credit runs. Default 30000. */
  holdMs?: number;
  /** The remark after the order marker. Default `Top-up`. */
  reason?: string;
}

export interface RechargeOrders {
  /** Your payment callback: records the order as paid (the same order again changes nothing). */
  paid(order: PaidOrder): Promise<void>;
  /**
   * Credits a paid order once. A refusal the service proves (402: top up the pool) is thrown and the order
   * stays paid; an outcome nothing proves is `pending`; so is an error of the store or the logs.
   */
  credit(orderId: string): Promise<CreditOutcome>;
  /** Credits or settles every order not credited: run it at start-up and now and then (every minute or so). */
  reconcile(): Promise<Record<CreditOutcome | 'failed', number>>;
}

export function createRechargeOrders(options: RechargeOrdersOptions): RechargeOrders {
  const { client, store } = options;
  const holdMs = options.holdMs ?? 30_000;
  if (!Number.isSafeInteger(holdMs) || holdMs < 30)
    throw new HubError('config', 'holdMs must be an integer of at least 30 (ms).');
  const reason = options.reason ?? 'Top-up';

  async function credit(orderId: string): Promise<CreditOutcome> {
    const claim = await store.claim(orderId, holdMs);
    if (claim === 'missing') throw new HubError('config', `No paid order ${JSON.stringify(orderId)}.`);
    if (claim === 'credited') return 'already-credited';
    if (claim === 'claimed') return 'in-progress';
    const { order, fence } = claim;
    // Renewed while this credit runs, however long the service takes; a renewal refused means another
    // caller has the order now, and nothing more is written or sent.
    let lost = false;
    const renewal = setInterval(
      () => {
        store.renew(orderId, fence, holdMs).then(
          (held) => (lost ||= !held),
          () => (lost = true),
        );
      },
      Math.max(10, Math.floor(holdMs / 3)),
    );
    // The state as this caller last wrote it, released as it is if the credit ends by a throw.
    let state = order.state;
    let finished = false;
    const finish = async (end: 'paid' | 'pending' | 'credited') => {
      finished = true;
      if (!lost) await store.write(orderId, fence, { state: end, release: true });
    };
    const input = { clientUserId: order.clientUserId, amountCents: order.amountCents, externalOrderId: orderId };
    try {
      if (order.state === 'pending') {
        const found = await client.resolveRecharge({ ...input, sentAt: order.sentAt, now: claim.now });
        if (found.outcome === 'applied') {
          await finish('credited');
          return 'credited';
        }
        if (found.outcome === 'pending') {
          await finish('pending');
          return 'pending';
        }
      }
      // The fence is checked right before the send: a caller whose claim lapsed sends nothing.
      if (lost || !(await store.write(orderId, fence, { state: 'pending', sent: true }))) return 'in-progress';
      state = 'pending';
      try {
        await client.recharge({ ...input, reason });
      } catch (error) {
        if (error instanceof HubRechargePendingError) {
          await finish('pending');
          return 'pending';
        }
        // Refused: nothing was applied (or sent), so it may be sent again. Anything else may have been applied.
        await finish(whatAnswerProves(error) === 'refused' ? 'paid' : 'pending');
        throw error;
      }
      await finish('credited');
      return 'credited';
    } finally {
      clearInterval(renewal);
      // A throw before an outcome (the store, a setting): the claim ends now rather than after holdMs.
      if (!finished && !lost) await store.write(orderId, fence, { state, release: true }).catch(() => undefined);
    }
  }

  return {
    paid: (order) => store.add(order),
    credit,
    async reconcile() {
      const tally = { credited: 0, 'already-credited': 0, 'in-progress': 0, pending: 0, failed: 0 };
      for (const orderId of await store.open()) {
        try {
          tally[await credit(orderId)]++;
        } catch {
          // A refusal (the order stays paid) or a failing store: the next round tries again.
          tally.failed++;
        }
      }
      return tally;
    },
  };
}
