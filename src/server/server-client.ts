import { ILL_FORMED_ID, isWellFormedId } from './ids.js';
import { publishedListPath } from '../core/paths.js';
import { HubError, isHubError } from '../core/errors.js';
import { API_ROOT_ENDING, apiBaseUrl } from '../core/urls.js';
import { readBodyBytes } from './body.js';
import { apiErrorFor } from './errors.js';
import { checkedOnUse, settingError } from './settings.js';
import { ILL_FORMED_ORDER_ID } from './order-marker.js';
import {
  checkRechargeOptions,
  findRechargeIn,
  rechargeOnce,
  resolveRechargeIn,
  type FindRechargeInput,
  type RechargeOptions,
  type ResolveRechargeInput,
} from './recharge-client.js';
import type { RechargeOutcome } from './recharge-decision.js';
import {
  parseLogsPage,
  parseRecharge,
  parseBalance,
  parseToken,
  type Balance,
  type LogsPage,
  type PointsLogRecord,
  type RechargeResult,
  type Token,
} from './results.js';

/** Options of the server's client (API key); the browser's `WebClient` (Bearer token) is a different thing. */
export interface ServerClientOptions {
  /**
   * The full plaintext API key (`sk-...`). Keep it on the server; it is never shown by this client. Checked
   * at the first call, not here, so a build without secrets may create the client (undefined until then).
   */
  apiKey: string | undefined;
  /**
   * The service's address, e.g. https://hub.example.com (the client adds the spec's /api/v1/hub), or its
   * API root as given, e.g. https://hub.example.com/api/v1/apihub (a path ending in /api/v<n>/<segment>).
   * Checked at the first call, as apiKey is.
   */
  baseUrl: string | undefined;
  /** A fetch-compatible function; default: the global fetch. */
  fetch?: typeof fetch;
  /** Per request; a slower answer fails with HubError kind 'timeout'. Default 10000. */
  timeoutMs?: number;
  /** The wait before the one logs read after a lost answer, and the settle window (docs/server.md, "Points credited exactly once"). */
  recharge?: RechargeOptions;
}

export interface RechargeInput {
  clientUserId: string;
  /** Points to credit, in cents: a positive safe integer. */
  amountCents: number;
  /** Your payment order number, for reconciliation. */
  externalOrderId?: string;
  reason?: string;
}

/** A published-list query: any-match tags and the most tables to list. */
export interface PublishedListQuery {
  tags?: readonly string[];
  limit?: number;
}

export interface LogsQuery {
  /** 1-based; default 1. */
  page?: number;
  /** 1 to 100; default 20. */
  pageSize?: number;
}

/**
 * The service's server-side endpoints, called with the API key. Failures are HubAuthError (401),
 * HubPoolInsufficientError (402), HubApiError (other statuses), or HubError kind 'timeout' | 'network' |
 * 'invalid-response' | 'config'. Error messages carry the status and code, never the service's text.
 * A missing or malformed apiKey or baseUrl is a 'config' error of every call (and of reading these two
 * properties) until it is set.
 */
export interface ServerClient {
  /** The service's `{base_url}`: the API root without its `/api/v<n>/<segment>`. */
  readonly baseUrl: string;
  /** Where every call goes: `{base_url}/api/v1/hub`, or the root given (`…/api/v1/apihub`). */
  readonly apiRoot: string;
  exchangeToken(clientUserId: string): Promise<Token>;
  balance(clientUserId: string): Promise<Balance>;
  /**
   * Sends the recharge once, with the order marker at the start of `reason`. A success, or the service's
   * own refusal (400, 401, 402, 403, 422 in its envelope), is the outcome. Any other answer proves nothing:
   * the logs are read once for the order's credit, and without it HubRechargePendingError is thrown. It is
   * never sent again on its own.
   */
  recharge(input: RechargeInput): Promise<RechargeResult>;
  /** The credit record of an order in the logs, or null when there is none yet (not proof: see resolveRecharge). */
  findRecharge(input: FindRechargeInput): Promise<PointsLogRecord | null>;
  /**
   * What the logs prove of an order last sent at `sentAt`: applied (a credit record), not-applied (no
   * record, and the settle window has passed since `sentAt`), or pending (send nothing yet).
   */
  resolveRecharge(input: ResolveRechargeInput): Promise<RechargeOutcome>;
  logs(clientUserId: string, query?: LogsQuery): Promise<LogsPage>;
  /**
   * GET published-tags with an end user's access token (Bearer), as the browser would: the service's
   * `data.list`, items unchecked (the widget checks them as it checks its own answers).
   */
  publishedTags(accessToken: string): Promise<unknown[]>;
  /** GET published-list with an end user's access token, at the URL the widget would ask for. */
  publishedList(accessToken: string, query?: PublishedListQuery): Promise<unknown[]>;
}

const DEFAULT_TIMEOUT_MS = 10_000;
/** Every answer the spec describes is a few KB; a logs page of 100 records stays far below this. */
export const MAX_ANSWER_BYTES = 1024 * 1024;

function configError(message: string): HubError {
  return new HubError('config', message);
}

function systemCode(error: unknown): string {
  const code = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  return typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,40}$/.test(code) ? ` (${code})` : '';
}

/** What each failing status means for you, with the numbers a support request needs. */
function failureMessage(what: string, status: number, code: number | undefined): string {
  const numbers = `HTTP ${status}${code === undefined ? '' : `, code ${code}`}`;
  const effective = code !== undefined && code !== 200 && status >= 200 && status <= 299 ? code : status;
  if (effective === 401)
    return `The service refused the API key for ${what} (${numbers}); check apiKey in your server's configuration.`;
  if (effective === 402)
    return `The developer points pool cannot cover ${what} (${numbers}); top it up in the developer console.`;
  return `The service answered ${what} with an error (${numbers}).`;
}

/**
 * For a 404 or an answer that is not the envelope, the likely cause: a wrong API root. It names the one
 * used and the two the docs know, the spec's and the real deployment's.
 */
function apiRootHint(apiRoot: string): string {
  const base = apiRoot.replace(API_ROOT_ENDING, '');
  return (
    ` The API root used was ${apiRoot}; the docs know two: ${base}/api/v1/hub (the spec) and ` +
    `${base}/api/v1/apihub (the real deployment). If this is not the service's own answer, set baseUrl to the one it answers on.`
  );
}

const API_KEY = { option: 'apiKey', variable: 'HUB_API_KEY' };
const BASE_URL = { option: 'baseUrl', variable: 'HUB_BASE_URL' };

function checkApiKey(apiKey: unknown): string {
  // Never quote the value: a wrong key is still a key.
  if (typeof apiKey !== 'string' || apiKey.trim() === '')
    throw settingError(
      API_KEY,
      "apiKey is not set: give createServerClient the full plaintext API key from the developer console, from your server's environment (HUB_API_KEY in the docs).",
    );
  if (/[\u0000-\u001f\u007f]/.test(apiKey) || /[^\u0000-\u00ff]/.test(apiKey))
    throw settingError(
      API_KEY,
      'apiKey contains characters no API key has; check the value of HUB_API_KEY (or wherever it comes from) for pasted line breaks.',
    );
  return apiKey;
}

function checkBaseUrl(baseUrl: unknown): string {
  if (baseUrl === undefined || baseUrl === null || (typeof baseUrl === 'string' && baseUrl.trim() === ''))
    throw settingError(
      BASE_URL,
      "baseUrl is not set: give createServerClient the service's address, like https://hub.example.com/api/v1/apihub, from your server's environment (HUB_BASE_URL in the docs).",
    );
  try {
    return apiBaseUrl(baseUrl, 'baseUrl');
  } catch (error) {
    // apiBaseUrl's one message says what a usable value looks like; it never quotes the value.
    throw settingError(BASE_URL, `${(error as Error).message} Check HUB_BASE_URL (or wherever it comes from).`);
  }
}

function checkUserId(clientUserId: unknown): string {
  if (typeof clientUserId !== 'string' || clientUserId.trim() === '') {
    throw configError('clientUserId must be a non-empty string: your own id of the end user.');
  }
  if (!isWellFormedId(clientUserId)) throw configError(ILL_FORMED_ID);
  return clientUserId;
}

function checkToken(accessToken: unknown): string {
  if (typeof accessToken !== 'string' || accessToken === '' || /[\u0000-\u001f\u007f]/.test(accessToken))
    throw configError('accessToken must be the access token of an end user, from exchangeToken.');
  return accessToken;
}

/** `data.list`, or `data` itself when that is the array, as the widget reads it. */
function listOf(data: unknown, what: string): unknown[] {
  const list = Array.isArray(data) ? data : (data as { list?: unknown } | null | undefined)?.list;
  if (!Array.isArray(list))
    throw new HubError('invalid-response', `The service answered published-${what} without a list.`, {});
  return list;
}

function checkOptionalString(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw configError(`${name} must be a string when given.`);
  return value;
}

/** An order id becomes the marker's hash input, so it must have a UTF-8 spelling. */
function checkOrderId(value: unknown): string | undefined {
  const orderId = checkOptionalString(value, 'externalOrderId');
  if (orderId !== undefined && !isWellFormedId(orderId)) throw configError(ILL_FORMED_ORDER_ID);
  return orderId;
}

function checkInteger(value: unknown, name: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    throw configError(
      `${name} must be an integer from ${min} to ${max === Number.MAX_SAFE_INTEGER ? 'Number.MAX_SAFE_INTEGER' : max}.`,
    );
  }
  return value;
}

/** A time in ms since the epoch, as Date.now() gives it. */
function checkTime(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    throw configError(`${name} must be a time in ms since the epoch, as Date.now() gives it.`);
  return value;
}

/** The order a lookup names: checked before anything is read. */
function checkLookup(
  input: FindRechargeInput | undefined,
  what: string,
): { id: string; externalOrderId: string; amountCents: number } {
  if (typeof input !== 'object' || input === null)
    throw configError(`${what} needs {clientUserId, externalOrderId, amountCents}.`);
  const id = checkUserId(input.clientUserId);
  const amountCents = checkInteger(input.amountCents, 'amountCents', 1, Number.MAX_SAFE_INTEGER);
  const externalOrderId = checkOrderId(input.externalOrderId);
  if (externalOrderId === undefined) throw configError(`${what} needs the externalOrderId of the recharge.`);
  return { id, externalOrderId, amountCents };
}

export function createServerClient(options: ServerClientOptions): ServerClient {
  if (typeof options !== 'object' || options === null)
    throw configError('createServerClient needs {apiKey, baseUrl}: read both from your server environment.');
  // What comes from the environment is checked at the first call: a build loads this module without secrets.
  const settings = checkedOnUse(() => {
    const apiKey = checkApiKey(options.apiKey);
    const apiRoot = checkBaseUrl(options.baseUrl);
    return { apiKey, apiRoot, baseUrl: apiRoot.replace(API_ROOT_ENDING, '') };
  });
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') throw configError('No fetch is available; pass options.fetch.');
  const timeoutMs =
    options.timeoutMs === undefined ? DEFAULT_TIMEOUT_MS : checkInteger(options.timeoutMs, 'timeoutMs', 1, 600_000);
  const rechargeOptions = checkRechargeOptions(options.recharge);

  /** `bearer`: an end user's access token, for the Bearer endpoints; else the API key authenticates. */
  async function call(
    method: 'GET' | 'POST',
    path: string,
    query: Record<string, string | number>,
    body?: unknown,
    bearer?: string,
  ): Promise<unknown> {
    const { apiKey, apiRoot: apiBase } = settings();
    const url = new URL(apiBase + path);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = {
      ...(bearer === undefined ? { 'X-API-Key': apiKey } : { authorization: `Bearer ${bearer}` }),
      accept: 'application/json',
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    let response: Response;
    let bytes: Uint8Array | undefined;
    try {
      response = await fetchImpl(url, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: controller.signal,
        // 'manual', then refused below: workerd implements no 'error' ("it does not make sense at the edge").
        redirect: 'manual',
      });
      if (isRedirect(response)) {
        await response.body?.cancel().catch(() => undefined);
        throw new HubError(
          'invalid-response',
          `The service answered ${method} ${path} with a redirect (HTTP ${response.status}), which is not followed, ` +
            'so the key goes to no other address. Check baseUrl (https and the exact host).',
          { status: response.status },
        );
      }
      bytes = await readBodyBytes(response, MAX_ANSWER_BYTES);
    } catch (error) {
      if (isHubError(error)) throw error;
      if (controller.signal.aborted)
        throw new HubError('timeout', `The service did not answer ${method} ${path} within ${timeoutMs} ms.`, {});
      // Neither the cause nor its message is passed on: a custom fetch may put the request, key included,
      // on its errors. A system error code (ECONNREFUSED) says enough.
      throw new HubError(
        'network',
        `Could not reach the service for ${method} ${path}${systemCode(error)}. Check baseUrl and the network.`,
      );
    } finally {
      clearTimeout(timer);
    }
    if (bytes === undefined) {
      throw new HubError(
        'invalid-response',
        `The service answered ${method} ${path} with more than ${MAX_ANSWER_BYTES} bytes; is baseUrl the Open Integration Service?`,
        { status: response.status },
      );
    }
    return unwrap(response.status, new TextDecoder().decode(bytes), `${method} ${path}`, apiBase);
  }

  /** Status and code only: the service's own message may echo the key, in any spelling. */
  function unwrap(status: number, text: string, what: string, apiBase: string): unknown {
    let parsed: unknown;
    let isJson = true;
    try {
      parsed = JSON.parse(text);
    } catch {
      isJson = false;
    }
    const envelope = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
    const code = Number.isSafeInteger(envelope?.code) ? (envelope!.code as number) : undefined;
    const hint = status === 404 || code === undefined ? apiRootHint(apiBase) : '';
    if (status < 200 || status > 299) throw apiErrorFor(status, failureMessage(what, status, code) + hint, code);
    if (!isJson || envelope === undefined) {
      throw new HubError(
        'invalid-response',
        `The service answered ${what} with something that is not a JSON envelope.${hint}`,
        { status },
      );
    }
    if (code !== undefined && code !== 200) {
      // Some deployments answer HTTP 200 with the failure only in the envelope.
      throw apiErrorFor(code, failureMessage(what, status, code), code);
    }
    return envelope.data;
  }

  /** The API root for display: never a reason to throw, so logging an unconfigured client works. */
  const shownRoot = () => {
    try {
      return settings().apiRoot;
    } catch {
      return 'not configured';
    }
  };

  const client: ServerClient & { toString(): string; toJSON(): unknown } = {
    get baseUrl() {
      return settings().baseUrl;
    },
    get apiRoot() {
      return settings().apiRoot;
    },
    async exchangeToken(clientUserId) {
      const id = checkUserId(clientUserId);
      return parseToken(await call('POST', '/apikeys/token', {}, { client_user_id: id }));
    },
    async balance(clientUserId) {
      const id = checkUserId(clientUserId);
      return parseBalance(await call('GET', '/points/users/balance', { client_user_id: id }));
    },
    async recharge(input) {
      // Before anything is sent: an unset key must not look like a lost answer to resolve from the logs.
      settings();
      if (typeof input !== 'object' || input === null) throw configError('recharge needs {clientUserId, amountCents}.');
      const id = checkUserId(input.clientUserId);
      const amountCents = checkInteger(input.amountCents, 'amountCents', 1, Number.MAX_SAFE_INTEGER);
      const externalOrderId = checkOrderId(input.externalOrderId);
      const reason = checkOptionalString(input.reason, 'reason');
      return rechargeOnce(
        { clientUserId: id, amountCents, externalOrderId, reason },
        rechargeOptions,
        async (body) => parseRecharge(await call('POST', '/points/users/recharge', {}, body)),
        (page) => client.logs(id, { page, pageSize: 100 }),
      );
    },
    async findRecharge(input) {
      settings();
      const { id, externalOrderId, amountCents } = checkLookup(input, 'findRecharge');
      return findRechargeIn((page) => client.logs(id, { page, pageSize: 100 }), externalOrderId, amountCents);
    },
    async resolveRecharge(input) {
      settings();
      const { id, externalOrderId, amountCents } = checkLookup(input, 'resolveRecharge');
      const sentAt = input.sentAt === undefined ? undefined : checkTime(input.sentAt, 'sentAt');
      const now = input.now === undefined ? Date.now() : checkTime(input.now, 'now');
      return resolveRechargeIn(
        (page) => client.logs(id, { page, pageSize: 100 }),
        { orderId: externalOrderId, amountCents, sentAt, now },
        rechargeOptions.settleWindowMs,
      );
    },
    async logs(clientUserId, query = {}) {
      const id = checkUserId(clientUserId);
      const page = query.page === undefined ? 1 : checkInteger(query.page, 'page', 1, Number.MAX_SAFE_INTEGER);
      const pageSize = query.pageSize === undefined ? 20 : checkInteger(query.pageSize, 'pageSize', 1, 100);
      return parseLogsPage(await call('GET', '/points/users/logs', { client_user_id: id, page, page_size: pageSize }), {
        page,
        pageSize,
      });
    },
    async publishedTags(accessToken) {
      return listOf(await call('GET', '/projects/published-tags', {}, undefined, checkToken(accessToken)), 'tags');
    },
    async publishedList(accessToken, query = {}) {
      const token = checkToken(accessToken);
      // The browser's own URL (tags sorted and de-duplicated), so both share one upstream cache entry.
      const path = `/projects/${publishedListPath(query)}`;
      return listOf(await call('GET', path, {}, undefined, token), 'list');
    },
    toString: () => `ServerClient(${shownRoot()})`,
    toJSON: () => {
      const root = shownRoot();
      return { baseUrl: root.replace(API_ROOT_ENDING, ''), apiRoot: root };
    },
  };
  // util.inspect.custom is this registered symbol; naming it so keeps node:util out of neutral runtimes (workerd).
  Object.defineProperty(client, Symbol.for('nodejs.util.inspect.custom'), {
    value: () => `ServerClient { apiRoot: '${shownRoot()}' }`,
    enumerable: false,
  });
  return Object.freeze(client);
}

/** A redirect as fetch reports it with redirect: 'manual': a 3xx on Node, Bun, Deno and workerd, opaque in a browser. */
function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);
}
