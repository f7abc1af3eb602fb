/** The server client: the service's server-side endpoints called with the API key, and what each answer means. */
import { publishedListPath } from '../core/paths.js';
import { HubError, isHubError } from '../core/errors.js';
import { API_ROOT_ENDING } from '../core/urls.js';
import { readBodyBytes } from './body.js';
import {
  checkApiKey,
  checkBaseUrl,
  checkInteger,
  checkLookup,
  checkOptionalString,
  checkOrderId,
  checkTime,
  checkToken,
  checkUserId,
  configError,
} from './client-inputs.js';
import { apiErrorFor } from './errors.js';
import { checkedOnUse } from './settings.js';
import { checkRechargeOptions, findRechargeIn, rechargeOnce, resolveRechargeIn } from './recharge-client.js';
import { parseLogsPage, parseRecharge, parseBalance, parseToken } from './results.js';
import type { ServerClient, ServerClientOptions } from './server-client-types.js';

export type {
  LogsQuery,
  PublishedListQuery,
  RechargeInput,
  ServerClient,
  ServerClientOptions,
} from './server-client-types.js';

const DEFAULT_TIMEOUT_MS = 10_000;
/** Every answer the spec describes is a few KB; a logs page of 100 records stays far below this. */
export const MAX_ANSWER_BYTES = 1024 * 1024;

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

/** `data.list`, or `data` itself when that is the array, as the widget reads it. */
function listOf(data: unknown, what: string): unknown[] {
  const list = Array.isArray(data) ? data : (data as { list?: unknown } | null | undefined)?.list;
  if (!Array.isArray(list))
    throw new HubError('invalid-response', `The service answered published-${what} without a list.`, {});
  return list;
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
