/**
 * One recharge, sent once. Its answer either proves the outcome (a success, or the service's own refusal:
 * recharge-decision.ts) or proves nothing; then the logs are read once, after a short settle, for a credit
 * record of this order. Found: a success. Not found: HubRechargePendingError, and nothing is sent again.
 */
import { whatAnswerProves } from './recharge-decision.js';
import { readRechargeEvidence } from './recharge-evidence.js';
import { HubRechargePendingError } from './recharge-pending.js';
import type { LogsPage, RechargeResult } from './results.js';

export interface SendOnce {
  orderId: string;
  /** The order's marker (orderMarker), at the start of the remark sent. */
  marker: string;
  clientUserId: string;
  amountCents: number;
  externalOrderId?: string;
  /** Sends the recharge. Called once. */
  send(): Promise<RechargeResult>;
  /** Reads one page (100 records asked) of the user's logs. */
  readLogsPage(page: number): Promise<LogsPage>;
  /** The wait before the one read of the logs after an answer that proves nothing. */
  settleMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The answer rebuilt from the log record when the recharge's own answer proved nothing. */
function resultFromLog(
  input: SendOnce,
  found: { record: { amountCents: number; balanceAfter: number }; userId: number },
): RechargeResult {
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

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function rechargeSentOnce(input: SendOnce): Promise<RechargeResult> {
  const sentAt = Date.now();
  let failure: unknown;
  try {
    return await input.send();
  } catch (error) {
    if (whatAnswerProves(error) === 'refused') throw error;
    failure = error;
  }
  if (input.settleMs > 0) await sleep(input.settleMs);
  const evidence = await readRechargeEvidence((page) => input.readLogsPage(page), input.marker, input.amountCents);
  if (evidence.kind === 'credited') return resultFromLog(input, evidence);
  const logs =
    evidence.kind === 'unclear'
      ? `The logs cannot tell: ${evidence.why}`
      : `The logs show no credit for it yet${evidence.failedAttempts > 0 ? ` (${evidence.failedAttempts} failed attempt record(s))` : ''}.`;
  throw new HubRechargePendingError(
    input.orderId,
    sentAt,
    `the answer proved nothing (${describe(failure)}). ${logs}`,
    failure,
  );
}
