/**
 * The points ledger: recharges, top-ups, charges and refunds, each logged, and the check that it balances.
 *
 * Every mutation validates first and then changes state synchronously, so a rejected call changes
 * nothing and concurrent requests (one event loop) can never interleave half-way through a transfer.
 */
import { MockHttpError, isoUtc } from './http.js';
import { noteWritten, storedReason, type CheckedProfile } from './profiles.js';
import type { Account, HubState, UserRecord } from './state.js';
import type { RechargeInput } from '../../../src/server/server-client.js';
import type { LedgerRecord, SeedTable } from './types.js';

function log(
  state: HubState,
  user: UserRecord,
  now: number,
  entry: Omit<LedgerRecord, 'id' | 'created_at' | 'balance_after' | 'amount_cents'>,
): LedgerRecord {
  const record: LedgerRecord = {
    id: state.nextLogId++,
    ...entry,
    amount_cents: Math.abs(entry.change_cents),
    balance_after: user.balanceCents,
    created_at: isoUtc(now),
  };
  user.logs.push(record);
  noteWritten(record, now);
  return record;
}

/** A recharge the service failed and logged as such: a record with its remark, `status` `failed`, nothing moved. */
export function failedRecharge(
  state: HubState,
  account: Account,
  input: RechargeInput,
  now: number,
  profile: CheckedProfile,
): LedgerRecord {
  const user = state.ensureUser(account, input.clientUserId);
  return log(state, user, now, {
    source: 'transfer',
    record_type: 'recharge',
    change_cents: 0,
    reason: storedReason(input.reason ?? 'Recharge', profile),
    status: 'failed',
    short_code: null,
    project_id: null,
  });
}

/** A pool-to-user move; its remark is kept as the service's profile keeps it. */
export function recharge(
  state: HubState,
  account: Account,
  input: RechargeInput,
  now: number,
  profile: CheckedProfile,
) {
  if (input.externalOrderId !== undefined && account.orderIds.has(input.externalOrderId)) {
    throw new MockHttpError(409, 'external_order_id was already used for a recharge; nothing was changed.');
  }
  if (account.poolCents < input.amountCents) {
    throw new MockHttpError(
      402,
      `The developer points pool (${account.poolCents} cents) cannot cover ${input.amountCents} cents; top it up in the console.`,
    );
  }
  const user = state.ensureUser(account, input.clientUserId);
  account.poolCents -= input.amountCents;
  user.balanceCents += input.amountCents;
  if (input.externalOrderId !== undefined) account.orderIds.add(input.externalOrderId);
  const record = log(state, user, now, {
    source: 'transfer',
    record_type: 'recharge',
    change_cents: input.amountCents,
    reason: storedReason(input.reason ?? 'Recharge', profile),
    status: 'success',
    short_code: null,
    project_id: null,
  });
  account.transfers.push({
    id: record.id,
    client_user_id: user.clientUserId,
    amount_cents: input.amountCents,
    reason: record.reason,
    external_order_id: input.externalOrderId ?? null,
    created_at: record.created_at,
  });
  return {
    client_user_id: user.clientUserId,
    to_user_id: user.userId,
    amount_cents: input.amountCents,
    ...(input.externalOrderId !== undefined ? { external_order_id: input.externalOrderId } : {}),
    user_balance_cents: user.balanceCents,
    developer_balance_cents: account.poolCents,
  };
}

export function topUp(account: Account, cents: number): number {
  account.poolCents += cents;
  account.totals.toppedUp += cents;
  return account.poolCents;
}

/** Takes the table's price from the user's own points; insufficient points log a failed record. */
export function chargePoints(
  state: HubState,
  account: Account,
  user: UserRecord,
  table: SeedTable,
  now: number,
): LedgerRecord {
  const price = table.price_cents;
  if (user.balanceCents < price) {
    return logFailed(
      state,
      user,
      table,
      now,
      `Insufficient points: ${price} cents needed, ${user.balanceCents} available.`,
    );
  }
  user.balanceCents -= price;
  account.totals.charged += price;
  return log(state, user, now, {
    source: 'billing',
    record_type: 'deduct',
    change_cents: -price,
    reason: `Paid action on ${table.name}`,
    status: 'success',
    short_code: table.short_code,
    project_id: table.project_id,
  });
}

/** A charge the developer took on its own side (billing URL): points do not move, the record says so. */
export function logExternalDeduct(
  state: HubState,
  user: UserRecord,
  table: SeedTable,
  now: number,
  sent: { amountCents: number; reason: string } = {
    amountCents: table.price_cents,
    reason: `Paid action on ${table.name}`,
  },
): LedgerRecord {
  return log(state, user, now, {
    source: 'billing',
    record_type: 'deduct',
    change_cents: 0,
    reason: `${sent.reason}: ${sent.amountCents} cents charged by the developer's billing URL`,
    status: 'success',
    short_code: table.short_code,
    project_id: table.project_id,
  });
}

export function logFailed(
  state: HubState,
  user: UserRecord,
  table: SeedTable,
  now: number,
  reason: string,
): LedgerRecord {
  return log(state, user, now, {
    source: 'billing',
    record_type: 'failed',
    change_cents: 0,
    reason,
    status: 'failed',
    short_code: table.short_code,
    project_id: table.project_id,
  });
}

/**
 * Refunds one earlier deduct record of the user. Points go back only when the charge took points;
 * a charge made through the billing URL is refunded on the developer's side (billing_refund).
 */
export function refund(
  state: HubState,
  account: Account,
  user: UserRecord,
  logId: number,
  reason: string,
  now: number,
) {
  const charge = user.logs.find((record) => record.id === logId);
  if (!charge) throw new MockHttpError(404, `No points log record ${logId} for this user.`);
  if (charge.record_type !== 'deduct')
    throw new MockHttpError(
      400,
      `Record ${logId} is a ${charge.record_type}, not a deduct; only charges can be refunded.`,
    );
  if (account.refundedLogIds.has(logId)) {
    throw new MockHttpError(409, `Record ${logId} was already refunded; nothing was changed.`);
  }
  const back = -charge.change_cents;
  account.refundedLogIds.add(logId);
  user.balanceCents += back;
  account.totals.refunded += back;
  const table = charge.short_code === null ? undefined : state.table(charge.short_code);
  const record = log(state, user, now, {
    source: 'billing',
    record_type: 'refund',
    change_cents: back,
    reason,
    status: 'success',
    short_code: charge.short_code,
    project_id: charge.project_id,
  });
  const price = back > 0 ? back : (table?.price_cents ?? 0);
  return { record, amountCents: price, table };
}

/** Pool + balances + charged - refunded must equal everything ever topped up. */
export function ledgerBalanced(account: Account): boolean {
  let balances = 0;
  for (const user of account.users.values()) balances += user.balanceCents;
  return account.poolCents + balances + account.totals.charged - account.totals.refunded === account.totals.toppedUp;
}
