/** The webhook receiver: its options, checked once, and each admitted delivery's event passed to its callback. */
import { HubError } from '../core/errors.js';
import { isRecord } from '../core/records.js';
import { createAddressFilter, type ClientAddressHeader, type SourceInfo } from './addresses.js';
import type { JsonBodyResult } from './body.js';
import { BODY_MESSAGE, json, problem } from './webhook-answers.js';
import { callbackSucceeded, deductWithin, type DeductContext } from './webhook-callbacks.js';
import {
  isNotificationEvent,
  parseBilling,
  parseEventBase,
  parseNotification,
  type BillingEvent,
  type BillingEventName,
  type BillingDeductEvent,
  type BillingRefundEvent,
  type NotificationEvent,
  type UnknownEvent,
  type WebhookEvent,
} from './webhook-events.js';
import { createDeliveryGate } from './webhook-gate.js';
import { createRejectionLogger, type WebhookRejection } from './webhook-rejections.js';
import { checkedOnUse, reportOnce, settingError, unsetSetting } from './settings.js';

export interface WebhookHandlerOptions {
  /**
   * The platform's outbound IPs from the console: single addresses or CIDR ranges, IPv4 or IPv6. Checked at
   * the first delivery with trustedProxies and clientAddressHeader, so a build without them may create the
   * handler; until they are right every delivery is answered 500.
   */
  allowIps: readonly string[] | undefined;
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
  /**
   * How long an allowed sender's body may take to arrive, in ms; a slower one is answered 408 and its
   * connection closed. A delivery is a few KB sent at once, so a trickling body is a sender holding
   * connections open (Node's own limit is its 300 s requestTimeout). Default 5000.
   */
  bodyTimeoutMs?: number;
}

/** What the receiver is told besides the request: its source address and, where a runtime needs it, how to outlive the answer. */
export interface WebhookRequestInfo extends SourceInfo {
  /**
   * Cloudflare Workers (workerd) ends a request's work once its answer is sent. Pass `ctx.waitUntil` there
   * (Hono: `c.executionCtx.waitUntil`): an onBillingDeduct still running at the deadline is then let
   * finish, so the roll-back its aborted `signal` asks for happens. Node, Bun and Deno need nothing.
   */
  waitUntil?: ((promise: Promise<unknown>) => void) | undefined;
}

export type WebhookHandler = (request: Request, info: WebhookRequestInfo) => Promise<Response>;

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
  checkRefunds(options);
  const deadlineMs = positiveInteger(options.deadlineMs, 8000, 'deadlineMs');
  if (deadlineMs >= 10_000)
    throw new HubError(
      'config',
      "deadlineMs must stay below the service's 10 s timeout, or the service decides instead of you.",
    );
  const maxBodyBytes = positiveInteger(options.maxBodyBytes, 65_536, 'maxBodyBytes');
  const bodyTimeoutMs = positiveInteger(options.bodyTimeoutMs, 5000, 'bodyTimeoutMs');
  const onError = options.onError ?? defaultOnError;
  const onRejected = options.onRejected ?? createRejectionLogger();

  function reject(rejection: WebhookRejection): void {
    try {
      onRejected(rejection);
    } catch {
      // A failing logger must not change the answer.
    }
  }

  // The address settings come from the environment, so they are checked at the first delivery: a build
  // loads this module without them.
  const admit = checkedOnUse(() =>
    createDeliveryGate({ filter: addressFilterOf(options), maxBodyBytes, bodyTimeoutMs, reject }),
  );
  const rejectUnset = reportOnce((error) =>
    reject({
      reason: 'not-configured',
      address: undefined,
      status: 500,
      message: `${(error as Error).message} Every delivery is answered 500 until that is fixed.`,
    }),
  );

  return async (request, info) => {
    // The deadline counts from arrival: reading the body also spends the service's 10 seconds.
    const arrivedAt = Date.now();
    let gate: ReturnType<typeof admit>;
    try {
      gate = admit();
    } catch (error) {
      const unset = unsetSetting(error);
      if (!unset) throw error;
      rejectUnset(error);
      // Nothing can be judged without the allow-list: refused, and named as the server's own fault.
      return problem(500, `The webhook receiver is not configured: set ${unset.option}. The server log says more.`);
    }
    const delivery = await gate(request, info);
    if (delivery instanceof Response) return delivery;
    const { address, claimed, body, refuse } = delivery;
    const named = body.ok && isRecord(body.value) ? body.value.event : undefined;
    // The spec wants 200 for every deduction, ok:false when it did not happen. A request that calls itself
    // a deduction anywhere (and a refund nowhere: a 200 would confirm a refund) is answered that way.
    const isDeduction =
      (claimed === 'billing_deduct' || named === 'billing_deduct') &&
      claimed !== 'billing_refund' &&
      named !== 'billing_refund';

    const parsed = parseDelivery(body, claimed);
    if (!parsed.ok) {
      if (!isDeduction) return refuse(400, parsed.rejection, parsed.why, parsed.advice);
      reject({
        reason: 'billing-invalid',
        address,
        status: 200,
        message: `${address}: a malformed billing_deduct was answered ok:false without calling onBillingDeduct: ${parsed.why}`,
      });
      return json(200, { ok: false });
    }

    const event = parsed.event;
    if (isBilling(event, 'billing_deduct')) {
      const remaining = deadlineMs - (Date.now() - arrivedAt);
      const ok = await deductWithin(options.onBillingDeduct, event, remaining, onError, info?.waitUntil);
      return json(200, { ok });
    }
    if (isBilling(event, 'billing_refund')) {
      // A non-2xx tells the service the refund was not made, which is the truth.
      if (!options.onBillingRefund)
        return refuse(
          501,
          'refund-not-handled',
          'No refund handler is configured.',
          "a billing_refund was answered 501: no onBillingRefund is configured. The service does not resend it, so give that amount back by hand (the service's points logs show it) and pass onBillingRefund.",
        );
      return (await callbackSucceeded(() => options.onBillingRefund!(event), event, onError))
        ? json(200, { ok: true })
        : problem(500, 'Refund failed.');
    }
    if (isNotification(event)) {
      const handler = options.onNotification;
      if (handler && !(await callbackSucceeded(() => handler(event), event, onError)))
        return problem(500, 'Notification handler failed.');
      return new Response(null, { status: 204 });
    }
    const unknown = options.onUnknownEvent;
    if (unknown && !(await callbackSucceeded(() => unknown(event), event, onError)))
      return problem(500, 'Event handler failed.');
    return new Response(null, { status: 204 });
  };
}

const ALLOW_IPS = { option: 'allowIps (HUB_WEBHOOK_IPS in the docs)', variable: 'HUB_WEBHOOK_IPS' };
const ADDRESS_SETTINGS = { option: 'allowIps, trustedProxies and clientAddressHeader', variable: 'HUB_WEBHOOK_IPS' };

/** The address filter, or a settingError: an empty or absent allow-list is an unset environment variable. */
function addressFilterOf(options: WebhookHandlerOptions) {
  const allowIps: unknown = options.allowIps;
  if (!Array.isArray(allowIps) || allowIps.every((entry) => typeof entry === 'string' && entry.trim() === ''))
    throw settingError(
      ALLOW_IPS,
      "createWebhookHandler's allowIps is not set: give it the platform's outbound IPs from the console, from your server's environment (HUB_WEBHOOK_IPS in the docs, comma-separated).",
    );
  try {
    return createAddressFilter({
      allowIps: options.allowIps!,
      trustedProxies: options.trustedProxies ?? [],
      clientAddressHeader: options.clientAddressHeader,
    });
  } catch (error) {
    throw settingError(ADDRESS_SETTINGS, (error as Error).message);
  }
}

type Parsed =
  | { ok: true; event: WebhookEvent }
  | { ok: false; rejection: 'body-invalid' | 'event-invalid' | 'billing-invalid'; why: string; advice: string };

/**
 * The one parse of a delivery, whatever it calls itself: JSON, the common fields, the header naming the
 * body's own event, then the fields of that event. Only what a failure is answered with depends on
 * whether the delivery is a deduction (200 ok:false) or not (400).
 */
function parseDelivery(body: JsonBodyResult, claimed: string | null): Parsed {
  if (!body.ok)
    return {
      ok: false,
      rejection: 'body-invalid',
      why: BODY_MESSAGE[body.problem],
      advice: 'a body that is not UTF-8 JSON was refused (400).',
    };
  const base = parseEventBase(body.value);
  const eventInvalid = (why: string): Parsed => ({
    ok: false,
    rejection: 'event-invalid',
    why,
    advice: `an event was refused (400): ${why}`,
  });
  if (!base.ok) return eventInvalid(base.reason);
  const name = base.event.event;
  if (claimed !== name) return eventInvalid('X-Webhook-Event must equal the body\'s "event".');
  if (name === 'billing_deduct' || name === 'billing_refund') {
    const billing = parseBilling({ ...base.event, event: name });
    if (billing.ok) return billing;
    return {
      ok: false,
      rejection: 'billing-invalid',
      why: billing.reason,
      advice: `a malformed ${name} was refused (400) without calling onBillingRefund: ${billing.reason}`,
    };
  }
  if (isNotificationEvent(name)) {
    const notification = parseNotification({ ...base.event, event: name });
    return notification.ok ? notification : eventInvalid(notification.reason);
  }
  return base;
}

function isBilling<E extends BillingEventName>(event: WebhookEvent, name: E): event is BillingEvent & { event: E } {
  return event.event === name;
}

function isNotification(event: WebhookEvent): event is NotificationEvent {
  return isNotificationEvent(event.event);
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
