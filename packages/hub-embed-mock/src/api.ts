/** The open API: exactly the spec's six endpoints, under /api/v1/hub or the `apiPrefix` chosen. */
import type { HubContext, RequestMeta, Route } from './context.js';
import { iconUrl } from './icons.js';
import { MockHttpError, ok, optionalString, queryInt, readJsonObject, requireAmountCents, requireId } from './http.js';
import { failedRecharge, recharge } from './ledger.js';
import { logsPage } from './profiles.js';

/** The spec's prefix, the default `apiPrefix`. */
export const API_PREFIX = '/api/v1/hub';
export const LIST_LIMIT_DEFAULT = 100;
export const LIST_LIMIT_MAX = 100;
export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;

function apiKeyOf(req: Request, meta: RequestMeta): string | null {
  const key = req.headers.get('x-api-key');
  if (key !== null) meta.auth = 'api-key';
  return key;
}

function bearerOf(req: Request, meta: RequestMeta): string | null {
  const header = req.headers.get('authorization');
  if (header === null) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new MockHttpError(401, 'Authorization must be "Bearer <access_token>".');
  meta.auth = 'bearer';
  return match[1]!;
}

function requireQueryId(url: URL, name: string): string {
  const values = url.searchParams.getAll(name);
  if (values.length > 1) throw new MockHttpError(400, `${name} must be given once.`);
  return requireId(values[0], name);
}

/** Splits `tags` on ASCII or full-width commas; blanks and repeats are ignored. */
export function parseTags(raw: string | null): string[] {
  if (raw === null) return [];
  if (raw.length > 2048) throw new MockHttpError(400, 'tags must be at most 2048 characters.');
  const tags = raw
    .split(/[,，]/)
    .map((t) => t.trim())
    .filter(Boolean);
  return [...new Set(tags)];
}

/** `page` (default 1) and `page_size` (default 20, at most 100), as the logs endpoint takes them. */
export function pageQuery(url: URL): { page: number; pageSize: number } {
  return {
    page: queryInt(url.searchParams, 'page', 1, 1, 1_000_000),
    pageSize: queryInt(url.searchParams, 'page_size', PAGE_SIZE_DEFAULT, 1, PAGE_SIZE_MAX),
  };
}

export function apiRoutes(hub: HubContext): Route[] {
  const { state, apiPrefix } = hub;

  /** The balance and logs endpoints: API key, then the one `client_user_id`, then a user already known. */
  function userOfQuery(req: Request, url: URL, meta: RequestMeta) {
    const account = state.authenticateKey(apiKeyOf(req, meta), hub.now());
    const clientUserId = requireQueryId(url, 'client_user_id');
    meta.clientUserId = clientUserId;
    return { account, clientUserId };
  }

  return [
    {
      method: 'POST',
      path: `${apiPrefix}/apikeys/token`,
      async handle(req, _url, meta) {
        const account = state.authenticateKey(apiKeyOf(req, meta), hub.now());
        const body = await readJsonObject(req);
        const clientUserId = requireId(body.client_user_id, 'client_user_id');
        meta.clientUserId = clientUserId;
        return ok(state.issueToken(account, clientUserId, hub.now(), hub.tokenTtlSeconds));
      },
    },
    {
      method: 'GET',
      path: `${apiPrefix}/projects/published-tags`,
      handle(req, _url, meta) {
        const { clientUserId } = state.authenticateToken(bearerOf(req, meta), hub.now());
        meta.clientUserId = clientUserId;
        return ok({ list: [...state.catalog.tags()] });
      },
    },
    {
      method: 'GET',
      path: `${apiPrefix}/projects/published-list`,
      handle(req, url, meta) {
        const { clientUserId } = state.authenticateToken(bearerOf(req, meta), hub.now());
        meta.clientUserId = clientUserId;
        const wanted = parseTags(url.searchParams.get('tags')).map((t) => t.toLowerCase());
        const limit = queryInt(url.searchParams, 'limit', LIST_LIMIT_DEFAULT, 1, LIST_LIMIT_MAX);
        const chosen = state.catalog.query(wanted, limit);
        const list = chosen.map((t) => ({
          short_code: t.short_code,
          name: t.name,
          industry: t.industry,
          icon: iconUrl(t.icon, hub.baseUrl),
          tags: [...t.tags],
          total: chosen.length,
        }));
        return ok({ list, total: list.length });
      },
    },
    {
      method: 'GET',
      path: `${apiPrefix}/points/users/balance`,
      handle(req, url, meta) {
        const { account, clientUserId } = userOfQuery(req, url, meta);
        const user = state.knownUser(account, clientUserId);
        return ok({ client_user_id: user.clientUserId, user_id: user.userId, balance_cents: user.balanceCents });
      },
    },
    {
      method: 'POST',
      path: `${apiPrefix}/points/users/recharge`,
      async handle(req, _url, meta) {
        const account = state.authenticateKey(apiKeyOf(req, meta), hub.now());
        const body = await readJsonObject(req);
        const clientUserId = requireId(body.client_user_id, 'client_user_id');
        meta.clientUserId = clientUserId;
        const amountCents = requireAmountCents(body.amount_cents);
        const externalOrderId = optionalString(body.external_order_id, 'external_order_id', 128);
        const reason = optionalString(body.reason, 'reason', 500);
        const input = {
          clientUserId,
          amountCents,
          ...(externalOrderId !== undefined ? { externalOrderId } : {}),
          ...(reason !== undefined ? { reason } : {}),
        };
        if (meta.failedAttempt !== undefined) {
          failedRecharge(state, account, input, hub.now(), hub.profile);
          throw new MockHttpError(
            meta.failedAttempt,
            'Injected failure: the attempt was logged as failed; nothing was credited.',
          );
        }
        return ok(recharge(state, account, input, hub.now(), hub.profile));
      },
    },
    {
      method: 'GET',
      path: `${apiPrefix}/points/users/logs`,
      handle(req, url, meta) {
        const { account, clientUserId } = userOfQuery(req, url, meta);
        const { page, pageSize } = pageQuery(url);
        const user = state.knownUser(account, clientUserId);
        return ok({
          client_user_id: user.clientUserId,
          user_id: user.userId,
          ...logsPage(user.logs, page, pageSize, hub.profile, hub.now()),
        });
      },
    },
  ];
}
