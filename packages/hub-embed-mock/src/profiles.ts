/**
 * Service profiles: the choices the spec leaves to a deployment, each one a real service may make. How much
 * of a recharge's `reason` the log keeps and how it stores it, in which order the logs are listed, where
 * `total` goes, how large a page really is, a gateway in front that answers with its own HTML, a log that
 * lags behind the ledger and a recharge applied late, and what a cross-origin-isolated page can embed. A
 * client that credits money must be right under every one of them; docs/simulator.md has the table.
 */
import type { LedgerRecord, ServiceProfile } from './types.js';
import { isoUtc } from './http.js';

export type CheckedProfile = Readonly<Required<Omit<ServiceProfile, 'reasonLimit' | 'escapeReason' | 'logsError'>>> & {
  reasonLimit: ServiceProfile['reasonLimit'];
  escapeReason: ServiceProfile['escapeReason'];
  logsError: ServiceProfile['logsError'];
};

/** The named profiles `--profile` takes; several may be given, later ones overriding earlier ones. */
export const PROFILES = {
  spec: {},
  'bytes-64': { reasonLimit: { length: 64, unit: 'bytes' } },
  'characters-64': { reasonLimit: { length: 64, unit: 'characters' } },
  'characters-32-trimmed': { reasonLimit: { length: 32, unit: 'characters' }, trimReason: true },
  utf8mb3: { cutAtFourByte: true },
  'html-escaped': { escapeReason: 'html' },
  'backslash-escaped': { escapeReason: 'backslash' },
  'oldest-first': { logsOrder: 'oldest-first' },
  'total-missing': { logsTotal: 'missing' },
  'total-per-page': { logsTotal: 'page' },
  'total-elsewhere': { logsTotal: 'elsewhere' },
  'page-size-50': { pageSizeCap: 50 },
  'gateway-404': { logsError: { status: 404 } },
  'gateway-404-page-2': { logsError: { status: 404, page: 2 } },
  'gateway-502': { logsError: { status: 502 } },
  'log-lag': { logLagMs: 1500 },
  'late-apply': { applyDelayMs: 1500, gatewayTimeoutMs: 1000 },
  'clock-10-minutes-ahead': { clockOffsetMs: 10 * 60 * 1000 },
  'beijing-time-labelled-utc': { clockOffsetMs: 8 * 3600 * 1000 },
  'proxy-repeats-post': { proxyRepeatsPost: true },
  'embeddable-require-corp': { embedderPolicy: 'require-corp' },
  'embeddable-credentialless': { embedderPolicy: 'credentialless' },
} as const satisfies Record<string, ServiceProfile>;

export type ProfileName = keyof typeof PROFILES;

const DEFAULTS: CheckedProfile = {
  reasonLimit: undefined,
  cutAtFourByte: false,
  trimReason: false,
  escapeReason: undefined,
  logsOrder: 'newest-first',
  logsTotal: 'all',
  pageSizeCap: 100,
  logsError: undefined,
  logLagMs: 0,
  applyDelayMs: 0,
  gatewayTimeoutMs: 0,
  clockOffsetMs: 0,
  proxyRepeatsPost: false,
  embedderPolicy: 'none',
};

function fail(message: string): never {
  throw new TypeError(`profile.${message}`);
}

function wholeNumber(value: unknown, name: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max)
    fail(`${name} must be a whole number from ${min} to ${max}.`);
  return value;
}

function oneOf<T extends string>(value: unknown, name: string, allowed: readonly T[]): T {
  if (!allowed.includes(value as T)) fail(`${name} must be one of ${allowed.map((name) => `"${name}"`).join(', ')}.`);
  return value as T;
}

/** Checks a profile (an object, or a name of PROFILES) once; a bad value is an error that names the field. */
export function checkProfile(profile: ServiceProfile | string | undefined): CheckedProfile {
  if (profile === undefined) return DEFAULTS;
  if (typeof profile === 'string') {
    if (!Object.hasOwn(PROFILES, profile))
      throw new TypeError(`profile must be one of ${Object.keys(PROFILES).join(', ')}, or an object.`);
    return checkProfile(PROFILES[profile as ProfileName]);
  }
  if (typeof profile !== 'object' || profile === null || Array.isArray(profile))
    throw new TypeError('profile must be a name of a profile or an object (docs/simulator.md, "Service profiles").');
  const known = new Set(Object.keys(DEFAULTS));
  for (const key of Object.keys(profile)) if (!known.has(key)) fail(`${key} is not a profile field.`);
  const checked: { -readonly [K in keyof CheckedProfile]: CheckedProfile[K] } = { ...DEFAULTS };
  const { reasonLimit, logsError } = profile;
  if (reasonLimit !== undefined) {
    if (typeof reasonLimit !== 'object' || reasonLimit === null) fail('reasonLimit must be {length, unit}.');
    checked.reasonLimit = {
      length: wholeNumber(reasonLimit.length, 'reasonLimit.length', 0, 100_000),
      unit: oneOf(reasonLimit.unit, 'reasonLimit.unit', ['bytes', 'characters'] as const),
    };
  }
  if (profile.cutAtFourByte !== undefined) checked.cutAtFourByte = profile.cutAtFourByte === true;
  if (profile.trimReason !== undefined) checked.trimReason = profile.trimReason === true;
  if (profile.escapeReason !== undefined)
    checked.escapeReason = oneOf(profile.escapeReason, 'escapeReason', ['html', 'backslash'] as const);
  if (profile.logsOrder !== undefined)
    checked.logsOrder = oneOf(profile.logsOrder, 'logsOrder', ['newest-first', 'oldest-first'] as const);
  if (profile.logsTotal !== undefined)
    checked.logsTotal = oneOf(profile.logsTotal, 'logsTotal', ['all', 'missing', 'page', 'elsewhere'] as const);
  if (profile.pageSizeCap !== undefined) checked.pageSizeCap = wholeNumber(profile.pageSizeCap, 'pageSizeCap', 1, 100);
  if (logsError !== undefined) {
    if (typeof logsError !== 'object' || logsError === null) fail('logsError must be {status, page?}.');
    checked.logsError = {
      status: wholeNumber(logsError.status, 'logsError.status', 400, 599),
      ...(logsError.page === undefined ? {} : { page: wholeNumber(logsError.page, 'logsError.page', 1, 1_000_000) }),
    };
  }
  for (const name of ['logLagMs', 'applyDelayMs', 'gatewayTimeoutMs'] as const)
    if (profile[name] !== undefined) checked[name] = wholeNumber(profile[name], name, 0, 600_000);
  const week = 7 * 24 * 3600 * 1000;
  if (profile.clockOffsetMs !== undefined)
    checked.clockOffsetMs = wholeNumber(profile.clockOffsetMs, 'clockOffsetMs', -week, week);
  if (profile.proxyRepeatsPost !== undefined) checked.proxyRepeatsPost = profile.proxyRepeatsPost === true;
  if (profile.embedderPolicy !== undefined)
    checked.embedderPolicy = oneOf(profile.embedderPolicy, 'embedderPolicy', [
      'none',
      'require-corp',
      'credentialless',
    ] as const);
  return Object.freeze(checked);
}

/** The named profiles merged in order, for the CLI's repeatable `--profile NAME`. */
export function profileOfNames(names: readonly string[]): ServiceProfile {
  const merged: ServiceProfile = {};
  for (const name of names) {
    if (!Object.hasOwn(PROFILES, name))
      throw new TypeError(`--profile must be one of ${Object.keys(PROFILES).join(', ')}; got ${JSON.stringify(name)}.`);
    Object.assign(merged, PROFILES[name as ProfileName]);
  }
  return merged;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escaped(reason: string, how: CheckedProfile['escapeReason']): string {
  if (how === 'html') return reason.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);
  if (how === 'backslash') return reason.replace(/['"\\]/g, (char) => `\\${char}`);
  return reason;
}

/** The longest start of `text` whose UTF-8 spelling fits `bytes`, never splitting a character. */
function cutToBytes(text: string, bytes: number): string {
  let used = 0;
  let end = 0;
  for (const char of text) {
    const size = new TextEncoder().encode(char).byteLength;
    if (used + size > bytes) break;
    used += size;
    end += char.length;
  }
  return text.slice(0, end);
}

/** The start of `text` of at most `length` characters (code points, as a database counts them). */
function cutToCharacters(text: string, length: number): string {
  let end = 0;
  let count = 0;
  for (const char of text) {
    if (count === length) break;
    count++;
    end += char.length;
  }
  return text.slice(0, end);
}

/**
 * The remark as this service stores it: escaped on the way in, cut at its first 4-byte character (MySQL's
 * utf8mb3 in non-strict mode), cut to the column's length, then trimmed.
 */
export function storedReason(reason: string, profile: CheckedProfile): string {
  let stored = escaped(reason, profile.escapeReason);
  if (profile.cutAtFourByte) {
    const astral = stored.search(/[\uD800-\uDBFF]/);
    if (astral !== -1) stored = stored.slice(0, astral);
  }
  const limit = profile.reasonLimit;
  if (limit !== undefined)
    stored = limit.unit === 'bytes' ? cutToBytes(stored, limit.length) : cutToCharacters(stored, limit.length);
  return profile.trimReason ? stored.replace(/\s+$/, '') : stored;
}

/** When each record was written, for a log that lags behind the ledger. */
const writtenAt = new WeakMap<LedgerRecord, number>();

export function noteWritten(record: LedgerRecord, now: number): void {
  writtenAt.set(record, now);
}

/**
 * One page of a user's logs (`data` of the answer, without the user's ids) as this service lists them:
 * its order, its real page size (echoing the one asked), `total` where it puts it, records it has not
 * caught up with left out.
 */
export function logsPage(
  records: readonly LedgerRecord[],
  page: number,
  asked: number,
  profile: CheckedProfile,
  now: number,
): Record<string, unknown> {
  const visible =
    profile.logLagMs === 0
      ? records
      : records.filter((record) => (writtenAt.get(record) ?? 0) + profile.logLagMs <= now);
  const size = Math.min(asked, profile.pageSizeCap);
  const first = (page - 1) * size;
  const list: LedgerRecord[] = [];
  for (let at = first; at < first + size && at < visible.length; at++) {
    const index = profile.logsOrder === 'newest-first' ? visible.length - 1 - at : at;
    const record = visible[index]!;
    list.push(
      profile.clockOffsetMs === 0
        ? { ...record }
        : { ...record, created_at: isoUtc(Date.parse(record.created_at) + profile.clockOffsetMs) },
    );
  }
  const base = { list, page, page_size: asked };
  switch (profile.logsTotal) {
    case 'all':
      return { ...base, total: visible.length };
    case 'page':
      return { ...base, total: list.length };
    case 'elsewhere':
      return { ...base, pagination: { total: visible.length } };
    case 'missing':
      return base;
  }
}

/** A gateway's own error page: HTML, not the service's envelope. */
/** The `Server` header of a gateway's own page: no answer of the service itself carries it. */
export const GATEWAY_SERVER = 'nginx';

export function gatewayPage(status: number): Response {
  const title = status === 404 ? '404 Not Found' : status === 504 ? '504 Gateway Time-out' : `${status} Bad Gateway`;
  return new Response(
    `<html><head><title>${title}</title></head><body><center><h1>${title}</h1></center></body></html>`,
    {
      status,
      // As nginx, the usual gateway, names itself; the contract check tells a gateway's page by it.
      headers: { 'content-type': 'text/html', server: GATEWAY_SERVER },
    },
  );
}

/** The logs read this profile answers with a gateway's page instead of the service's answer. */
export function logsGatewayError(profile: CheckedProfile, page: number): Response | undefined {
  const error = profile.logsError;
  if (error === undefined || (error.page !== undefined && error.page !== page)) return undefined;
  return gatewayPage(error.status);
}
