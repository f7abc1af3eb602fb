/**
 * What a user's points logs say of one order: read whole, page after page, and judged only by what the
 * records prove. A credit is a `recharge` record that starts with the order's whole marker, has the
 * order's amount, a positive change and `status` `success`: a record of a failed attempt (another status,
 * or no change) carries the marker too and credits nothing. Absence is only ever "no record so far": a
 * log may lag, so whether absence proves anything is for the caller to decide (recharge-decision.ts).
 */
import { HubApiError } from './errors.js';
import { markerOf } from './order-marker.js';
import type { LogsPage, PointsLogRecord } from './results.js';

/** How many log pages one read takes at most; logs longer than that leave the order unclear. */
export const MAX_EVIDENCE_PAGES = 50;

export type RechargeEvidence =
  /** A success record of this order: the credit happened. */
  | { kind: 'credited'; record: PointsLogRecord; userId: number }
  /** Every page read, no record that is or could be this order's credit. */
  | { kind: 'absent'; failedAttempts: number }
  /** The logs cannot tell: `why` says what a person should look at. */
  | { kind: 'unclear'; why: string };

/**
 * A logs read that proves the user was never met: the service's own envelope says 404. A 404 without the
 * envelope (a gateway's page, a wrong path) proves nothing.
 */
function neverMet(error: unknown): boolean {
  return error instanceof HubApiError && error.status === 404 && error.code === 404;
}

/** A record that moved points into the user's balance, as the service lists a done credit. */
function isCredit(record: PointsLogRecord): boolean {
  return record.recordType === 'recharge' && record.status === 'success' && record.changeCents > 0;
}

/**
 * Reads every page of the user's logs (to an empty page, whatever `total` says) for the order's marker.
 * Records must come in one order of time (newest or oldest first; checked, so a page that skips records
 * under insertion shows), and a page that only repeats records already read stops the read as unclear.
 */
export async function readRechargeEvidence(
  readPage: (page: number) => Promise<LogsPage>,
  marker: string,
  amountCents: number,
): Promise<RechargeEvidence> {
  const seen = new Set<number>();
  let unmarked = 0;
  let failedAttempts = 0;
  let direction = 0;
  let previous: number | undefined;
  for (let page = 1; page <= MAX_EVIDENCE_PAGES; page++) {
    let logs: LogsPage;
    try {
      logs = await readPage(page);
    } catch (error) {
      // A user the service never met has no logs: nothing was credited to them.
      if (page === 1 && neverMet(error)) return { kind: 'absent', failedAttempts: 0 };
      return { kind: 'unclear', why: `page ${page} of the logs could not be read (${(error as Error).message})` };
    }
    if (logs.list.length === 0) {
      if (unmarked > 0)
        return {
          kind: 'unclear',
          why: `the logs hold ${unmarked} credit(s) of this amount without an order marker, so one may be this order with its remark dropped or cut.`,
        };
      return { kind: 'absent', failedAttempts };
    }
    let fresh = 0;
    for (const record of logs.list) {
      const at = Date.parse(record.createdAt);
      if (Number.isNaN(at))
        return {
          kind: 'unclear',
          why: `a log record's created_at (${JSON.stringify(record.createdAt)}) is not a time.`,
        };
      if (previous !== undefined && at !== previous) {
        const step = Math.sign(at - previous);
        if (direction !== 0 && step !== direction)
          return {
            kind: 'unclear',
            why: 'the logs are not listed in one order of time, so their pages may skip records.',
          };
        direction = step;
      }
      previous = at;
      if (seen.has(record.id)) continue;
      seen.add(record.id);
      fresh++;
      const found = markerOf(record.reason);
      if (found === marker) {
        if (!isCredit(record)) {
          failedAttempts++;
          continue;
        }
        if (record.amountCents === amountCents) return { kind: 'credited', record, userId: logs.userId };
        return {
          kind: 'unclear',
          why: `a credit of ${record.amountCents} cents carries this order\u2019s marker, not one of ${amountCents}.`,
        };
      }
      if (found === undefined && isCredit(record) && record.amountCents === amountCents) unmarked++;
    }
    if (fresh === 0) return { kind: 'unclear', why: `page ${page} of the logs repeats records already read.` };
  }
  return { kind: 'unclear', why: `the logs have ${MAX_EVIDENCE_PAGES} full pages or more.` };
}
