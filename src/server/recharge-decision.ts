/**
 * The two rules that decide what happens to money, as pure functions: what an answer to a recharge
 * proves, and what the logs prove of an order sent at a given time. No rule here ever reads a clock or
 * sends anything; recharge-once.ts and recharge-orders.ts act on what they decide.
 */
import { isHubError } from '../core/errors.js';
import { HubApiError } from './errors.js';
import type { RechargeEvidence } from './recharge-evidence.js';
import type { PointsLogRecord } from './results.js';

/**
 * The statuses the service uses to refuse a recharge before its ledger is touched: the spec's 402 (the
 * pool cannot cover it), a refused key (401, 403) and a validation failure (400, 422). Not 408 or 429 (a
 * timeout or rate-limit layer may answer after the request went on), not 409 (the order may exist), not 404
 * (a wrong path, a gateway), and not any 5xx.
 */
export const REFUSAL_STATUSES: ReadonlySet<number> = new Set([400, 401, 402, 403, 422]);

/**
 * What an error from sending a recharge proves: `refused` (nothing was applied, and nothing can have been:
 * the service's own refusal, in its envelope, or a setting refused before anything was sent), or `nothing`
 * (a timeout, a reset, a 5xx, a redirect, an HTTP 200 whose envelope code is not 200 and not a refusal, an
 * answer that is not the envelope: the recharge may have been applied, now or later).
 */
export function whatAnswerProves(error: unknown): 'refused' | 'nothing' {
  if (!isHubError(error)) return 'nothing';
  if (error.kind === 'config') return 'refused';
  if (!(error instanceof HubApiError) || error.code === undefined) return 'nothing';
  // An envelope code of 5xx under a 4xx status contradicts itself: it proves nothing.
  if (error.code >= 500 && error.code <= 599) return 'nothing';
  return REFUSAL_STATUSES.has(error.status) ? 'refused' : 'nothing';
}

/**
 * How long after its last send an order's absence from the logs proves it was not applied. It covers a
 * late apply behind a proxy that gave up (load balancers and gateways wait 60 to 350 s by default before
 * answering 504, and the upstream may finish after that) and a log read from a lagging replica, with room.
 */
export const DEFAULT_SETTLE_WINDOW_MS = 15 * 60 * 1000;

export type RechargeOutcome =
  | { outcome: 'applied'; record: PointsLogRecord; userId: number }
  /** Proven not applied: safe to send again. */
  | { outcome: 'not-applied' }
  /** Not proven either way yet: send nothing; look again after `retryAfterMs` (or ask a person when it is undefined). */
  | { outcome: 'pending'; why: string; retryAfterMs: number | undefined };

/**
 * What the logs prove of an order last sent at `sentAt`, read at `now` (both by one clock: the order
 * store's). A credit record proves it applied at any time. Absence proves "not applied" only once the
 * settle window has passed since the last send: before that, the record may still come.
 */
export function outcomeOf(
  evidence: RechargeEvidence,
  timing: { sentAt: number | undefined; now: number; settleWindowMs: number },
): RechargeOutcome {
  if (evidence.kind === 'credited') return { outcome: 'applied', record: evidence.record, userId: evidence.userId };
  if (evidence.kind === 'unclear') return { outcome: 'pending', why: evidence.why, retryAfterMs: undefined };
  // Never sent: nothing can be in flight.
  if (timing.sentAt === undefined) return { outcome: 'not-applied' };
  const waited = timing.now - timing.sentAt;
  if (Number.isFinite(waited) && waited >= timing.settleWindowMs) return { outcome: 'not-applied' };
  const left = Number.isFinite(waited) ? timing.settleWindowMs - Math.max(0, waited) : timing.settleWindowMs;
  return {
    outcome: 'pending',
    why: `no credit for this order in the logs yet, and its last send was less than the settle window (${timing.settleWindowMs} ms) ago; a log may lag or a proxy's upstream apply late.`,
    retryAfterMs: left,
  };
}
