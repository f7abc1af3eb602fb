/**
 * Outbound webhooks per the spec's Events section: POST JSON, one attempt, every matching
 * configuration once and in order, every delivery recorded with its outcome.
 */
import type { BillingEventName, NotificationEventName } from '../../../src/server/webhook-events.js';
import type { SendResult, WebhookBody, WebhookConfig, WebhookDelivery, WebhookSender } from './types.js';

/**
 * The object each event carries beside the common fields. The event names have one definition, the
 * server toolkit's `NOTIFICATION_EVENTS` and `BillingEventName`; mock/ may take only types from the rest of
 * src/, so this table is checked against those types: an event added to or missing from either side, or
 * of the wrong kind, fails the type check.
 */
const EVENT_KINDS = {
  order_matched: 'notification',
  order_created: 'notification',
  order_grab_available: 'notification',
  order_dispatched: 'notification',
  order_grabbed: 'notification',
  enterprise_authorization_pending: 'notification',
  enterprise_authorization_approved: 'notification',
  billing_deduct: 'billing',
  billing_refund: 'billing',
} as const satisfies { readonly [E in NotificationEventName]: 'notification' } & {
  readonly [E in BillingEventName]: 'billing';
};

export type WebhookKind = (typeof EVENT_KINDS)[keyof typeof EVENT_KINDS];
export type MockEventName = keyof typeof EVENT_KINDS;

/** Every event the simulator can send, notifications first, in the spec's order. */
export const ALL_EVENTS = Object.keys(EVENT_KINDS) as readonly MockEventName[];

/** The events of one kind, in the spec's order. */
export function eventsOfKind(kind: WebhookKind): readonly MockEventName[] {
  return ALL_EVENTS.filter((event) => EVENT_KINDS[event] === kind);
}

/**
 * The platform's outbound IPs, shown in the console and the CLI banner for the receiver's allow-list.
 * The simulator sends from this machine: a receiver on loopback sees 127.0.0.1.
 */
export const OUTBOUND_IPS: readonly string[] = ['127.0.0.1'];

/** How much of a receiver's answer the delivery log keeps. */
export const RESPONSE_BODY_KEPT = 4096;

/** What an event carries; an event the spec does not name is sent as a notification. */
export function kindOf(event: string): WebhookKind {
  return isEventName(event) ? EVENT_KINDS[event] : 'notification';
}

function isEventName(event: string): event is MockEventName {
  return Object.hasOwn(EVENT_KINDS, event);
}

/** The configurations an event goes to, in configuration order; a URL set twice is called twice. */
export function matchingUrls(configs: WebhookConfig[], event: string): string[] {
  const kind = kindOf(event);
  return configs
    .filter((config) => !config.events || config.events.includes(event))
    .map((config) => (kind === 'billing' ? config.billing_url : config.notification_url))
    .filter((url): url is string => typeof url === 'string');
}

/**
 * The portable sender: fetch with an overall deadline. fetch cannot tell connecting from waiting,
 * so the connect limit is only enforced by the Node sender (node-sender.ts).
 */
export function fetchWebhookSender(fetchImpl: typeof fetch): WebhookSender {
  return async (url, init) => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), init.timeoutMs);
    try {
      const res = await fetchImpl(url, {
        method: 'POST',
        headers: init.headers,
        body: init.body,
        signal: controller.signal,
        redirect: 'manual',
      });
      const body = await res.text();
      return { kind: 'response', status: res.status, body } satisfies SendResult;
    } catch (error) {
      if (controller.signal.aborted)
        return { kind: 'timeout', error: `No complete answer within ${init.timeoutMs} ms.` };
      return { kind: 'network-error', error: error instanceof Error ? error.message : String(error) };
    } finally {
      clearTimeout(timer);
    }
  };
}

export interface DispatchContext {
  sender: WebhookSender;
  connectTimeoutMs: number;
  timeoutMs: number;
  now: () => number;
  record: (delivery: Omit<WebhookDelivery, 'id'>) => WebhookDelivery;
}

/** A billing_deduct counts as paid only on HTTP 200 with a JSON body whose `ok` is exactly true. */
function deductOk(result: SendResult): boolean {
  if (result.kind !== 'response' || result.status !== 200) return false;
  try {
    const parsed: unknown = JSON.parse(result.body);
    return typeof parsed === 'object' && parsed !== null && (parsed as { ok?: unknown }).ok === true;
  } catch {
    return false;
  }
}

/** Sends one event to each URL in turn (never in parallel, never twice) and returns the records. */
export async function dispatch(
  ctx: DispatchContext,
  urls: string[],
  body: WebhookBody,
  extra: Pick<WebhookDelivery, 'resendOf'> = {},
): Promise<WebhookDelivery[]> {
  const kind = kindOf(body.event);
  const payload = JSON.stringify(body);
  const deliveries: WebhookDelivery[] = [];
  for (const url of urls) {
    const headers = {
      'Content-Type': 'application/json',
      'X-Webhook-Event': body.event,
      'X-Webhook-Timestamp': String(Math.floor(ctx.now() / 1000)),
    };
    const started = performance.now();
    const result = await ctx.sender(url, {
      headers,
      body: payload,
      connectTimeoutMs: ctx.connectTimeoutMs,
      timeoutMs: ctx.timeoutMs,
    });
    const durationMs = Math.round(performance.now() - started);
    const base = { time: ctx.now(), event: body.event, kind, url, body, headers, durationMs, ...extra };
    let delivery: Omit<WebhookDelivery, 'id'>;
    if (result.kind === 'response') {
      const delivered = result.status >= 200 && result.status < 300;
      delivery = {
        ...base,
        outcome: delivered ? 'delivered' : 'rejected',
        status: result.status,
        responseBody: result.body.slice(0, RESPONSE_BODY_KEPT),
      };
      if (body.event === 'billing_deduct') delivery.ok = deductOk(result);
    } else {
      delivery = { ...base, outcome: result.kind, error: result.error };
      if (body.event === 'billing_deduct') delivery.ok = false;
    }
    deliveries.push(ctx.record(delivery));
  }
  return deliveries;
}
