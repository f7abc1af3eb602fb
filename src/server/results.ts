import { HubError } from '../core/errors.js';

/** An access token for one end user. */
export interface Token {
  accessToken: string;
  /** Lifetime in seconds, counted from when it was received. */
  expiresIn: number;
}

export interface Balance {
  clientUserId: string;
  userId: number;
  balanceCents: number;
}

export interface RechargeResult {
  clientUserId: string;
  toUserId: number;
  amountCents: number;
  externalOrderId?: string;
  userBalanceCents: number;
  developerBalanceCents: number;
}

export type PointsSource = 'transfer' | 'billing' | (string & {});
export type PointsRecordType = 'recharge' | 'deduct' | 'refund' | 'reward' | 'failed' | (string & {});

export interface PointsLogRecord {
  id: number;
  source: PointsSource;
  recordType: PointsRecordType;
  /** Signed: positive = credit, negative = debit. */
  changeCents: number;
  amountCents: number;
  balanceAfter: number;
  reason: string;
  status: string;
  shortCode: string | null;
  projectId: number | null;
  /** ISO 8601, UTC. */
  createdAt: string;
}

export interface LogsPage {
  clientUserId: string;
  userId: number;
  list: PointsLogRecord[];
  total: number;
  page: number;
  pageSize: number;
}

type Fields = Record<string, unknown>;

function invalid(what: string): HubError {
  return new HubError(
    'invalid-response',
    `The service's ${what} is missing or has the wrong type; is baseUrl the Open Integration Service?`,
  );
}

function record(value: unknown, what: string): Fields {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(what);
  return value as Fields;
}

function str(fields: Fields, name: string, what: string): string {
  const value = fields[name];
  if (typeof value !== 'string') throw invalid(`${what}.${name}`);
  return value;
}

function num(fields: Fields, name: string, what: string): number {
  const value = fields[name];
  if (typeof value !== 'number' || !Number.isFinite(value)) throw invalid(`${what}.${name}`);
  return value;
}

function optional<T>(
  fields: Fields,
  name: string,
  read: (fields: Fields, name: string, what: string) => T,
  what: string,
  fallback: T,
): T {
  return fields[name] === undefined || fields[name] === null ? fallback : read(fields, name, what);
}

/**
 * The longest token lifetime believed: 30 days. The browser is told `expires_in` and schedules its
 * refresh by it; a lifetime of 1e308 seconds would be Infinity there (JSON `null` on the wire).
 */
export const MAX_TOKEN_LIFETIME_SECONDS = 30 * 24 * 60 * 60;

/** A finite number of seconds above 0 and at most MAX_TOKEN_LIFETIME_SECONDS. */
export function isTokenLifetime(seconds: unknown): seconds is number {
  return (
    typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 && seconds <= MAX_TOKEN_LIFETIME_SECONDS
  );
}

export function parseToken(data: unknown): Token {
  const fields = record(data, 'token answer');
  const accessToken = str(fields, 'access_token', 'token answer');
  const expiresIn = fields.expires_in;
  if (accessToken === '') throw invalid('token answer.access_token');
  if (!isTokenLifetime(expiresIn)) {
    throw new HubError(
      'invalid-response',
      `The service's token answer.expires_in is not a number of seconds above 0 and at most ${MAX_TOKEN_LIFETIME_SECONDS} (30 days).`,
    );
  }
  return { accessToken, expiresIn };
}

export function parseBalance(data: unknown): Balance {
  const fields = record(data, 'balance answer');
  return {
    clientUserId: str(fields, 'client_user_id', 'balance'),
    userId: num(fields, 'user_id', 'balance'),
    balanceCents: num(fields, 'balance_cents', 'balance'),
  };
}

export function parseRecharge(data: unknown): RechargeResult {
  const fields = record(data, 'recharge answer');
  const externalOrderId = optional(fields, 'external_order_id', str, 'recharge', undefined as string | undefined);
  return {
    clientUserId: str(fields, 'client_user_id', 'recharge'),
    toUserId: num(fields, 'to_user_id', 'recharge'),
    amountCents: num(fields, 'amount_cents', 'recharge'),
    ...(externalOrderId === undefined ? {} : { externalOrderId }),
    userBalanceCents: num(fields, 'user_balance_cents', 'recharge'),
    developerBalanceCents: num(fields, 'developer_balance_cents', 'recharge'),
  };
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

function parseLogRecord(value: unknown): PointsLogRecord {
  const fields = record(value, 'log record');
  const what = 'log record';
  return {
    id: num(fields, 'id', what),
    source: str(fields, 'source', what),
    recordType: str(fields, 'record_type', what),
    changeCents: num(fields, 'change_cents', what),
    amountCents: num(fields, 'amount_cents', what),
    balanceAfter: num(fields, 'balance_after', what),
    reason: optional(fields, 'reason', str, what, ''),
    status: optional(fields, 'status', str, what, ''),
    shortCode: optional(fields, 'short_code', str, what, null as string | null),
    projectId: optional(fields, 'project_id', num, what, null as number | null),
    createdAt: str(fields, 'created_at', what),
  };
}

/**
 * The spec leaves `total` loosely placed, and services put it elsewhere or count only the page; it is
 * kept for display only (nothing stops reading on it), and one that is not a number falls back to what
 * the page shows. So does a `page` or `page_size` that is not a number.
 */
export function parseLogsPage(data: unknown, requested: { page: number; pageSize: number }): LogsPage {
  const fields = record(data, 'logs answer');
  if (!Array.isArray(fields.list)) throw invalid('logs answer.list');
  const list = fields.list.map(parseLogRecord);
  return {
    clientUserId: str(fields, 'client_user_id', 'logs'),
    userId: num(fields, 'user_id', 'logs'),
    list,
    total: numberOr(fields.total, (requested.page - 1) * requested.pageSize + list.length),
    page: numberOr(fields.page, requested.page),
    pageSize: numberOr(fields.page_size, requested.pageSize),
  };
}
