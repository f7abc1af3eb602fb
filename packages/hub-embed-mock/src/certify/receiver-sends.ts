/**
 * How the receiver's rules talk to the receiver: the simulator's deliveries, the grader's own sends (from
 * an address and with headers of its choosing), and the balance read around them.
 */
import { undocumentedAnswer } from '../documented-answers.js';
import { isoBeijing, centsToYuan } from '../http.js';
import type { Simulator, WebhookDelivery } from '../types.js';
import { check, type Answer } from './grading.js';
import { exchangesSeen } from './observe.js';
import { describeAnswer, probe, statusOf, type ProbeAnswer } from './probe.js';

export interface ReceiverContext {
  hub: Simulator;
  receiverUrl: string;
  /** The end user the deliveries target (the first session's user). */
  user: string;
  /** The user's balance in the receiver's own ledger, in cents (the balance hook). */
  balance(): Promise<number>;
  /** The JSON of the links hook, where the receiver shows the links it built; undefined when not given. */
  links: (() => Promise<unknown>) | undefined;
  shortCode: string;
  /** The service's overall webhook timeout (10 s by the spec). */
  deliveryTimeoutMs: number;
  /** An address on no allow-list, on this machine (127.0.0.2). */
  strangerAddress: string;
  /** Every answer the receiver gave, for the rules graded over all answers. */
  answers: Answer[];
  /** A fresh marker, so no two bodies the grader sends are equal. */
  nonce(): string;
  /** Makes an end user known to the service (one exchange with the key), as any user of the service is. */
  makeKnown(user: string): Promise<void>;
  /** The second session's user and their balance in the receiver's ledger, when two sessions were given. */
  other: { user: string; balance(): Promise<number> } | undefined;
}

export type Note = (line: string) => void;

/** The receiver's answer to a delivery of the simulator is one openapi.json documents for the event. */
export function checkDocumented(delivery: WebhookDelivery): void {
  const undocumented = undocumentedAnswer(delivery.event, delivery.status, delivery.responseBody ?? '');
  check(undocumented === undefined, undocumented ?? '');
}

export function deliveryLine(delivery: WebhookDelivery | undefined): string {
  if (!delivery) return 'no delivery was made (is the receiver URL configured?)';
  const answered =
    delivery.status === undefined
      ? `${delivery.outcome}: ${delivery.error ?? ''}`
      : `${delivery.status} ${delivery.responseBody ?? ''}`;
  return `${delivery.event} ${JSON.stringify(delivery.body.billing ?? delivery.body.notification ?? {})} -> ${answered.slice(0, 160)} (${delivery.durationMs} ms)`;
}

export async function trigger(
  context: ReceiverContext,
  note: Note,
  input: { event: string } & Record<string, unknown>,
): Promise<WebhookDelivery> {
  const result = await context.hub.trigger({ clientUserId: context.user, shortCode: context.shortCode, ...input });
  const [delivery] = result.deliveries;
  note(`simulator sent ${deliveryLine(delivery)}`);
  check(delivery, 'the simulator made no delivery');
  context.answers.push(answerOf(delivery));
  return delivery;
}

export function answerOf(delivery: WebhookDelivery): Answer {
  return {
    part: 'receiver',
    event: delivery.event,
    status: delivery.status,
    headers: {},
    body: delivery.responseBody ?? '',
    ms: delivery.durationMs,
  };
}

export async function resend(
  context: ReceiverContext,
  note: Note,
  original: WebhookDelivery,
): Promise<WebhookDelivery> {
  const delivery = await context.hub.resend(original.id);
  note(`simulator sent the same body again: ${deliveryLine(delivery)}`);
  context.answers.push(answerOf(delivery));
  return delivery;
}

/** A delivery body as the service writes it, for the grader's own sends. */
export function body(context: ReceiverContext, event: string, extra: Record<string, unknown>): Record<string, unknown> {
  return {
    event,
    timestamp: isoBeijing(context.hub.clock.now()),
    short_code: context.shortCode,
    project_icon_url: null,
    target: { client_user_id: context.user },
    ...extra,
  };
}

export function billing(context: ReceiverContext, amount: string): { billing: { amount: string; reason: string } } {
  return { billing: { amount, reason: `certify ${context.nonce()}` } };
}

/**
 * A body of any event the service sends, for the grader's own sends: a billing event of 0.01, or a
 * notification as the simulator would write it.
 */
export function eventBody(context: ReceiverContext, event: string, user = context.user): Record<string, unknown> {
  if (event === 'billing_deduct' || event === 'billing_refund')
    return { ...body(context, event, billing(context, '0.01')), target: { client_user_id: user } };
  const preview = context.hub.triggerPreview({ event, clientUserId: user, shortCode: context.shortCode }).body;
  return { ...preview, timestamp: isoBeijing(context.hub.clock.now()) };
}

export interface SendOptions {
  eventHeader: string;
  localAddress?: string;
  headers?: Record<string, string>;
  lastByteAtMs?: number;
  /** Send the body in even drips over this many ms (the headers at once). */
  dripOverMs?: number;
  timeoutMs?: number;
}

/** The grader's own delivery, from an address and with headers of its choosing. */
export async function send(
  context: ReceiverContext,
  note: Note,
  payload: string,
  options: SendOptions,
): Promise<ProbeAnswer> {
  const answer = await probe(context.receiverUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-webhook-event': options.eventHeader,
      'x-webhook-timestamp': String(Math.floor(context.hub.clock.now() / 1000)),
      ...options.headers,
    },
    body: payload,
    ...(options.localAddress ? { localAddress: options.localAddress } : {}),
    ...(options.lastByteAtMs === undefined ? {} : { lastByteAtMs: options.lastByteAtMs }),
    ...(options.dripOverMs === undefined ? {} : { dripOverMs: options.dripOverMs }),
    timeoutMs: options.timeoutMs ?? context.deliveryTimeoutMs,
  });
  context.answers.push({ ...answer, part: 'receiver', event: options.eventHeader });
  const shown = payload.length > 200 ? `${payload.slice(0, 120)}… (${payload.length} bytes)` : payload;
  const headers = Object.entries(options.headers ?? {});
  // Many headers of one value (the client-address ones) are listed once, with the value once.
  const extra =
    headers.length > 3
      ? ` ${headers.map(([name]) => name).join(', ')} (each naming ${headers[0]![1]})`
      : headers.map(([name, value]) => ` ${name}: ${value}`).join('');
  note(
    `sent${options.localAddress ? ` from ${options.localAddress}` : ''} X-Webhook-Event: ${options.eventHeader}${extra} ${shown} -> ${describeAnswer(answer)}`,
  );
  return answer;
}

/** Runs `act` and checks the receiver's balance did not move (after a moment for work still running). */
export async function unchanged(context: ReceiverContext, note: Note, act: () => Promise<void>): Promise<void> {
  const before = await context.balance();
  await act();
  await new Promise((resolve) => setTimeout(resolve, 200));
  const after = await context.balance();
  note(`balance ${before} -> ${after} cents`);
  check(after === before, `the balance changed from ${before} to ${after} cents`);
}

export async function changedBy(
  context: ReceiverContext,
  note: Note,
  cents: number,
  act: () => Promise<void>,
): Promise<void> {
  const before = await context.balance();
  await act();
  const after = await context.balance();
  note(`balance ${before} -> ${after} cents`);
  check(after - before === cents, `the balance changed by ${after - before} cents, not ${cents}`);
}

/** The `X-Webhook-Timestamp` the service sends, one second on: a later delivery of the same body. */
export const secondLater = (context: ReceiverContext) => String(Math.floor(context.hub.clock.now() / 1000) + 1);

/** How long a backend may take to exchange a token for a notification's link after answering it. */
export const EXCHANGE_WAIT_MS = 10_000;

export async function exchangedFor(
  context: ReceiverContext,
  user: string,
  before: number,
  waitMs = EXCHANGE_WAIT_MS,
): Promise<boolean> {
  const deadline = performance.now() + waitMs;
  for (;;) {
    if (exchangesSeen(context.hub).filter((seen) => seen === user).length > before) return true;
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export const countFor = (context: ReceiverContext, user: string) =>
  exchangesSeen(context.hub).filter((seen) => seen === user).length;

/** Gives back what a rule's wrong charges took, so the rules after it have the balance they need. */
export async function giveBack(context: ReceiverContext, note: Note, before: number): Promise<void> {
  const after = await context.balance();
  if (after >= before) return;
  const refund = await send(
    context,
    note,
    JSON.stringify(body(context, 'billing_refund', billing(context, centsToYuan(before - after)))),
    { eventHeader: 'billing_refund' },
  );
  note(`refunded ${before - after} cents -> ${statusOf(refund)}`);
}
