/** The open API: exactly the spec's six endpoints under /api/v1/hub. */
import type { HubContext, RequestMeta, Route } from './context.js';
import { iconUrl } from './icons.js';
import { MockHttpError, ok, optionalString, queryInt, readJsonObject, requireAmountCents, requireId } from './http.js';

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

export function apiRoutes(hub: HubContext): Route[] {
  const { state } = hub;
  return [
    {
      method: 'POST',
      path: `${API_PREFIX}/apikeys/token`,
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
      path: `${API_PREFIX}/projects/published-tags`,
      async handle(req, _url, meta) {
        const { clientUserId } = state.authenticateToken(bearerOf(req, meta), hub.now());
        meta.clientUserId = clientUserId;
        const tags = new Set(state.publishedTables().flatMap((t) => t.tags));
        return ok({ list: [...tags].sort() });
      },
    },
    {
      method: 'GET',
      path: `${API_PREFIX}/projects/published-list`,
      async handle(req, url, meta) {
        const { clientUserId } = state.authenticateToken(bearerOf(req, meta), hub.now());
        meta.clientUserId = clientUserId;
        const wanted = parseTags(url.searchParams.get('tags')).map((t) => t.toLowerCase());
        const limit = queryInt(url.searchParams, 'limit', LIST_LIMIT_DEFAULT, 1, LIST_LIMIT_MAX);
        const published = state.publishedTables();
        const matches = (tags: string[]) => tags.some((tag) => wanted.some((w) => tag.toLowerCase().includes(w)));
        const ordered =
          wanted.length === 0
            ? published
            : [...published.filter((t) => matches(t.tags)), ...published.filter((t) => !matches(t.tags))];
        const chosen = ordered.slice(0, limit);
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
      path: `${API_PREFIX}/points/users/balance`,
      async handle(req, url, meta) {
        const account = state.authenticateKey(apiKeyOf(req, meta), hub.now());
        const clientUserId = requireQueryId(url, 'client_user_id');
        meta.clientUserId = clientUserId;
        const user = state.knownUser(account, clientUserId);
        return ok({ client_user_id: user.clientUserId, user_id: user.userId, balance_cents: user.balanceCents });
      },
    },
    {
      method: 'POST',
      path: `${API_PREFIX}/points/users/recharge`,
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
        return ok(state.recharge(account, input, hub.now()));
      },
    },
    {
      method: 'GET',
      path: `${API_PREFIX}/points/users/logs`,
      async handle(req, url, meta) {
        const account = state.authenticateKey(apiKeyOf(req, meta), hub.now());
        const clientUserId = requireQueryId(url, 'client_user_id');
        meta.clientUserId = clientUserId;
        const page = queryInt(url.searchParams, 'page', 1, 1, 1_000_000);
        const pageSize = queryInt(url.searchParams, 'page_size', PAGE_SIZE_DEFAULT, 1, PAGE_SIZE_MAX);
        const user = state.knownUser(account, clientUserId);
        const newestFirst = [...user.logs].reverse();
        const list = newestFirst.slice((page - 1) * pageSize, page * pageSize).map((r) => ({ ...r }));
        return ok({
          client_user_id: user.clientUserId,
          user_id: user.userId,
          list,
          total: user.logs.length,
          page,
          page_size: pageSize,
        });
      },
    },
  ];
}
