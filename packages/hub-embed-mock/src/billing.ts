/** The rule that turns the answers to a billing_deduct into a charge or a failure, and its log record. */
import { logExternalDeduct, logFailed } from './ledger.js';
import type { HubState, UserRecord } from './state.js';
import type { LedgerRecord, SeedTable, WebhookDelivery } from './types.js';

/**
 * Charged only when there was at least one billing URL and every one answered 200 with `ok: true`;
 * the points do not move (the developer charged on its side), the record says which way it went.
 * The form's paid action and the console's test deduct both decide here.
 */
export function settleDeduct(
  state: HubState,
  user: UserRecord,
  table: SeedTable,
  sent: { amountCents: number; reason: string },
  deliveries: WebhookDelivery[],
  now: number,
): { charged: boolean; record: LedgerRecord } {
  const charged = deliveries.length > 0 && deliveries.every((delivery) => delivery.ok === true);
  // The record names what was sent (amount and reason), so a test event's --set shows in the log line.
  const record = charged
    ? logExternalDeduct(state, user, table, now, sent)
    : logFailed(
        state,
        user,
        table,
        now,
        `The developer's billing URL did not confirm the charge of ${sent.amountCents} cents (${sent.reason}).`,
      );
  return { charged, record };
}
