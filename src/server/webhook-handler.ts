import { HubError } from '../core/errors.js';
import { createAddressFilter, type AddressVerdict, type ClientAddressHeader, type SourceInfo } from './addresses.js';
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
  /**
   * The one header your trusted proxy sets to the client's address. Required with trustedProxies (no
   * default: a guess is what let a client-supplied X-Forwarded-For through); unused without them.
   */
  clientAddressHeader?: ClientAddressHeader;
  /**
   * Told about every delivery refused before your callbacks (403, 405, 413, 415, 400, a billing_deduct
   * answered ok:false because it is malformed, and a billing_refund answered 501 for want of
   * onBillingRefund). Default: one console line per distinct address and reason.
   */
  onRejected?: (rejection: WebhookRejection) => void;
  onNotification?: (event: NotificationEvent) => unknown;
  /** Deduct on your side; return true only when the charge succeeded. Anything else answers ok:false. */
  onBillingDeduct: (event: BillingDeductEvent, context: DeductContext) => boolean | Promise<boolean>;
  /** Give the amount back. Without it (and without `refunds: 'decline'`) the handler warns at start-up. */
  onBillingRefund?: (event: BillingRefundEvent) => unknown;
  /**
   * `'decline'`: this receiver makes no refunds, on purpose. Each billing_refund is answered 501 (the
   * service counts it as not delivered and never resends it) and reported to onRejected, and the start-up
   * warning is not printed. Not allowed together with onBillingRefund.
   */
  refunds?: 'decline';
  onUnknownEvent?: (event: UnknownEvent) => unknown;
  /** Called with every callback failure (a throw, a missed deadline). Default: console.error. */
  onError?: (error: unknown, event: WebhookEvent) => void;
  /** billing_deduct answers ok:false after this long, well before the service's own 10 s timeout. */
  deadlineMs?: number;
  maxBodyBytes?: number;
}

export type WebhookHandler = (request: Request, info: SourceInfo) => Promise<Response>;

export type WebhookRejectionReason =
  | 'no-source-address'
  | 'address-not-allowed'
  | 'forwarded-address-invalid'
  | 'forwarded-headers-conflict'
  | 'forwarded-header-not-named'
  | 'method-not-allowed'
  | 'unsupported-media-type'
  | 'body-too-large'
  | 'body-invalid'
  | 'event-invalid'
  | 'billing-invalid'
  | 'refund-not-handled';

export interface WebhookRejection {
  reason: WebhookRejectionReason;
  /** The address the request was judged by (a canonical IP), or undefined when there was none. */
  address: string | undefined;
  /** The HTTP status answered; 200 for a malformed billing_deduct (answered ok:false), 501 for an unhandled refund. */
  status: number;
  /** One line: what was refused and what to do about it. Never contains request text. */
  message: string;
}

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

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

function addressMessage(verdict: Exclude<AddressVerdict, { allowed: true }>): string {
  const { address, socketAddress } = verdict;
  switch (verdict.reason) {
    case 'no-source-address':
      return 'A request without a socket address was refused (403); pass { remoteAddress: req.socket.remoteAddress } (toNodeListener does).';
    case 'forwarded-address-invalid':
      return `The forwarded address from trusted proxy ${socketAddress} is not a canonical IP address (IPv4 must be dotted decimal without leading zeros); refused (403). Check what your proxy sets.`;
    case 'forwarded-headers-conflict':
      return `X-Forwarded-For and X-Real-IP from trusted proxy ${socketAddress} name different clients, so one came from the client; refused (403). Make the proxy set both (nginx: proxy_set_header X-Real-IP $remote_addr; proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;).`;
    case 'forwarded-header-not-named':
      return `Trusted proxy ${socketAddress} forwarded the client's address, but not in the header named by clientAddressHeader; refused (403) rather than judged by the proxy's own address. Name the header this proxy sets (see docs/server.md, "Source address").`;
    case 'address-not-allowed':
      if (LOOPBACK.test(address!)) return `${address} is not in allowIps; add it for local testing with the simulator.`;
      if (verdict.forwardedIgnored)
        return `${address} is not in allowIps. The request carries a forwarded address, which counts only from trustedProxies: if ${address} is your reverse proxy, add it to trustedProxies and set clientAddressHeader.`;
      return `${address} is not in allowIps; if it is one of the platform's outbound IPs shown in the console, add it.`;
  }
}

/** Remembers at most this many (address, reason) pairs, so a flood of addresses cannot grow memory. */
const MAX_REMEMBERED_REJECTIONS = 1000;

/** One console line per distinct address and reason: enough to learn why nothing arrives, not a log flood. */
export function createRejectionLogger(
  log: (line: string) => void = console.warn,
): (rejection: WebhookRejection) => void {
  const seen = new Set<string>();
  let silenced = false;
  return (rejection) => {
    const key = `${rejection.address ?? ''} ${rejection.reason}`;
    if (silenced || seen.has(key)) return;
    if (seen.size === MAX_REMEMBERED_REJECTIONS) {
      silenced = true;
      log(
        '[hub-embed/server] webhook: many distinct refusals; further ones are not printed. Pass onRejected to see every one.',
      );
      return;
    }
    seen.add(key);
    log(`[hub-embed/server] webhook: ${rejection.message}`);
  };
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
  checkRefunds(options);
  const filter = createAddressFilter({
    allowIps: options.allowIps,
    trustedProxies: options.trustedProxies ?? [],
    clientAddressHeader: options.clientAddressHeader,
  });
  const deadlineMs = positiveInteger(options.deadlineMs, 8000, 'deadlineMs');
  if (deadlineMs >= 10_000)
    throw new HubError(
      'config',
      "deadlineMs must stay below the service's 10 s timeout, or the service decides instead of you.",
    );
  const maxBodyBytes = positiveInteger(options.maxBodyBytes, 65_536, 'maxBodyBytes');
  const onError = options.onError ?? defaultOnError;
  const onRejected = options.onRejected ?? createRejectionLogger();

  function reject(rejection: WebhookRejection): void {
    try {
      onRejected(rejection);
    } catch {
      // A failing logger must not change the answer.
    }
  }

  return async (request, info) => {
    // The deadline counts from arrival: reading the body also spends the service's 10 seconds.
    const arrivedAt = Date.now();
    const verdict = filter.judge(request.headers, info ?? {});
    if (!verdict.allowed) {
      reject({ reason: verdict.reason, address: verdict.address, status: 403, message: addressMessage(verdict) });
      return problem(403, 'Forbidden.');
    }
    const address = verdict.address;
    const refuse = (
      status: number,
      reason: WebhookRejectionReason,
      error: string,
      advice: string,
      headers: Record<string, string> = {},
    ) => {
      reject({ reason, address, status, message: `${address}: ${advice}` });
      return problem(status, error, headers);
    };
    if (request.method !== 'POST')
      return refuse(
        405,
        'method-not-allowed',
        'Use POST.',
        'a request that is not POST was refused (405); the service sends POST only.',
        {
          allow: 'POST',
        },
      );
    if (!isJsonContentType(request.headers.get('content-type')))
      return refuse(
        415,
        'unsupported-media-type',
        'Use Content-Type: application/json.',
        'a request without Content-Type: application/json was refused (415).',
      );

    const claimed = request.headers.get('x-webhook-event');
    const body = await readJsonBody(request, maxBodyBytes);
    if (!body.ok && body.problem === 'too-large')
      return refuse(
        413,
        'body-too-large',
        BODY_MESSAGE['too-large'],
        `a body over maxBodyBytes (${maxBodyBytes}) was refused (413); raise maxBodyBytes if real events are larger.`,
      );
    const named = body.ok && isRecord(body.value) ? body.value.event : undefined;

    // The spec wants 200 for every deduction, ok:false when it did not happen. A request that calls itself
    // a deduction anywhere (and a refund nowhere: a 200 would confirm a refund) is answered that way.
    const isDeduction =
      (claimed === 'billing_deduct' || named === 'billing_deduct') &&
      claimed !== 'billing_refund' &&
      named !== 'billing_refund';
    if (isDeduction) {
      const decline = (why: string) => {
        reject({
          reason: 'billing-invalid',
          address,
          status: 200,
          message: `${address}: a malformed billing_deduct was answered ok:false without calling onBillingDeduct: ${why}`,
        });
        return json(200, { ok: false });
      };
      if (!body.ok) return decline(BODY_MESSAGE[body.problem]);
      const base = parseEventBase(body.value);
      if (!base.ok) return decline(base.reason);
      if (claimed !== named) return decline('X-Webhook-Event must equal the body\'s "event".');
      const parsed = parseBilling({ ...base.event, event: 'billing_deduct' as const });
      if (!parsed.ok) return decline(parsed.reason);
      const remaining = deadlineMs - (Date.now() - arrivedAt);
      const ok = await deductWithin(options.onBillingDeduct, parsed.event, remaining, onError);
      return json(200, { ok });
    }

    if (!body.ok)
      return refuse(
        400,
        'body-invalid',
        BODY_MESSAGE[body.problem],
        `a body that is not UTF-8 JSON was refused (400).`,
      );
    const base = parseEventBase(body.value);
    if (!base.ok) return refuse(400, 'event-invalid', base.reason, `an event was refused (400): ${base.reason}`);
    if (claimed !== base.event.event) {
      const why = 'X-Webhook-Event must equal the body\'s "event".';
      return refuse(400, 'event-invalid', why, `an event was refused (400): ${why}`);
    }

    const event = base.event;
    if (event.event === 'billing_refund') {
      const parsed = parseBilling({ ...event, event: 'billing_refund' as const });
      // A non-2xx tells the service the refund was not made, which is the truth.
      if (!parsed.ok)
        return refuse(
          400,
          'billing-invalid',
          parsed.reason,
          `a malformed billing_refund was refused (400) without calling onBillingRefund: ${parsed.reason}`,
        );
      if (!options.onBillingRefund)
        return refuse(
          501,
          'refund-not-handled',
          'No refund handler is configured.',
          "a billing_refund was answered 501: no onBillingRefund is configured. The service does not resend it, so give that amount back by hand (the service's points logs show it) and pass onBillingRefund.",
        );
      return (await settle(() => options.onBillingRefund!(parsed.event), parsed.event, onError))
        ? json(200, { ok: true })
        : problem(500, 'Refund failed.');
    }
    if (isNotificationEvent(event.event)) {
      const parsed = parseNotification({ ...event, event: event.event });
      if (!parsed.ok)
        return refuse(400, 'event-invalid', parsed.reason, `an event was refused (400): ${parsed.reason}`);
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

const NO_REFUND_HANDLER =
  "[hub-embed/server] createWebhookHandler has no onBillingRefund: every billing_refund will be answered 501, and the service does not resend it, so each refund is lost. Pass onBillingRefund to give the amount back, or refunds: 'decline' if this receiver makes no refunds on purpose.";

/** A receiver without refunds is either a choice, said with refunds: 'decline', or a warning at start-up. */
function checkRefunds(options: WebhookHandlerOptions): void {
  if (options.refunds !== undefined && options.refunds !== 'decline')
    throw new HubError('config', `refunds must be 'decline' or left out; got ${JSON.stringify(options.refunds)}.`);
  const handled = options.onBillingRefund !== undefined;
  if (handled && typeof options.onBillingRefund !== 'function')
    throw new HubError('config', 'onBillingRefund must be a function.');
  if (handled && options.refunds === 'decline')
    throw new HubError(
      'config',
      "onBillingRefund and refunds: 'decline' contradict each other: pass onBillingRefund to make refunds, or refunds: 'decline' to answer them 501.",
    );
  if (!handled && options.refunds !== 'decline') console.warn(NO_REFUND_HANDLER);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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
