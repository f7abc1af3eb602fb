import { HubError } from '../core/errors.js';
import { createAddressFilter, type SourceInfo } from './addresses.js';
import { readJsonBody, type BodyProblem } from './body.js';
import {
  isNotificationEvent,
  parseBilling,
  parseEventBase,
  parseNotification,
  type BillingDeductEvent,
  type BillingRefundEvent,
  type NotificationEvent,
  type UnknownEvent,
  type WebhookEvent,
} from './webhook-events.js';

/** Passed to billing_deduct handlers: aborted when the deadline passes and the answer is already ok:false. */
export interface DeductContext {
  signal: AbortSignal;
}

export interface WebhookHandlerOptions {
  /** The platform's outbound IPs from the console: single addresses or CIDR ranges, IPv4 or IPv6. */
  allowIps: readonly string[];
  /** Your own reverse proxies. Forwarded headers are believed only from these. Default: none. */
  trustedProxies?: readonly string[];
  onNotification?: (event: NotificationEvent) => unknown;
  /** Deduct on your side; return true only when the charge succeeded. Anything else answers ok:false. */
  onBillingDeduct: (event: BillingDeductEvent, context: DeductContext) => boolean | Promise<boolean>;
  onBillingRefund?: (event: BillingRefundEvent) => unknown;
  onUnknownEvent?: (event: UnknownEvent) => unknown;
  /** Called with every callback failure (a throw, a missed deadline). Default: console.error. */
  onError?: (error: unknown, event: WebhookEvent) => void;
  /** billing_deduct answers ok:false after this long, well before the service's own 10 s timeout. */
  deadlineMs?: number;
  maxBodyBytes?: number;
}

export type WebhookHandler = (request: Request, info: SourceInfo) => Promise<Response>;

const BODY_STATUS: Record<BodyProblem, number> = { 'too-large': 413, 'bad-encoding': 400, 'bad-json': 400 };
const BODY_MESSAGE: Record<BodyProblem, string> = {
  'too-large': 'Body too large.',
  'bad-encoding': 'Body is not UTF-8.',
  'bad-json': 'Body is not valid JSON.',
};

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });
}

function problem(status: number, error: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ error }), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

function isJsonContentType(value: string | null): boolean {
  if (value === null) return false;
  const [type, ...params] = value.split(';').map((part) => part.trim().toLowerCase());
  if (type !== 'application/json') return false;
  return params.every((param) => !param.startsWith('charset=') || /^charset="?utf-8"?$/.test(param));
}

function positiveInteger(value: number | undefined, fallback: number, option: string): number {
  const result = value ?? fallback;
  if (!Number.isSafeInteger(result) || result <= 0)
    throw new HubError('config', `${option} must be a positive integer (milliseconds or bytes).`);
  return result;
}

function defaultOnError(error: unknown, event: WebhookEvent): void {
  console.error(`[hub-embed/server] webhook callback for "${event.event}" failed:`, error);
}

/**
 * The webhook receiver: allow-list first, then method, media type, size and shape, then the callback.
 * billing_deduct always answers 200 and says ok:true only for a `true` returned before the deadline.
 */
export function createWebhookHandler(options: WebhookHandlerOptions): WebhookHandler {
  if (typeof options?.onBillingDeduct !== 'function') {
    throw new HubError(
      'config',
      'createWebhookHandler needs onBillingDeduct: deductions cannot be answered without your ledger.',
    );
  }
  const filter = createAddressFilter(options.allowIps, options.trustedProxies ?? []);
  const deadlineMs = positiveInteger(options.deadlineMs, 8000, 'deadlineMs');
  if (deadlineMs >= 10_000)
    throw new HubError(
      'config',
      "deadlineMs must stay below the service's 10 s timeout, or the service decides instead of you.",
    );
  const maxBodyBytes = positiveInteger(options.maxBodyBytes, 65_536, 'maxBodyBytes');
  const onError = options.onError ?? defaultOnError;

  return async (request, info) => {
    // The deadline counts from arrival: reading the body also spends the service's 10 seconds.
    const arrivedAt = Date.now();
    if (!filter.isAllowed(filter.sourceOf(request.headers, info ?? {}))) return problem(403, 'Forbidden.');
    if (request.method !== 'POST') return problem(405, 'Use POST.', { allow: 'POST' });
    if (!isJsonContentType(request.headers.get('content-type')))
      return problem(415, 'Use Content-Type: application/json.');

    const body = await readJsonBody(request, maxBodyBytes);
    if (!body.ok) return problem(BODY_STATUS[body.problem], BODY_MESSAGE[body.problem]);
    const base = parseEventBase(body.value);
    if (!base.ok) return problem(400, base.reason);
    const header = request.headers.get('x-webhook-event');
    if (header !== base.event.event) return problem(400, 'X-Webhook-Event must equal the body\'s "event".');

    const event = base.event;
    if (event.event === 'billing_deduct') {
      const parsed = parseBilling({ ...event, event: 'billing_deduct' as const });
      // A deduction we cannot read is a deduction we must not confirm, and the service wants 200 either way.
      if (!parsed.ok) return json(200, { ok: false });
      const remaining = deadlineMs - (Date.now() - arrivedAt);
      const ok = await deductWithin(options.onBillingDeduct, parsed.event, remaining, onError);
      return json(200, { ok });
    }
    if (event.event === 'billing_refund') {
      const parsed = parseBilling({ ...event, event: 'billing_refund' as const });
      if (!parsed.ok) return problem(400, parsed.reason);
      if (!options.onBillingRefund) return problem(501, 'No refund handler is configured.');
      return (await settle(() => options.onBillingRefund!(parsed.event), parsed.event, onError))
        ? json(200, { ok: true })
        : problem(500, 'Refund failed.');
    }
    if (isNotificationEvent(event.event)) {
      const parsed = parseNotification({ ...event, event: event.event });
      if (!parsed.ok) return problem(400, parsed.reason);
      const handler = options.onNotification;
      if (handler && !(await settle(() => handler(parsed.event), parsed.event, onError)))
        return problem(500, 'Notification handler failed.');
      return new Response(null, { status: 204 });
    }
    const unknown = options.onUnknownEvent;
    if (unknown && !(await settle(() => unknown(event), event, onError))) return problem(500, 'Event handler failed.');
    return new Response(null, { status: 204 });
  };
}

async function settle(
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

async function deductWithin(
  handler: WebhookHandlerOptions['onBillingDeduct'],
  event: BillingDeductEvent,
  remainingMs: number,
  onError: (error: unknown, event: WebhookEvent) => void,
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
