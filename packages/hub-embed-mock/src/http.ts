/** Envelope responses, bounded body reading and input checks shared by every simulator route. */

/** The largest request body any simulator route accepts (the spec names none); larger is 413. */
export const MAX_REQUEST_BODY_BYTES = 64 * 1024;

/** A request the simulator refuses; thrown by validators, turned into an envelope by the router. */
export class MockHttpError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.headers = headers;
  }
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

export function ok(data: unknown): Response {
  return jsonResponse(200, { code: 200, message: 'success', data });
}

/** Errors always carry the envelope with `code` equal to the HTTP status, so clients can rely on either. */
export function errorResponse(status: number, message: string, headers: Record<string, string> = {}): Response {
  return jsonResponse(status, { code: status, message, data: null }, headers);
}

/**
 * Reads the body with the 64 KB limit. A declared Content-Length over the limit is refused before
 * reading; a body that turns out larger (no or false length) is refused after.
 */
export async function readBodyText(req: Request): Promise<string> {
  const declared = req.headers.get('content-length');
  if (declared !== null && Number(declared) > MAX_REQUEST_BODY_BYTES) {
    throw new MockHttpError(413, `Request body is larger than ${MAX_REQUEST_BODY_BYTES} bytes; send a smaller body.`);
  }
  const bytes = new Uint8Array(await req.arrayBuffer());
  if (bytes.byteLength > MAX_REQUEST_BODY_BYTES) {
    throw new MockHttpError(413, `Request body is larger than ${MAX_REQUEST_BODY_BYTES} bytes; send a smaller body.`);
  }
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
}

/** Parses a JSON object body; anything else (arrays, scalars, bad JSON, wrong content type) is a 4xx. */
export async function readJsonObject(req: Request): Promise<Record<string, unknown>> {
  const type = (req.headers.get('content-type') ?? '').toLowerCase();
  if (!/^application\/json\s*(;|$)/.test(type)) {
    throw new MockHttpError(415, 'Content-Type must be application/json.');
  }
  const text = await readBodyText(req);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new MockHttpError(400, 'The request body is not valid JSON.');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new MockHttpError(400, 'The request body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}

export const MAX_ID_LENGTH = 256;

/** A required identifier: a non-empty string without surrounding-only whitespace, bounded in length. */
export function requireId(value: unknown, field: string): string {
  if (value === undefined || value === null) throw new MockHttpError(400, `${field} is required.`);
  if (typeof value !== 'string') throw new MockHttpError(400, `${field} must be a string.`);
  if (value.trim() === '') throw new MockHttpError(400, `${field} must not be empty.`);
  if (value.length > MAX_ID_LENGTH)
    throw new MockHttpError(400, `${field} must be at most ${MAX_ID_LENGTH} characters.`);
  return value;
}

export function optionalString(value: unknown, field: string, maxLength: number): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new MockHttpError(400, `${field} must be a string.`);
  if (value.length > maxLength) throw new MockHttpError(400, `${field} must be at most ${maxLength} characters.`);
  return value;
}

/** Above this an amount is refused as absurd, which also keeps every sum a safe integer. */
export const MAX_AMOUNT_CENTS = 10_000_000_000;

export function requireAmountCents(value: unknown, field = 'amount_cents'): number {
  if (value === undefined || value === null) throw new MockHttpError(400, `${field} is required.`);
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
    throw new MockHttpError(400, `${field} must be a positive integer number of cents.`);
  }
  if (value > MAX_AMOUNT_CENTS) throw new MockHttpError(400, `${field} must be at most ${MAX_AMOUNT_CENTS}.`);
  return value;
}

/** Integer query parameter in [min, max]; absent means `fallback`. Strings like "1.5", "1e2", " 3" are refused. */
export function queryInt(params: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
  const raw = params.get(name);
  if (raw === null) return fallback;
  if (!/^\d{1,9}$/.test(raw)) throw new MockHttpError(400, `${name} must be an integer from ${min} to ${max}.`);
  const value = Number(raw);
  if (value < min || value > max) throw new MockHttpError(400, `${name} must be an integer from ${min} to ${max}.`);
  return value;
}

/** ISO 8601 in UTC with a trailing Z and whole seconds, as the logs use. */
export function isoUtc(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** ISO 8601 at UTC+08:00, as webhook bodies use. */
export function isoBeijing(ms: number): string {
  return new Date(ms + 8 * 3600_000).toISOString().replace(/\.\d{3}Z$/, '+08:00');
}

/** Cents as yuan with exactly two decimals, without floating-point rounding. */
export function centsToYuan(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * Cents as yuan for people: thousands grouped, two decimals ("10,000.00"). Webhook bodies keep
 * `centsToYuan` ("10000.00"), the spec's format.
 */
export function centsToGroupedYuan(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100).toLocaleString('en-US')}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * How the simulator's pages show an amount, everywhere the same: yuan with two decimals, then the
 * points in brackets ("¥10,000.00 (1,000,000 points)", "¥50.00（5,000 积分）"); 1 yuan = 100 points.
 * form-assets.ts repeats it in the page script, which updates the balance after an action.
 */
export function yuanAndPoints(cents: number, locale: 'en' | 'zh-CN' = 'en'): string {
  const count = cents.toLocaleString('en-US');
  if (locale === 'zh-CN') return `¥${centsToGroupedYuan(cents)}（${count} 积分）`;
  return `¥${centsToGroupedYuan(cents)} (${count} ${Math.abs(cents) === 1 ? 'point' : 'points'})`;
}

export function randomHex(bytes: number): string {
  const buf = new Uint8Array(bytes);
  crypto.getRandomValues(buf);
  return Array.from(buf, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
