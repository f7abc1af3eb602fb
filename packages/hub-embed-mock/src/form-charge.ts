/** A form's paid action: from the user's points, or through the developer's billing URL (billing_deduct). */
import { settleDeduct } from './billing.js';
import type { HubContext } from './context.js';
import type { Outcome } from './form-page.js';
import type { FormStrings } from './form-strings.js';
import { centsToYuan } from './http.js';
import { iconUrl } from './icons.js';
import { chargePoints } from './ledger.js';
import type { Account, UserRecord } from './state.js';
import type { SeedTable } from './types.js';
import { matchingUrls } from './webhooks.js';

/** Charges `table`'s price for `user`; the outcome says which way it went, in the page's words `t`. */
export async function charge(
  hub: HubContext,
  account: Account,
  user: UserRecord,
  table: SeedTable,
  t: FormStrings,
): Promise<Outcome> {
  const amountCents = table.price_cents;
  const outcome = (paid: boolean, logId: Outcome['logId'], message: string, reason: string): Outcome => ({
    type: 'charge',
    ok: paid,
    amountCents,
    balanceCents: user.balanceCents,
    logId,
    message,
    ...(paid ? {} : { reason }),
  });
  const urls = matchingUrls(account.webhooks, 'billing_deduct');
  if (urls.length === 0) {
    const record = chargePoints(hub.state, account, user, table, hub.now());
    const paid = record.record_type === 'deduct';
    return outcome(paid, record.id, paid ? t.paidByPoints(amountCents) : t.insufficient, 'insufficient-points');
  }
  const reason = `Paid action on ${table.name}`;
  const deliveries = await hub.sendWebhook(account.id, {
    event: 'billing_deduct',
    short_code: table.short_code,
    project_icon_url: iconUrl(table.icon, hub.baseUrl),
    target: { client_user_id: user.clientUserId },
    billing: { amount: centsToYuan(amountCents), reason },
  });
  const { charged: paid, record } = settleDeduct(
    hub.state,
    user,
    table,
    { amountCents, reason },
    deliveries,
    hub.now(),
  );
  return outcome(paid, record.id, paid ? t.paidByApp(amountCents) : t.declined, 'declined');
}
