/** The error of a recharge whose outcome nothing proves yet: the toolkit sent it once and will not again on its own. */
import { HubError, isHubError } from '../core/errors.js';

/**
 * A recharge sent once whose answer proves nothing (a timeout, a reset, a 5xx, a 408 or 429, an answer
 * that is not the service's envelope) and whose credit the logs did not show yet. Nothing was sent again.
 * Keep the order as pending with `sentAt`; `resolveRecharge` (or `createRechargeOrders().reconcile()`)
 * settles it from the logs once the settle window has passed.
 */
export class HubRechargePendingError extends HubError {
  readonly outcome = 'pending';

  constructor(
    readonly orderId: string,
    /** When the recharge was sent, in ms since the epoch, by this process's clock. */
    readonly sentAt: number,
    /** What was seen: the answer, and what the logs said. */
    readonly seen: string,
    cause: unknown,
  ) {
    super(
      isHubError(cause, 'timeout') ? 'timeout' : 'network',
      `The recharge of order ${JSON.stringify(orderId)} is pending: ${seen} It was not sent again. Keep the order ` +
        'pending and resolve it from the logs later (resolveRecharge, or createRechargeOrders().reconcile()); ' +
        'tell the user the top-up is being credited.',
      { cause },
    );
    (this as { name: string }).name = 'HubRechargePendingError';
  }
}

/** The name it had before outcomes were called pending; it is the same class. */
export const HubRechargeUnknownError = HubRechargePendingError;
export type HubRechargeUnknownError = HubRechargePendingError;
