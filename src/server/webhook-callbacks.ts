/** Running the receiver's callbacks: a throw or a missed deadline goes to onError and answers false, never escapes. */
import { HubError } from '../core/errors.js';
import type { BillingDeductEvent, WebhookEvent } from './webhook-events.js';

/** Passed to billing_deduct handlers: aborted when the deadline passes and the answer is already ok:false. */
export interface DeductContext {
  signal: AbortSignal;
}

/** Whether `run` finished without a throw; a throw is reported to onError. */
export async function callbackSucceeded(
  run: () => unknown,
  event: WebhookEvent,
  onError: (error: unknown, event: WebhookEvent) => void,
): Promise<boolean> {
  try {
    await run();
    return true;
  } catch (error) {
    reportSafely(onError, error, event);
    return false;
  }
}

function reportSafely(
  onError: (error: unknown, event: WebhookEvent) => void,
  error: unknown,
  event: WebhookEvent,
): void {
  try {
    onError(error, event);
  } catch {
    // A failing logger must not turn an answer the service needs into a crash.
  }
}

/**
 * onBillingDeduct's answer within `remainingMs`: true only for a `true` returned in time. Past the deadline
 * the signal is aborted and the failure reported.
 */
export async function deductWithin(
  handler: (event: BillingDeductEvent, context: DeductContext) => unknown,
  event: BillingDeductEvent,
  remainingMs: number,
  onError: (error: unknown, event: WebhookEvent) => void,
  waitUntil?: (promise: Promise<unknown>) => void,
): Promise<boolean> {
  const controller = new AbortController();
  if (remainingMs <= 0) {
    controller.abort();
    reportSafely(
      onError,
      new HubError('timeout', 'The billing_deduct deadline passed before the handler could run.'),
      event,
    );
    return false;
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<'deadline'>((resolve) => {
    timer = setTimeout(() => resolve('deadline'), remainingMs);
  });
  const outcome = Promise.resolve()
    .then(() => handler(event, { signal: controller.signal }))
    .then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
  try {
    const first = await Promise.race([outcome, deadline]);
    if (first === 'deadline') {
      controller.abort();
      // The callback goes on after the answer; on workerd only a promise given to waitUntil may.
      waitUntil?.(outcome);
      reportSafely(
        onError,
        new HubError('timeout', `onBillingDeduct did not answer within ${remainingMs} ms; answered ok:false.`),
        event,
      );
      return false;
    }
    if ('error' in first) {
      reportSafely(onError, first.error, event);
      return false;
    }
    return first.result === true;
  } finally {
    clearTimeout(timer);
  }
}
