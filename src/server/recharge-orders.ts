/**
 * Points credited exactly once. The spec gives recharge no idempotency key (`external_order_id` is only
 * echoed) and the service never retries, so a recharge whose answer is lost (a timeout, a dropped
 * connection) has an unknown outcome: retrying may credit twice, giving up may lose a paid top-up.
 *
 * An answer proves failure only when it is a refusal the service gave in its own envelope (a 4xx); any
 * other failure (no answer, a 5xx from the service or a proxy in front of it, a redirect, an envelope
 * `code` of 500 or more, a body that is not the envelope) leaves the outcome unknown.
 *
 * Each recharge carries an order marker at the start of its `reason` remark, and a recharge with an unknown
 * outcome is resolved by reading the user's `/points/users/logs` before anything is answered or sent again.
 * The logs are evidence only as far as they go: a record with the whole marker proves the credit, and only
 * a complete, ordered read with no record that could be this order's proves its absence (lookUpOrder).
 * When the logs cannot tell, the outcome is reported as unknown and nothing is retried.
 */
import { HubError, isHubError } from '../core/errors.js';
import { HubApiError } from './errors.js';
import type { LogsPage, PointsLogRecord, RechargeResult } from './results.js';

/** How many log pages a resolution reads at most; logs longer than that leave a lost answer unknown. */
export const MAX_RESOLVE_PAGES = 50;

/**
 * How far the service's clock may be from this server's: a recharge record written this long before the
 * first attempt, or after the logs were read, is outside the attempt's window.
 */
export const CLOCK_SKEW_MS = 5 * 60 * 1000;

/** `hub` and 32 hex digits: ASCII letters and digits only, so no escaping, cut or trim can change it silently. */
const MARKER_AT_START = /^hub[0-9a-f]{32}(?![0-9a-z])/i;

/** A lone surrogate has no UTF-8 spelling: its hash would be the hash of U+FFFD, another order's. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const ILL_FORMED_ORDER_ID =
  'externalOrderId is not well-formed UTF-16 (it has a lone surrogate), so it has no UTF-8 spelling and would share a marker with another order id; fix the code that made it.';

/**
 * The marker of one order: `hub` and the first 128 bits of the SHA-256 of the order id, in hex. It goes
 * first in the remark, where a service that keeps only part of the remark cuts last.
 */
export async function orderMarker(orderId: string): Promise<string> {
  if (typeof orderId !== 'string' || LONE_SURROGATE.test(orderId)) throw new HubError('config', ILL_FORMED_ORDER_ID);
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(orderId)));
  let hex = '';
  for (const byte of digest.subarray(0, 16)) hex += byte.toString(16).padStart(2, '0');
  return `hub${hex}`;
}

/** The remark sent with a recharge: the order's marker, then the integrator's reason (default `Recharge`). */
export function reasonWithMarker(marker: string, reason: string | undefined): string {
  return `${marker} ${reason ?? 'Recharge'}`;
}

/** The whole marker a log reason starts with, lower-cased, or undefined. */
function markerOf(reason: string): string | undefined {
  return MARKER_AT_START.exec(reason)?.[0].toLowerCase();
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

/** Times in ms, by the service's `created_at`: records outside it cannot be this attempt's. */
export interface AttemptWindow {
  from: number;
  to: number;
}

/**
 * A logs read that proves the user was never met: the service's own envelope says 404. A 404 without the
 * envelope (a gateway's page, a wrong path) proves nothing.
 */
function neverMet(error: unknown): boolean {
  return error instanceof HubApiError && error.status === 404 && error.code === 404;
}

/**
 * Reads every page of the user's logs for the order's marker. "Applied" needs a `recharge` record of this
 * amount that starts with this order's whole marker. "Not applied" needs every page read (to an empty page),
 * the records in one order throughout (by `created_at`), and no `recharge` record of this amount in the
 * attempt's window without another order's whole marker: such a record could be this order with its remark
 * dropped or cut. Anything else is unknown.
 */
export async function lookUpOrder(
  readPage: (page: number) => Promise<LogsPage>,
  marker: string,
  amountCents: number,
  window: AttemptWindow | undefined,
): Promise<OrderLookup> {
  const seen = new Set<number>();
  let unmarked = 0;
  let direction = 0;
  let previous: number | undefined;
  for (let page = 1; page <= MAX_RESOLVE_PAGES; page++) {
    let logs: LogsPage;
    try {
      logs = await readPage(page);
    } catch (error) {
      // A user the service never met has no logs: nothing was credited to them.
      if (page === 1 && neverMet(error)) return { kind: 'not-applied' };
      return { kind: 'unknown', why: `page ${page} of the logs could not be read (${(error as Error).message})` };
    }
    if (logs.list.length === 0) {
      if (unmarked > 0)
        return {
          kind: 'unknown',
          why: `the logs hold ${unmarked} recharge(s) of this amount from the time of the attempt without an order marker, so one may be this order with its remark dropped or cut.`,
        };
      return { kind: 'not-applied' };
    }
    let fresh = 0;
    for (const record of logs.list) {
      const at = Date.parse(record.createdAt);
      if (Number.isNaN(at))
        return {
          kind: 'unknown',
          why: `a log record's created_at (${JSON.stringify(record.createdAt)}) is not a time.`,
        };
      if (previous !== undefined && at !== previous) {
        const step = Math.sign(at - previous);
        if (direction !== 0 && step !== direction)
          return {
            kind: 'unknown',
            why: 'the logs are not listed in one order of time, so their pages may skip records.',
          };
        direction = step;
      }
      previous = at;
      if (!seen.has(record.id)) fresh++;
      seen.add(record.id);
      if (record.recordType !== 'recharge') continue;
      const found = markerOf(record.reason);
      if (found === marker) {
        if (record.amountCents === amountCents) return { kind: 'applied', record, userId: logs.userId };
        return {
          kind: 'unknown',
          why: `a recharge of ${record.amountCents} cents carries this order\u2019s marker, not one of ${amountCents}.`,
        };
      }
      if (found !== undefined || record.amountCents !== amountCents) continue;
      if (window === undefined || (at >= window.from && at <= window.to)) unmarked++;
    }
    if (fresh === 0) return { kind: 'unknown', why: `page ${page} of the logs repeats records already read.` };
  }
  return { kind: 'unknown', why: `the logs have more than ${MAX_RESOLVE_PAGES} pages.` };
}

export interface ExactlyOnceRecharge {
  orderId: string;
  /** The order's marker (orderMarker), at the start of the remark sent. */
  marker: string;
  clientUserId: string;
  amountCents: number;
  externalOrderId?: string;
  /** Sends the recharge once. */
  send(): Promise<RechargeResult>;
  /** Reads one page (100 records asked) of the user's logs. */
  readLogsPage(page: number): Promise<LogsPage>;
  /** Wait before the logs are read, so a request the service is still applying shows up. */
  settleMs: number;
  /** The request's own timeout: after a timeout or a 504 the service may still be working on it that long. */
  timeoutMs: number;
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
 * Only the service's own refusal proves nothing reached the ledger: a 4xx (or an HTTP 200 whose envelope
 * code is a 4xx) that came in the service's envelope. Anything else leaves the outcome unknown: no answer,
 * a 5xx, a redirect (the service may have applied the recharge before pointing elsewhere), an answer
 * without the envelope (a gateway's page, whatever its status).
 */
function provesFailure(error: unknown): boolean {
  if (!isHubError(error)) return true;
  if (error.kind === 'config') return true;
  const status = error.status ?? 0;
  return error instanceof HubApiError && error.code !== undefined && status >= 400 && status < 500;
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

/**
 * How long to wait before the logs are read. After a timeout or a 504 the request may still be on its way
 * to the ledger, as long again as it has already taken: the wait covers the request's own timeout too.
 */
export function settleWait(failure: unknown, settleMs: number, timeoutMs: number): number {
  const stillRunning = isHubError(failure, 'timeout') || (isHubError(failure) && failure.status === 504);
  return stillRunning ? settleMs + timeoutMs : settleMs;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends the recharge; on an answer that does not prove failure reads the logs before answering or sending it again. */
export async function rechargeExactlyOnce(input: ExactlyOnceRecharge): Promise<RechargeResult> {
  const firstSent = Date.now();
  for (let attempt = 0; ; attempt++) {
    let failure: unknown;
    try {
      return await input.send();
    } catch (error) {
      // After an unproven failure a retry's 409 means an earlier attempt was applied after all; a 409 on the
      // first attempt is the caller's own order id used before, which the caller must look into.
      if (provesFailure(error) && !(attempt > 0 && isDuplicateOrder(error))) throw error;
      failure = error;
    }
    const wait = settleWait(failure, input.settleMs, input.timeoutMs);
    if (wait > 0) await sleep(wait);
    const window = { from: firstSent - CLOCK_SKEW_MS, to: Date.now() + CLOCK_SKEW_MS };
    const found = await lookUpOrder((page) => input.readLogsPage(page), input.marker, input.amountCents, window);
    if (found.kind === 'applied') return resultFromLog(input, found);
    if (found.kind === 'unknown') throw new HubRechargeUnknownError(input.orderId, found.why, failure);
    if (attempt >= input.retries) throw notApplied(input.orderId, attempt + 1, failure);
  }
}
