import { isRecord } from '../core/records.js';
import { buildNotificationLink } from '../core/token-links.js';
import { parseYuanToCents } from './amounts.js';

/** The notification events the spec names; each carries a `notification` object. */
export const NOTIFICATION_EVENTS = [
  'order_matched',
  'order_created',
  'order_grab_available',
  'order_dispatched',
  'order_grabbed',
  'enterprise_authorization_pending',
  'enterprise_authorization_approved',
] as const;

export type NotificationEventName = (typeof NOTIFICATION_EVENTS)[number];
export type BillingEventName = 'billing_deduct' | 'billing_refund';

/** Fields every event carries (spec, Events: common body fields). */
export interface WebhookEventBase {
  event: string;
  /** The event time as an instant. */
  timestamp: Date;
  /** The sender's UTC offset in minutes (480 for +08:00), which `timestamp` alone loses. */
  timestampOffsetMinutes: number;
  /** The timestamp exactly as sent, e.g. "2025-01-02T10:00:00+08:00". */
  timestampText: string;
  /** May be "" for enterprise-authorization events. */
  shortCode: string;
  projectIconUrl: string | null;
  /** `target.client_user_id`: the end user, as your own id. */
  clientUserId: string | null;
  /** The parsed JSON body, for fields this toolkit does not know yet. */
  raw: Readonly<Record<string, unknown>>;
}

export interface NotificationEvent extends WebhookEventBase {
  event: NotificationEventName;
  notification: { title: string; content: string; linkUrl: string };
  /**
   * The full link to show the user: form-site root + link_url + `token` (a token you obtained for
   * `clientUserId`, e.g. with `client.exchangeToken`). Throws HubError kind 'config' on an unsafe link_url.
   */
  link(token: string, formSiteRoot: string): string;
}

export interface BillingEvent extends WebhookEventBase {
  event: BillingEventName;
  /** Always a non-empty string: a charge or refund for nobody is refused before your callback. */
  clientUserId: string;
  /** The amount in integer cents ("0.29" -> 29), parsed without floating point. */
  amountCents: number;
  /** The amount exactly as sent, in yuan with two decimals. */
  amount: string;
  /** `billing.reason`, displayable to the user. */
  reason: string;
}

export interface BillingDeductEvent extends BillingEvent {
  event: 'billing_deduct';
}

export interface BillingRefundEvent extends BillingEvent {
  event: 'billing_refund';
}

/** An event this version does not know; handled by `onUnknownEvent`. */
export type UnknownEvent = WebhookEventBase;

export type WebhookEvent = NotificationEvent | BillingDeductEvent | BillingRefundEvent | UnknownEvent;

export type ParseResult<T> = { ok: true; event: T } | { ok: false; reason: string };

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/** ISO 8601 with an offset, strictly: Date.parse alone accepts many other shapes and guesses a zone. */
export function parseTimestamp(text: unknown): { date: Date; offsetMinutes: number } | undefined {
  if (typeof text !== 'string') return undefined;
  const match = TIMESTAMP.exec(text);
  if (!match) return undefined;
  const zone = match[8]!;
  const offsetMinutes =
    zone === 'Z' ? 0 : (zone.startsWith('-') ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  if (Math.abs(offsetMinutes) > 18 * 60) return undefined;
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) return undefined;
  // new Date() rolls 2025-02-30 over to March; a real timestamp survives the round trip.
  const local = new Date(date.getTime() + offsetMinutes * 60_000);
  const [year, month, day, hour, minute] = [1, 2, 3, 4, 5].map((group) => Number(match[group]));
  if (local.getUTCFullYear() !== year || local.getUTCMonth() + 1 !== month || local.getUTCDate() !== day)
    return undefined;
  if (local.getUTCHours() !== hour || local.getUTCMinutes() !== minute) return undefined;
  return { date, offsetMinutes };
}

function optionalString(value: unknown, fallback: string): string | undefined {
  if (value === undefined || value === null) return fallback;
  return typeof value === 'string' ? value : undefined;
}

/** The common fields, or why the body is not an event at all. */
export function parseEventBase(body: unknown): ParseResult<WebhookEventBase> {
  if (!isRecord(body)) return { ok: false, reason: 'The body must be a JSON object.' };
  const { event, timestamp } = body;
  if (typeof event !== 'string' || event === '') return { ok: false, reason: '"event" must be a non-empty string.' };
  const time = parseTimestamp(timestamp);
  if (!time)
    return { ok: false, reason: '"timestamp" must be ISO 8601 with an offset, e.g. 2025-01-02T10:00:00+08:00.' };
  const shortCode = optionalString(body.short_code, '');
  if (shortCode === undefined) return { ok: false, reason: '"short_code" must be a string.' };
  const icon = body.project_icon_url;
  if (icon !== undefined && icon !== null && typeof icon !== 'string')
    return { ok: false, reason: '"project_icon_url" must be a string or null.' };
  const target = body.target;
  if (target !== undefined && target !== null && !isRecord(target))
    return { ok: false, reason: '"target" must be an object.' };
  const userId = isRecord(target) ? target.client_user_id : undefined;
  if (userId !== undefined && userId !== null && typeof userId !== 'string') {
    return { ok: false, reason: '"target.client_user_id" must be a string or null.' };
  }
  return {
    ok: true,
    event: {
      event,
      timestamp: time.date,
      timestampOffsetMinutes: time.offsetMinutes,
      timestampText: timestamp as string,
      shortCode,
      projectIconUrl: typeof icon === 'string' ? icon : null,
      clientUserId: typeof userId === 'string' ? userId : null,
      raw: body,
    },
  };
}

export function isNotificationEvent(name: string): name is NotificationEventName {
  return (NOTIFICATION_EVENTS as readonly string[]).includes(name);
}

export function parseNotification(
  base: WebhookEventBase & { event: NotificationEventName },
): ParseResult<NotificationEvent> {
  const notification = base.raw.notification;
  if (!isRecord(notification)) return { ok: false, reason: '"notification" must be an object.' };
  const title = optionalString(notification.title, '');
  const content = optionalString(notification.content, '');
  const linkUrl = optionalString(notification.link_url, '');
  if (title === undefined || content === undefined || linkUrl === undefined) {
    return { ok: false, reason: '"notification.title", "content" and "link_url" must be strings.' };
  }
  return {
    ok: true,
    event: {
      ...base,
      notification: { title, content, linkUrl },
      link: (token, formSiteRoot) => buildNotificationLink(formSiteRoot, linkUrl, token),
    },
  };
}

export function parseBilling<E extends BillingEventName>(
  base: WebhookEventBase & { event: E },
): ParseResult<BillingEvent & { event: E }> {
  const billing = base.raw.billing;
  if (!isRecord(billing)) return { ok: false, reason: '"billing" must be an object.' };
  const amountCents = parseYuanToCents(billing.amount);
  if (amountCents === undefined) {
    return { ok: false, reason: '"billing.amount" must be yuan with exactly two decimals, e.g. "0.29".' };
  }
  // Nothing to charge or give back: a zero amount is a malformed event, not a free success.
  if (amountCents === 0) return { ok: false, reason: '"billing.amount" must be more than "0.00".' };
  const reason = optionalString(billing.reason, '');
  if (reason === undefined) return { ok: false, reason: '"billing.reason" must be a string.' };
  const clientUserId = base.clientUserId;
  if (clientUserId === null || clientUserId === '')
    return { ok: false, reason: '"target.client_user_id" must name the end user of a billing event.' };
  return { ok: true, event: { ...base, clientUserId, amountCents, amount: billing.amount as string, reason } };
}
