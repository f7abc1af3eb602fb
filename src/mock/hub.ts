/**
 * createMockHub: the whole simulator as two Web-standard handlers (API site and form site).
 * Isomorphic on purpose: this module and its imports use only Web APIs, so the same simulator runs
 * in Node, in happy-dom and in a real browser tab (tests swap global fetch for `hub.fetch`).
 */
import { API_PREFIX, apiRoutes } from './api.js';
import { consoleRoutes } from './console.js';
import { findRoute, type HubContext, type RequestMeta, type Route } from './context.js';
import { corsHeaders, preflight } from './cors.js';
import { createFormSite, formErrorResponse } from './form.js';
import {
  MockHttpError,
  centsToYuan,
  errorResponse,
  isoBeijing,
  isoUtc,
  optionalString,
  requireAmountCents,
  trimSlash,
} from './http.js';
import { ICON_NAME, iconSvg, iconUrl } from './icons.js';
import { SeedError, activeKeyOf, defaultSeed, parseSeed, parseWebhookConfig } from './seed.js';
import { HubState, maskKey, type Account } from './state.js';
import type {
  FormSubmission,
  MockHubOptions,
  PointsLogRecord,
  RequestLogEntry,
  WebhookBody,
  WebhookConfig,
  WebhookDelivery,
} from './types.js';
import { NOTIFICATION_EVENTS, dispatch, fetchTransport } from './webhooks.js';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:4010';
export const DEFAULT_FORM_URL = 'http://127.0.0.1:4011';
export const DEFAULT_FAULT_PATHS = [`${API_PREFIX}/projects/published-list`];

export interface MockClock {
  now(): number;
  /** Freezes the clock at `ms` until `advance` or `resume`. */
  set(ms: number): void;
  advance(ms: number): void;
  /** Back to the base clock (real time unless `now` was given). */
  resume(): void;
}

export interface NotificationInput {
  event: unknown;
  clientUserId?: unknown;
  shortCode?: unknown;
  title: unknown;
  content: unknown;
  linkUrl?: unknown;
  developerId?: number | undefined;
}

export interface RefundInput {
  clientUserId: string;
  logId: number;
  reason?: string | undefined;
  developerId?: number | undefined;
}

export interface LedgerView {
  poolCents: number;
  balancesCents: number;
  toppedUpCents: number;
  chargedCents: number;
  refundedCents: number;
  /** pool + balances + charged - refunded === topped up: points are never created or lost. */
  balanced: boolean;
}

export interface MockHub {
  readonly baseUrl: string;
  readonly formUrl: string;
  /** The plaintext active key of the seed's first developer. */
  readonly apiKey: string;
  readonly clock: MockClock;
  readonly requestLog: RequestLogEntry[];
  readonly deliveries: WebhookDelivery[];
  readonly submissions: FormSubmission[];
  handleApi(req: Request): Promise<Response>;
  handleForm(req: Request): Promise<Response>;
  /** fetch-compatible: requests to baseUrl/formUrl go to the handlers, others to the real network. */
  fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response>;
  /** Whether the Node server should drop this connection (dropRate). */
  shouldDropConnection(): boolean;
  createApiKey(input?: { developerId?: number | undefined; expiresAt?: string }): {
    key: string;
    status: string;
    expires_at: string | null;
  };
  disableKey(key: string): { key: string; status: string };
  expireKey(key: string): { key: string; expires_at: string };
  topUp(input: { yuan: unknown; developerId?: number | undefined }): {
    developer_id: number;
    amount_cents: number;
    pool_cents: number;
  };
  publish(shortCode: string): { short_code: string; published: boolean };
  unpublish(shortCode: string): { short_code: string; published: boolean };
  setWebhooks(configs: unknown, developerId?: number): { configs: WebhookConfig[] };
  triggerNotification(input: NotificationInput): Promise<{ event: string; deliveries: WebhookDelivery[] }>;
  triggerRefund(input: RefundInput): Promise<{ record: PointsLogRecord; deliveries: WebhookDelivery[] }>;
  /** The console's "transfer to user": a recharge from the pool without an order id. */
  transfer(input: {
    clientUserId: string;
    amountCents: number;
    reason?: string | undefined;
    developerId?: number | undefined;
  }): Record<string, unknown>;
  ledger(developerId?: number): LedgerView;
  snapshot(): Record<string, unknown>;
}

function createClock(base: () => number): MockClock {
  let frozen: number | null = null;
  return {
    now: () => frozen ?? base(),
    set(ms) {
      if (!Number.isFinite(ms)) throw new TypeError('clock.set needs a finite number of milliseconds.');
      frozen = ms;
    },
    advance(ms) {
      if (!Number.isFinite(ms)) throw new TypeError('clock.advance needs a finite number of milliseconds.');
      frozen = (frozen ?? base()) + ms;
    },
    resume() {
      frozen = null;
    },
  };
}

function checkRate(value: number | undefined, name: string): number {
  const rate = value ?? 0;
  if (typeof rate !== 'number' || !(rate >= 0 && rate <= 1))
    throw new RangeError(`${name} must be a number from 0 to 1.`);
  return rate;
}

function checkMs(value: number | undefined, fallback: number, name: string): number {
  const ms = value ?? fallback;
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0)
    throw new RangeError(`${name} must be a non-negative number of milliseconds.`);
  return ms;
}

function originOf(url: string, name: string): string {
  try {
    return new URL(url).origin;
  } catch {
    throw new TypeError(`${name} must be an absolute URL such as http://127.0.0.1:4010.`);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Link paths in notifications are in-site paths: no scheme, no host, no token, no control characters. */
function checkLinkUrl(value: string): string {
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\'))
    throw new MockHttpError(400, 'link_url must be an in-site path beginning with a single "/".');
  if (/[\u0000-\u001f\u007f]/.test(value))
    throw new MockHttpError(400, 'link_url must not contain control characters.');
  if (/[?&]token=/i.test(value))
    throw new MockHttpError(400, 'link_url must not contain a token; receivers append their own.');
  return value;
}

function requireText(value: unknown, field: string, max: number): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw new MockHttpError(400, `${field} is required and must be a non-empty string.`);
  if (value.length > max) throw new MockHttpError(400, `${field} must be at most ${max} characters.`);
  return value;
}

export function createMockHub(options: MockHubOptions = {}): MockHub {
  let seed;
  try {
    seed = parseSeed(options.seed ?? defaultSeed);
  } catch (error) {
    if (error instanceof SeedError) throw error;
    throw new SeedError(String(error));
  }
  const baseUrl = trimSlash(options.baseUrl ?? DEFAULT_BASE_URL);
  const formUrl = trimSlash(options.formUrl ?? DEFAULT_FORM_URL);
  const apiOrigin = originOf(baseUrl, 'baseUrl');
  const formOrigin = originOf(formUrl, 'formUrl');
  const tokenTtlSeconds = options.tokenTtlSeconds ?? 7200;
  if (!Number.isInteger(tokenTtlSeconds) || tokenTtlSeconds <= 0)
    throw new RangeError('tokenTtlSeconds must be a positive integer.');
  const latencyMs = checkMs(options.latencyMs, 0, 'latencyMs');
  const jitterMs = checkMs(options.latencyJitterMs, 0, 'latencyJitterMs');
  const faultRate = checkRate(options.faultRate, 'faultRate');
  const dropRate = checkRate(options.dropRate, 'dropRate');
  const faultPaths = options.faultPaths ?? DEFAULT_FAULT_PATHS;
  const random = options.random ?? Math.random;
  const corsOrigins = options.corsOrigins ?? 'loopback';
  // Captured now: tests may later replace globalThis.fetch with hub.fetch, which must not loop.
  const outboundFetch: typeof fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const transport = options.webhookTransport ?? fetchTransport(outboundFetch);
  const connectTimeoutMs = checkMs(options.webhookConnectTimeoutMs, 5000, 'webhookConnectTimeoutMs');
  const timeoutMs = checkMs(options.webhookTimeoutMs, 10000, 'webhookTimeoutMs');

  const clock = createClock(options.now ?? Date.now);
  const state = new HubState(seed);
  const requestLog: RequestLogEntry[] = [];
  const deliveries: WebhookDelivery[] = [];
  let nextDeliveryId = 1;

  const context: HubContext = {
    state,
    baseUrl,
    formUrl,
    tokenTtlSeconds,
    now: () => clock.now(),
    sendWebhook(developerId, partial) {
      const account = state.developer(developerId);
      const body: WebhookBody = { ...partial, timestamp: isoBeijing(clock.now()) } as WebhookBody;
      return dispatch(
        {
          transport,
          connectTimeoutMs,
          timeoutMs,
          now: () => clock.now(),
          record(d) {
            const delivery = { id: nextDeliveryId++, ...d };
            deliveries.push(delivery);
            options.onDelivery?.(delivery);
            return delivery;
          },
        },
        account.webhooks,
        body,
      );
    },
  };

  const api = apiRoutes(context);
  const formSite = createFormSite(context);
  let consoleApi: Route[] = [];

  function record(site: 'api' | 'form', req: Request, url: URL, status: number, meta: RequestMeta): void {
    const entry: RequestLogEntry = {
      time: clock.now(),
      site,
      method: req.method,
      path: url.pathname,
      status,
      auth: meta.auth,
    };
    if (meta.clientUserId !== undefined) entry.clientUserId = meta.clientUserId;
    requestLog.push(entry);
    options.onRequest?.(entry);
  }

  async function routeApi(req: Request, url: URL, meta: RequestMeta): Promise<Response> {
    if (req.method === 'OPTIONS') return preflight(req, corsOrigins);
    if (faultRate > 0 && faultPaths.includes(url.pathname) && random() < faultRate) {
      return errorResponse(500, 'Injected fault (fault rate); retry the request.');
    }
    const icon = /^\/static\/icons\/([^/]+)\.svg$/.exec(url.pathname);
    if (icon && ICON_NAME.test(icon[1]!)) {
      if (req.method !== 'GET' && req.method !== 'HEAD')
        throw new MockHttpError(405, 'Use GET.', { allow: 'GET, HEAD' });
      return new Response(req.method === 'HEAD' ? null : iconSvg(icon[1]!), {
        headers: {
          'content-type': 'image/svg+xml',
          'cache-control': 'public, max-age=3600',
          'x-content-type-options': 'nosniff',
          'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
        },
      });
    }
    const routes = url.pathname.startsWith('/console') ? consoleApi : api;
    const found = findRoute(routes, req.method, url.pathname);
    if ('handle' in found) return found.handle(req, url, meta);
    if (found.status === 405)
      throw new MockHttpError(405, `Method ${req.method} is not allowed here; use ${found.allow}.`, {
        allow: found.allow,
      });
    throw new MockHttpError(404, `No such endpoint: ${req.method} ${url.pathname}.`);
  }

  async function handleApi(req: Request): Promise<Response> {
    const url = new URL(req.url);
    const meta: RequestMeta = { auth: 'none' };
    if (latencyMs > 0 || jitterMs > 0) await sleep(latencyMs + random() * jitterMs);
    let response: Response;
    try {
      response = await routeApi(req, url, meta);
    } catch (error) {
      response =
        error instanceof MockHttpError
          ? errorResponse(error.status, error.message, error.headers)
          : errorResponse(500, 'Internal simulator error.');
    }
    for (const [k, v] of Object.entries(corsHeaders(req.headers.get('origin'), corsOrigins)))
      response.headers.set(k, v);
    record('api', req, url, response.status, meta);
    return response;
  }

  async function handleForm(req: Request): Promise<Response> {
    const url = new URL(req.url);
    const meta: RequestMeta = { auth: 'none' };
    let response: Response;
    try {
      response = await formSite.handle(req, meta);
    } catch (error) {
      response =
        error instanceof MockHttpError
          ? formErrorResponse(context, req, error.status, error.message, error.headers)
          : formErrorResponse(context, req, 500, 'Internal simulator error.');
    }
    record('form', req, url, response.status, meta);
    return response;
  }

  function withAbort(signal: AbortSignal | null | undefined, work: Promise<Response>): Promise<Response> {
    if (!signal) return work;
    if (signal.aborted)
      return Promise.reject(signal.reason ?? new DOMException('The operation was aborted.', 'AbortError'));
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(signal.reason ?? new DOMException('The operation was aborted.', 'AbortError'));
      signal.addEventListener('abort', onAbort, { once: true });
      work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  function account(developerId?: number): Account {
    return state.developer(developerId);
  }

  function table(shortCode: string) {
    const t = state.table(shortCode);
    if (!t) throw new MockHttpError(404, `No project table with short_code ${JSON.stringify(shortCode)}.`);
    return t;
  }

  const hub: MockHub = {
    baseUrl,
    formUrl,
    apiKey: activeKeyOf(seed),
    clock,
    requestLog,
    deliveries,
    submissions: formSite.submissions,
    handleApi,
    handleForm,
    fetch(input, init) {
      let req: Request;
      try {
        req = new Request(input, init);
      } catch (error) {
        return Promise.reject(error);
      }
      const origin = new URL(req.url).origin;
      if (origin === apiOrigin) return withAbort(req.signal ?? init?.signal, handleApi(req));
      if (origin === formOrigin) return withAbort(req.signal ?? init?.signal, handleForm(req));
      return outboundFetch(input, init);
    },
    shouldDropConnection: () => dropRate > 0 && random() < dropRate,
    createApiKey(input = {}) {
      let expiresAt: number | null = null;
      if (input.expiresAt !== undefined) {
        expiresAt = Date.parse(input.expiresAt);
        if (Number.isNaN(expiresAt)) throw new MockHttpError(400, 'expires_at must be an ISO 8601 date.');
      }
      const rec = state.createKey(account(input.developerId), expiresAt);
      return { key: rec.key, status: rec.status, expires_at: expiresAt === null ? null : isoUtc(expiresAt) };
    },
    disableKey(key) {
      const rec = state.keyRecord(key);
      rec.status = 'disabled';
      return { key: maskKey(key), status: rec.status };
    },
    expireKey(key) {
      const rec = state.keyRecord(key);
      rec.expiresAt = clock.now();
      return { key: maskKey(key), expires_at: isoUtc(rec.expiresAt) };
    },
    topUp(input) {
      const yuan = input.yuan;
      if (typeof yuan !== 'number' || !Number.isFinite(yuan) || yuan <= 0)
        throw new MockHttpError(400, 'yuan must be a positive number (1 yuan = 100 points).');
      const cents = Math.round(yuan * 100);
      if (Math.abs(cents - yuan * 100) > 1e-6) throw new MockHttpError(400, 'yuan must have at most two decimals.');
      requireAmountCents(cents, 'yuan * 100');
      const dev = account(input.developerId);
      return { developer_id: dev.id, amount_cents: cents, pool_cents: state.topUp(dev, cents) };
    },
    publish(shortCode) {
      const t = table(shortCode);
      t.published = true;
      return { short_code: t.short_code, published: true };
    },
    unpublish(shortCode) {
      const t = table(shortCode);
      t.published = false;
      return { short_code: t.short_code, published: false };
    },
    setWebhooks(configs, developerId) {
      if (!Array.isArray(configs)) throw new MockHttpError(400, 'configs must be an array of webhook configurations.');
      if (configs.length > 20) throw new MockHttpError(400, 'At most 20 webhook configurations are allowed.');
      let parsed: WebhookConfig[];
      try {
        parsed = configs.map((c, i) => parseWebhookConfig(c, `configs[${i}]`));
      } catch (error) {
        throw new MockHttpError(400, error instanceof Error ? error.message : String(error));
      }
      const dev = account(developerId);
      dev.webhooks = parsed;
      return { configs: parsed.map((c) => ({ ...c })) };
    },
    async triggerNotification(input) {
      if (typeof input.event !== 'string' || !(NOTIFICATION_EVENTS as readonly string[]).includes(input.event)) {
        throw new MockHttpError(400, `event must be one of ${NOTIFICATION_EVENTS.join(', ')}.`);
      }
      const event = input.event;
      const enterprise = event.startsWith('enterprise_');
      const shortCode = input.shortCode === undefined || input.shortCode === null ? '' : input.shortCode;
      if (typeof shortCode !== 'string') throw new MockHttpError(400, 'short_code must be a string.');
      if (shortCode === '' && !enterprise) throw new MockHttpError(400, 'short_code is required for order events.');
      const t = shortCode === '' ? undefined : table(shortCode);
      let clientUserId: string | null = null;
      if (input.clientUserId !== undefined && input.clientUserId !== null) {
        if (typeof input.clientUserId !== 'string' || input.clientUserId === '')
          throw new MockHttpError(400, 'client_user_id must be a non-empty string or null.');
        clientUserId = input.clientUserId;
      }
      const title = requireText(input.title, 'title', 200);
      const content = requireText(input.content, 'content', 2000);
      const link =
        optionalString(input.linkUrl, 'link_url', 2048) ?? (t ? `/${encodeURIComponent(t.short_code)}` : '/');
      const dev = account(input.developerId);
      const sent = await context.sendWebhook(dev.id, {
        event,
        short_code: shortCode,
        project_icon_url: t ? iconUrl(t.icon, baseUrl) : null,
        target: { client_user_id: clientUserId },
        notification: { title, content, link_url: checkLinkUrl(link) },
      });
      return { event, deliveries: sent };
    },
    async triggerRefund(input) {
      const dev = account(input.developerId);
      const user = state.knownUser(dev, input.clientUserId);
      const reason = input.reason ?? 'Refund after complaint review';
      const { record: rec, amountCents, table: t } = state.refund(dev, user, input.logId, reason, clock.now());
      const sent = await context.sendWebhook(dev.id, {
        event: 'billing_refund',
        short_code: rec.short_code ?? '',
        project_icon_url: t ? iconUrl(t.icon, baseUrl) : null,
        target: { client_user_id: user.clientUserId },
        billing: { amount: centsToYuan(amountCents), reason },
      });
      return { record: { ...rec }, deliveries: sent };
    },
    transfer(input) {
      return state.recharge(
        account(input.developerId),
        {
          clientUserId: input.clientUserId,
          amountCents: input.amountCents,
          reason: input.reason ?? 'Console transfer',
        },
        clock.now(),
      );
    },
    ledger(developerId) {
      const dev = account(developerId);
      let balances = 0;
      for (const u of dev.users.values()) balances += u.balanceCents;
      return {
        poolCents: dev.poolCents,
        balancesCents: balances,
        toppedUpCents: dev.totals.toppedUp,
        chargedCents: dev.totals.charged,
        refundedCents: dev.totals.refunded,
        balanced: state.ledgerBalanced(dev),
      };
    },
    snapshot() {
      return {
        outbound_ips: ['127.0.0.1'],
        accounts: [...state.accounts.values()].map((a) => ({
          id: a.id,
          name: a.name,
          role: a.role,
          pool_cents: a.poolCents,
          keys: [...state.keys.values()]
            .filter((k) => k.accountId === a.id)
            .map((k) => ({
              key: maskKey(k.key),
              status: k.status,
              expires_at: k.expiresAt === null ? null : isoUtc(k.expiresAt),
            })),
          users: [...a.users.values()].map((u) => ({
            client_user_id: u.clientUserId,
            user_id: u.userId,
            balance_cents: u.balanceCents,
          })),
          webhooks: a.webhooks.map((w) => ({ ...w })),
        })),
        tables: state.tables.map((t) => ({ ...t, icon: iconUrl(t.icon, baseUrl) })),
      };
    },
  };
  if (options.console !== false) consoleApi = consoleRoutes(hub);
  return hub;
}
