/**
 * Points credited exactly once. The spec gives recharge no idempotency key (`external_order_id` is only
 * echoed) and the service never retries, so a recharge whose answer is lost (a timeout, a dropped
 * connection) has an unknown outcome: retrying may credit twice, giving up may lose a paid top-up.
 *
 * An answer proves failure only when it is a refusal the service gave before applying anything (a 4xx);
 * any other failure (no answer, a 5xx from the service or a proxy in front of it, an envelope `code` of
 * 500 or more, a body that is not the envelope) leaves the outcome unknown.
 *
 * Each recharge carries an order marker in its `reason` remark, and a recharge with an unknown outcome is
 * resolved by reading the user's `/points/users/logs` for that marker before anything is answered or sent
 * again. This rests on one assumption the spec does not state: the service copies the recharge's `reason`
 * into the log record's `reason` (the simulator does; docs/server.md says how to check a deployment).
 * When the logs cannot tell, the outcome is reported as unknown and nothing is retried.
 */
import { HubError, isHubError } from '../core/errors.js';
import { HubApiError } from './errors.js';
import type { LogsPage, PointsLogRecord, RechargeResult } from './results.js';

/** The start of every order marker; a log reason holding it proves the deployment copies reasons. */
export const ORDER_MARKER_PREFIX = '[hub-order:';

/** How many log pages (of 100 records, newest first) a resolution reads before it gives up as unknown. */
export const MAX_RESOLVE_PAGES = 10;

/** The marker of one order: the id URL-encoded, so no order id can end the marker early. */
export function orderMarker(orderId: string): string {
  return `${ORDER_MARKER_PREFIX}${encodeURIComponent(orderId)}]`;
}

/** The remark sent with a recharge: the integrator's reason (default `Recharge`) and the order marker. */
export function reasonWithMarker(reason: string | undefined, orderId: string): string {
  return `${reason ?? 'Recharge'} ${orderMarker(orderId)}`;
}

/** A fresh order id for a recharge without an `externalOrderId` (Web Crypto: every runtime has it). */
export function newOrderId(): string {
  return `hub-${globalThis.crypto.randomUUID()}`;
}

/**
 * A recharge whose outcome the logs could not tell: the toolkit did not retry it. Look the order up
 * later with `findRecharge`, or in the developer console's transfer records, before crediting again.
 */
export class HubRechargeUnknownError extends HubError {
  readonly outcome = 'unknown';

  constructor(
    readonly orderId: string,
    why: string,
    cause: unknown,
  ) {
    super(
      isHubError(cause, 'timeout') ? 'timeout' : 'network',
      `The recharge of order ${JSON.stringify(orderId)} may or may not have been applied: ${why} It was not sent ` +
        'again. Check with findRecharge (or the console\u2019s transfer records) before crediting this order again.',
      { cause },
    );
    (this as { name: string }).name = 'HubRechargeUnknownError';
  }
}

export type OrderLookup =
  | { kind: 'applied'; record: PointsLogRecord; userId: number }
  | { kind: 'not-applied' }
  | { kind: 'unknown'; why: string };

/** A whole marker, of any order: a reason holding one was copied at least up to its end. */
const WHOLE_MARKER = /\[hub-order:[^\]\s]*\]/;

/**
 * Whether a reason could be this order's marker cut short by a service that keeps only part of the
 * remark: it ends inside `[hub-order:` or inside this order's own marker (an ellipsis after the cut
 * allowed), or it holds a marker start that never closes.
 */
function holdsCutMarker(reason: string, marker: string): boolean {
  const tail = reason.replace(/(\u2026|\.{2,3})$/, '');
  for (let length = Math.min(marker.length - 1, tail.length); length > 0; length--)
    if (tail.endsWith(marker.slice(0, length))) return true;
  const start = reason.lastIndexOf(ORDER_MARKER_PREFIX);
  return start !== -1 && !reason.includes(']', start);
}

/**
 * Reads the user's logs, newest first, for the order's marker. A recharge record of this amount without a
 * whole marker could be this order with its remark dropped or cut, so not found means "not applied" only
 * when no such record is in the logs, or each one is shorter than a remark the logs show whole and holds
 * no piece of a marker (a console transfer, say). Otherwise the outcome is unknown.
 */
export async function lookUpOrder(
  readPage: (page: number) => Promise<LogsPage>,
  orderId: string,
  amountCents: number,
): Promise<OrderLookup> {
  const marker = orderMarker(orderId);
  // The longest reason the logs show with a whole marker: the service keeps at least that many characters.
  let longestWhole = 0;
  const sameAmountUnmarked: string[] = [];
  for (let page = 1; page <= MAX_RESOLVE_PAGES; page++) {
    let logs: LogsPage;
    try {
      logs = await readPage(page);
    } catch (error) {
      // A user the service never met has no logs: nothing was credited to them.
      if (error instanceof HubApiError && error.status === 404 && page === 1) return { kind: 'not-applied' };
      return { kind: 'unknown', why: `the logs could not be read (${(error as Error).message})` };
    }
    for (const record of logs.list) {
      if (record.recordType !== 'recharge') continue;
      if (record.reason.includes(marker)) return { kind: 'applied', record, userId: logs.userId };
      if (WHOLE_MARKER.test(record.reason)) longestWhole = Math.max(longestWhole, record.reason.length);
      else if (record.amountCents === amountCents) sameAmountUnmarked.push(record.reason);
    }
    if (logs.list.length === 0 || page * logs.pageSize >= logs.total) {
      if (sameAmountUnmarked.some((reason) => holdsCutMarker(reason, marker)))
        return {
          kind: 'unknown',
          why: 'the logs hold a recharge of this amount whose remark ends in part of an order marker, so this service may cut a recharge\u2019s reason short, inside the marker.',
        };
      if (longestWhole === 0 && sameAmountUnmarked.length > 0)
        return {
          kind: 'unknown',
          why: 'the logs hold recharges of this amount without any order marker, so this service may not copy a recharge\u2019s reason into its log.',
        };
      if (sameAmountUnmarked.some((reason) => reason.length >= longestWhole))
        return {
          kind: 'unknown',
          why: 'the logs hold a recharge of this amount without an order marker whose remark is as long as the longest one kept whole, so it may be this order\u2019s, cut short.',
        };
      return { kind: 'not-applied' };
    }
  }
  return { kind: 'unknown', why: `the order is not in the newest ${MAX_RESOLVE_PAGES} pages of the logs.` };
}

export interface ExactlyOnceRecharge {
  orderId: string;
  clientUserId: string;
  amountCents: number;
  externalOrderId?: string;
  /** Sends the recharge once. */
  send(): Promise<RechargeResult>;
  /** Reads one page (100 records, newest first) of the user's logs. */
  readLogsPage(page: number): Promise<LogsPage>;
  /** Wait before the logs are read, so a request the service is still applying shows up. */
  settleMs: number;
  /** How many times a recharge the logs show was not applied is sent again. */
  retries: number;
}

/** The answer rebuilt from the log record when the recharge's own answer was lost. */
function resultFromLog(input: ExactlyOnceRecharge, found: { record: PointsLogRecord; userId: number }): RechargeResult {
  return {
    clientUserId: input.clientUserId,
    toUserId: found.userId,
    amountCents: found.record.amountCents,
    ...(input.externalOrderId === undefined ? {} : { externalOrderId: input.externalOrderId }),
    userBalanceCents: found.record.balanceAfter,
    // The log does not say what the pool held; NaN says "not known" where a number is expected.
    developerBalanceCents: Number.NaN,
  };
}

/**
 * A failure that does not prove the recharge was not applied: no answer (a timeout, a dropped connection),
 * a 5xx (the service failing after its write, or a proxy's 502 or 504 in front of it), an envelope `code`
 * of 500 or more, or an answer that is not the envelope. Only a refusal (a 4xx) or a redirect, which is
 * never followed, proves nothing reached the ledger.
 */
function outcomeUnknown(error: unknown): boolean {
  if (!isHubError(error)) return false;
  if (error.kind === 'timeout' || error.kind === 'network') return true;
  if ((error.status ?? 0) >= 500 || (error.code ?? 0) >= 500) return true;
  return (
    error.kind === 'invalid-response' && !(error.status !== undefined && error.status >= 300 && error.status < 400)
  );
}

/** 409: a service that refuses a repeated `external_order_id` (the simulator does) has the order already. */
function isDuplicateOrder(error: unknown): boolean {
  return error instanceof HubApiError && error.status === 409;
}

/** No attempt got an answer proving failure, and the logs show none of them applied: known, and safe to send again. */
function notApplied(orderId: string, attempts: number, failure: unknown): HubError {
  return new HubError(
    isHubError(failure, 'timeout') ? 'timeout' : 'network',
    `The recharge of order ${JSON.stringify(orderId)} was not applied: ${attempts} attempts got no answer that proves it and ` +
      'the logs show none of them. Sending it again later is safe.',
    { cause: failure },
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends the recharge; on an answer that does not prove failure reads the logs before answering or sending it again. */
export async function rechargeExactlyOnce(input: ExactlyOnceRecharge): Promise<RechargeResult> {
  for (let attempt = 0; ; attempt++) {
    let failure: unknown;
    try {
      return await input.send();
    } catch (error) {
      // After an unproven failure a retry's 409 means an earlier attempt was applied after all; a 409 on the
      // first attempt is the caller's own order id used before, which the caller must look into.
      if (!outcomeUnknown(error) && !(attempt > 0 && isDuplicateOrder(error))) throw error;
      failure = error;
    }
    if (input.settleMs > 0) await sleep(input.settleMs);
    const found = await lookUpOrder((page) => input.readLogsPage(page), input.orderId, input.amountCents);
    if (found.kind === 'applied') return resultFromLog(input, found);
    if (found.kind === 'unknown') throw new HubRechargeUnknownError(input.orderId, found.why, failure);
    if (attempt >= input.retries) throw notApplied(input.orderId, attempt + 1, failure);
  }
}
