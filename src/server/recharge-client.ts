/** The server client's recharge: the request body with its order marker, sent once, and its lookups in the logs. */
import { HubError } from '../core/errors.js';
import { DEFAULT_SETTLE_WINDOW_MS, outcomeOf, type RechargeOutcome } from './recharge-decision.js';
import { readRechargeEvidence } from './recharge-evidence.js';
import { rechargeSentOnce } from './recharge-once.js';
import { HubRechargePendingError } from './recharge-pending.js';
import { newOrderId, orderMarker, reasonWithMarker } from './order-marker.js';
import type { LogsPage, PointsLogRecord, RechargeResult } from './results.js';

export interface RechargeOptions {
  /** Wait before the logs are read once after an answer that proves nothing. Default 1000. */
  settleMs?: number;
  /**
   * How long after its last send an order missing from the logs counts as not applied (resolveRecharge).
   * Default 900000 (15 minutes): a gateway's own timeout, a late apply behind it and a lagging log, with room.
   */
  settleWindowMs?: number;
}

export interface FindRechargeInput {
  clientUserId: string;
  /** The `externalOrderId` the recharge was sent with. */
  externalOrderId: string;
  /** Its amount. */
  amountCents: number;
}

export interface ResolveRechargeInput extends FindRechargeInput {
  /** When the order was last sent, in ms since the epoch (undefined: never sent). */
  sentAt: number | undefined;
  /** The time now by the same clock as `sentAt` (your order store's). Default Date.now(). */
  now?: number;
}

export interface CheckedRecharge {
  clientUserId: string;
  amountCents: number;
  externalOrderId: string | undefined;
  reason: string | undefined;
}

export type RechargeBody = {
  client_user_id: string;
  amount_cents: number;
  external_order_id?: string;
  reason: string;
};

function whole(value: unknown, name: string, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0 || value > max)
    throw new HubError('config', `recharge.${name} must be an integer from 0 to ${max}.`);
  return value;
}

export function checkRechargeOptions(options: RechargeOptions | undefined): Required<RechargeOptions> {
  if (options !== undefined && (typeof options !== 'object' || options === null))
    throw new HubError('config', 'recharge must be an object {settleMs?, settleWindowMs?}.');
  if (options !== undefined && 'retries' in options)
    throw new HubError(
      'config',
      'recharge.retries is gone: a recharge is never sent again without proof that it was not applied. Resolve ' +
        'pending orders with resolveRecharge or createRechargeOrders().reconcile() (CHANGELOG.md).',
    );
  return {
    settleMs: whole(options?.settleMs, 'settleMs', 1000, 60_000),
    settleWindowMs: whole(options?.settleWindowMs, 'settleWindowMs', DEFAULT_SETTLE_WINDOW_MS, 7 * 24 * 3600 * 1000),
  };
}

/** One recharge, sent once (recharge-once.ts); `send` posts the body, `readLogsPage` reads the user's logs. */
export async function rechargeOnce(
  input: CheckedRecharge,
  options: Required<RechargeOptions>,
  send: (body: RechargeBody) => Promise<RechargeResult>,
  readLogsPage: (page: number) => Promise<LogsPage>,
): Promise<RechargeResult> {
  const orderId = input.externalOrderId ?? newOrderId();
  const marker = await orderMarker(orderId);
  const body: RechargeBody = {
    client_user_id: input.clientUserId,
    amount_cents: input.amountCents,
    ...(input.externalOrderId === undefined ? {} : { external_order_id: input.externalOrderId }),
    reason: reasonWithMarker(marker, input.reason),
  };
  return rechargeSentOnce({
    orderId,
    marker,
    clientUserId: input.clientUserId,
    amountCents: input.amountCents,
    ...(input.externalOrderId === undefined ? {} : { externalOrderId: input.externalOrderId }),
    send: () => send(body),
    readLogsPage,
    settleMs: options.settleMs,
  });
}

/**
 * The credit record of one order in the logs, or null when there is none so far (which proves nothing
 * alone: use resolveRecharge to know whether it can be sent again). Throws HubRechargePendingError when the
 * logs cannot tell.
 */
export async function findRechargeIn(
  readLogsPage: (page: number) => Promise<LogsPage>,
  orderId: string,
  amountCents: number,
): Promise<PointsLogRecord | null> {
  const evidence = await readRechargeEvidence(readLogsPage, await orderMarker(orderId), amountCents);
  if (evidence.kind === 'credited') return evidence.record;
  if (evidence.kind === 'absent') return null;
  throw new HubRechargePendingError(orderId, Number.NaN, `The logs cannot tell: ${evidence.why}`, undefined);
}

/** What the logs prove of an order sent at `sentAt` (recharge-decision.ts's outcomeOf). */
export async function resolveRechargeIn(
  readLogsPage: (page: number) => Promise<LogsPage>,
  input: { orderId: string; amountCents: number; sentAt: number | undefined; now: number },
  settleWindowMs: number,
): Promise<RechargeOutcome> {
  const evidence = await readRechargeEvidence(readLogsPage, await orderMarker(input.orderId), input.amountCents);
  return outcomeOf(evidence, { sentAt: input.sentAt, now: input.now, settleWindowMs });
}
