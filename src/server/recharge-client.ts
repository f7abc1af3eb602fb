/** The server client's recharge: the request body with its order marker, and its exactly-once options. */
import { HubError } from '../core/errors.js';
import {
  HubRechargeUnknownError,
  lookUpOrder,
  newOrderId,
  orderMarker,
  rechargeExactlyOnce,
  reasonWithMarker,
} from './recharge-orders.js';
import type { LogsPage, PointsLogRecord, RechargeResult } from './results.js';

export interface RechargeOptions {
  /**
   * Wait before the logs are read after a lost answer, so a recharge still being applied shows; after a
   * timeout or a 504 the request's own timeout is added. Default 1000.
   */
  settleMs?: number;
  /** How often a recharge the logs show was not applied is sent again. Default 2. */
  retries?: number;
}

export interface FindRechargeInput {
  clientUserId: string;
  /** The `externalOrderId` the recharge was sent with. */
  externalOrderId: string;
  /** Its amount: a recharge of this amount without any order marker in the logs makes the answer unknown. */
  amountCents: number;
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
    throw new HubError('config', 'recharge must be an object {settleMs?, retries?}.');
  return {
    settleMs: whole(options?.settleMs, 'settleMs', 1000, 60_000),
    retries: whole(options?.retries, 'retries', 2, 10),
  };
}

/** One recharge, credited once (recharge-orders.ts); `send` posts the body, `readLogsPage` reads the user's logs. */
export async function rechargeOnce(
  input: CheckedRecharge,
  options: Required<RechargeOptions> & { timeoutMs: number },
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
  return rechargeExactlyOnce({
    orderId,
    marker,
    clientUserId: input.clientUserId,
    amountCents: input.amountCents,
    ...(input.externalOrderId === undefined ? {} : { externalOrderId: input.externalOrderId }),
    send: () => send(body),
    readLogsPage,
    ...options,
  });
}

/**
 * The recharge of one order in the logs; throws HubRechargeUnknownError when the logs cannot tell. When it
 * was sent is not known here, so a recharge of this amount without a marker anywhere in the logs counts.
 */
export async function findRechargeIn(
  readLogsPage: (page: number) => Promise<LogsPage>,
  orderId: string,
  amountCents: number,
): Promise<PointsLogRecord | null> {
  const found = await lookUpOrder(readLogsPage, await orderMarker(orderId), amountCents, undefined);
  if (found.kind === 'applied') return found.record;
  if (found.kind === 'not-applied') return null;
  throw new HubRechargeUnknownError(orderId, found.why, undefined);
}
