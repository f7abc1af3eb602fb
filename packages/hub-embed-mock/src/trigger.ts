/**
 * Test events with chosen fields (the console's interface test simulator, `hub-embed-mock trigger`):
 * any of the nine events, every field pre-filled from the state and overridable, sent through the
 * real dispatch so the delivery is logged and can be resent. A billing_deduct is then decided by the
 * form's own rule (billing.ts) and written to the user's points log.
 */
import { settleDeduct } from './billing.js';
import type { HubContext } from './context.js';
import { MockHttpError, centsToYuan, optionalString, requireAmountCents, requireId } from './http.js';
import { iconUrl } from './icons.js';
import { checkLinkUrl } from './links.js';
import type { Account } from './state.js';
import type { SeedTable, TriggerInput, TriggerResult, WebhookBody } from './types.js';
import { ALL_EVENTS, kindOf, matchingUrls } from './webhooks.js';

const MAX_SETS = 50;
const SET_PATH = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;
const FORBIDDEN_SEGMENTS = new Set(['__proto__', 'prototype', 'constructor']);

export function requireText(value: unknown, field: string, max: number): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw new MockHttpError(400, `${field} is required and must be a non-empty string.`);
  if (value.length > max) throw new MockHttpError(400, `${field} must be at most ${max} characters.`);
  return value;
}

/** Yuan with exactly two decimals ("1.50"), as billing.amount is written; returns cents. */
export function yuanToCents(value: unknown, field: string): number {
  if (typeof value !== 'string' || !/^\d{1,8}\.\d{2}$/.test(value))
    throw new MockHttpError(400, `${field} must be yuan with two decimals, such as "1.50".`);
  const [whole, fraction] = value.split('.');
  return requireAmountCents(Number(whole) * 100 + Number(fraction), field);
}

/** The `notification` object of an event; the link defaults to the table's form path. */
export function notificationOf(
  table: SeedTable | undefined,
  title: unknown,
  content: unknown,
  linkUrl: unknown,
): NonNullable<WebhookBody['notification']> {
  const link = optionalString(linkUrl, 'link_url', 2048) ?? (table ? `/${encodeURIComponent(table.short_code)}` : '/');
  return {
    title: requireText(title, 'title', 200),
    content: requireText(content, 'content', 2000),
    link_url: checkLinkUrl(link),
  };
}

/** Sets `value` at a dotted path of `body`, making objects on the way; `event` and `timestamp` stay. */
function setPath(body: Record<string, unknown>, path: string, value: unknown): void {
  if (!SET_PATH.test(path) || path.length > 200)
    throw new MockHttpError(400, `set: ${JSON.stringify(path.slice(0, 60))} is not a dotted field path.`);
  const segments = path.split('.');
  if (segments.some((segment) => FORBIDDEN_SEGMENTS.has(segment)))
    throw new MockHttpError(400, `set: ${JSON.stringify(path)} names a forbidden field.`);
  if (segments[0] === 'event' || segments[0] === 'timestamp')
    throw new MockHttpError(400, `set: ${segments[0]} is set by the simulator (choose the event itself).`);
  let target = body;
  for (const segment of segments.slice(0, -1)) {
    const next = target[segment];
    if (next === undefined || next === null) {
      const made: Record<string, unknown> = {};
      target[segment] = made;
      target = made;
    } else if (typeof next === 'object' && !Array.isArray(next)) target = next as Record<string, unknown>;
    else throw new MockHttpError(400, `set: ${JSON.stringify(path)} goes through a field that is not an object.`);
  }
  target[segments.at(-1)!] = value;
}

function applySets(body: Record<string, unknown>, set: unknown): void {
  if (set === undefined || set === null) return;
  if (typeof set !== 'object' || Array.isArray(set))
    throw new MockHttpError(400, 'set must be an object of dotted field paths and JSON values.');
  const entries = Object.entries(set);
  if (entries.length > MAX_SETS) throw new MockHttpError(400, `set takes at most ${MAX_SETS} fields.`);
  for (const [path, value] of entries) setPath(body, path, value);
}

interface Draft {
  account: Account;
  event: string;
  body: Omit<WebhookBody, 'timestamp'>;
  urls: string[];
  table: SeedTable | undefined;
  clientUserId: string | null;
  amountCents: number | undefined;
  /** billing events: billing.reason as sent (after --set), for the log record. */
  reason: string | undefined;
}

/** The body's billing.amount in cents, or undefined when it is not an amount of yuan. */
function sentAmountCents(body: Record<string, unknown>): number | undefined {
  try {
    return yuanToCents((body.billing as { amount?: unknown } | undefined)?.amount, 'billing.amount');
  } catch {
    return undefined;
  }
}

/** The body's billing.reason when it is text (at most 500 characters, as `reason` itself), else undefined. */
function sentReason(body: Record<string, unknown>): string | undefined {
  const reason = (body.billing as { reason?: unknown } | undefined)?.reason;
  return typeof reason === 'string' && reason.length <= 500 ? reason : undefined;
}

export function createTrigger(context: HubContext) {
  const { state } = context;

  /** Checks everything and builds the body; sends nothing and changes nothing. */
  function draftEvent(input: TriggerInput): Draft {
    const event = input.event;
    if (typeof event !== 'string' || !(ALL_EVENTS as readonly string[]).includes(event))
      throw new MockHttpError(400, `event must be one of ${ALL_EVENTS.join(', ')}.`);
    const account = state.developer(input.developerId);
    const billing = kindOf(event) === 'billing';
    const enterprise = event.startsWith('enterprise_');

    let shortCode: string;
    if (input.shortCode === undefined || input.shortCode === null)
      shortCode = enterprise ? '' : (state.catalog.query([], 1)[0]?.short_code ?? '');
    else if (typeof input.shortCode === 'string' && input.shortCode.length <= 256) shortCode = input.shortCode;
    else throw new MockHttpError(400, 'short_code must be a string of at most 256 characters.');
    if (shortCode === '' && !enterprise)
      throw new MockHttpError(400, `short_code is required for ${event}; publish or add a table first.`);
    const table = shortCode === '' ? undefined : state.table(shortCode);
    if (shortCode !== '' && !table)
      throw new MockHttpError(404, `No project table with short_code ${JSON.stringify(shortCode)}.`);

    let clientUserId: string | null;
    if (input.clientUserId === undefined) clientUserId = account.users.values().next().value?.clientUserId ?? null;
    else if (input.clientUserId === null) clientUserId = null;
    else clientUserId = requireId(input.clientUserId, 'client_user_id');
    if (billing && clientUserId === null) throw new MockHttpError(400, `client_user_id is required for ${event}.`);

    const body: Record<string, unknown> = {
      event,
      short_code: shortCode,
      project_icon_url: table ? iconUrl(table.icon, context.baseUrl) : null,
      target: { client_user_id: clientUserId },
    };
    let amountCents: number | undefined;
    let reason: string | undefined;
    if (billing) {
      amountCents = yuanToCents(input.amount ?? centsToYuan(table!.price_cents || 100), 'amount');
      reason =
        optionalString(input.reason, 'reason', 500) ??
        (event === 'billing_deduct' ? `Paid action on ${table!.name}` : 'Refund after complaint review');
      body.billing = { amount: centsToYuan(amountCents), reason };
    } else {
      body.notification = notificationOf(
        table,
        input.title ?? `Test ${event}`,
        input.content ?? `A test ${event} event from the simulator's console.`,
        input.linkUrl,
      );
    }
    applySets(body, input.set);
    // The log records the amount sent: one set with --set billing.amount counts too. One that is no amount
    // at all (sent on purpose, to see the receiver refuse it) leaves the log at --amount.
    if (billing) amountCents = sentAmountCents(body) ?? amountCents;
    // The same for the reason: the log names the reason sent, unless --set made it something else than text.
    if (billing) reason = sentReason(body) ?? reason;
    const notification = body.notification as { link_url?: unknown } | undefined;
    if (notification && typeof notification.link_url === 'string') checkLinkUrl(notification.link_url);
    // A deduct is logged against a known user, found before anything is sent.
    if (event === 'billing_deduct') state.knownUser(account, clientUserId!);
    return {
      account,
      event,
      body: body as unknown as Omit<WebhookBody, 'timestamp'>,
      urls: matchingUrls(account.webhooks, event),
      table,
      clientUserId,
      amountCents,
      reason,
    };
  }

  return {
    /** What `trigger` would send, and where: the console pre-fills its form from this. */
    preview(input: TriggerInput): { body: Omit<WebhookBody, 'timestamp'>; urls: string[] } {
      const { body, urls } = draftEvent(input);
      return { body, urls };
    },
    async trigger(input: TriggerInput): Promise<TriggerResult> {
      const draft = draftEvent(input);
      if (draft.urls.length === 0)
        throw new MockHttpError(
          409,
          `No ${kindOf(draft.event)} URL is configured for ${draft.event}; set one under Webhooks (or --webhook-url).`,
        );
      const deliveries = await context.sendWebhook(draft.account.id, draft.body);
      const result: TriggerResult = { event: draft.event, deliveries };
      if (draft.event === 'billing_deduct') {
        const user = state.knownUser(draft.account, draft.clientUserId!);
        const sent = { amountCents: draft.amountCents!, reason: draft.reason! };
        result.decision = settleDeduct(state, user, draft.table!, sent, deliveries, context.now());
      }
      return result;
    },
  };
}
