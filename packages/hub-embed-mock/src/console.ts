/**
 * The developer console (not part of the open API): JSON endpoints under /console that call the
 * same typed methods tests and integrators use on the hub object, and that the console's web pages
 * and the CLI's commands (trigger, resend, reset, clock) call.
 *
 * The console has no login (it is a local simulator), so it must not be drivable by other web pages:
 * the host check (hosts.ts) stops DNS rebinding, and here every endpoint refuses a request a browser
 * marks as coming from another site or origin. Any web page the developer visits could otherwise POST
 * to 127.0.0.1:4010 and reset the simulator or move points, or read the seed with its keys.
 */
import { pageQuery } from './api.js';
import type { Route } from './context.js';
import { MockHttpError, isoUtc, ok, optionalString, readJsonObject, requireAmountCents, requireId } from './http.js';
import type { AdminOperations, HubLogs, MockClock, ReadViews, TriggerInput } from './types.js';

/** What the console reaches: the admin operations, the read views, the logs and the clock. */
export type ConsoleTarget = AdminOperations &
  ReadViews &
  Pick<HubLogs, 'requestLog' | 'deliveries'> & { clock: MockClock };

/** At most ten years in one step: enough for any expiry, and far from unsafe numbers. */
const MAX_ADVANCE_MS = 10 * 366 * 24 * 3600_000;

function optionalDeveloperId(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0)
    throw new MockHttpError(400, 'developer_id must be a positive integer.');
  return value;
}

function positiveId(value: unknown, field: string, what: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0)
    throw new MockHttpError(400, `${field} must be the id of ${what}.`);
  return value;
}

/**
 * Refuses what a browser sends from another site or origin: `Sec-Fetch-Site` other than same-origin
 * (or none: typed into the address bar), or an `Origin` that is not this site's. Clients outside a
 * browser (the CLI, curl, tests) send neither header and are answered.
 */
export function refuseCrossSite(req: Request, url: URL): void {
  const site = req.headers.get('sec-fetch-site');
  if (site !== null && site !== 'same-origin' && site !== 'none')
    throw new MockHttpError(403, 'The console answers its own pages only (Sec-Fetch-Site is not same-origin).');
  const origin = req.headers.get('origin');
  if (origin === null) return;
  const hostHeader = req.headers.get('host');
  const own = origin === url.origin || (hostHeader !== null && origin === `${url.protocol}//${hostHeader}`);
  if (!own) throw new MockHttpError(403, 'The console answers its own pages only (Origin is another site).');
}

function keyOf(body: Record<string, unknown>): string {
  return body.id !== undefined ? requireId(body.id, 'id') : requireId(body.key, 'key');
}

function clockView(clock: MockClock) {
  return { now: isoUtc(clock.now()), now_ms: clock.now() };
}

export function consoleRoutes(hub: ConsoleTarget): Route[] {
  const guarded = (route: Route): Route => ({
    ...route,
    handle(req, url, meta) {
      refuseCrossSite(req, url);
      return route.handle(req, url, meta);
    },
  });
  const get = (path: string, run: (url: URL) => unknown): Route => ({
    method: 'GET',
    path,
    handle: async (_req, url) => ok(await run(url)),
  });
  const post = (path: string, run: (body: Record<string, unknown>) => unknown, method: 'POST' | 'PUT' = 'POST') =>
    ({
      method,
      path,
      handle: async (req) => ok(await run(await readJsonObject(req))),
    }) satisfies Route;

  const routes: Route[] = [
    get('/console/state', () => hub.snapshot()),
    get('/console/requests', (url) => {
      const path = url.searchParams.get('path') ?? '';
      const status = url.searchParams.get('status');
      const user = url.searchParams.get('user');
      if (status !== null && !/^\d{3}$/.test(status))
        throw new MockHttpError(400, 'status must be a three-digit HTTP status.');
      const list = hub.requestLog.filter(
        (entry) =>
          entry.path.includes(path) &&
          (status === null || entry.status === Number(status)) &&
          (user === null || entry.clientUserId === user),
      );
      return { list };
    }),
    get('/console/deliveries', () => ({ list: hub.deliveries })),
    post('/console/deliveries/resend', (body) => hub.resend(positiveId(body.id, 'id', 'a delivery'))),
    get('/console/keys', () => ({ list: hub.keys() })),
    post('/console/keys', (body) => {
      const expiresAt = optionalString(body.expires_at, 'expires_at', 64);
      return hub.createApiKey({
        developerId: optionalDeveloperId(body.developer_id),
        ...(expiresAt !== undefined ? { expiresAt } : {}),
      });
    }),
    post('/console/keys/disable', (body) => hub.disableKey(keyOf(body))),
    post('/console/keys/expire', (body) => hub.expireKey(keyOf(body))),
    get('/console/points', () => hub.points()),
    post('/console/pool/top-up', (body) =>
      hub.topUp({ yuan: body.yuan, developerId: optionalDeveloperId(body.developer_id) }),
    ),
    post('/console/transfers', (body) =>
      hub.transfer({
        clientUserId: requireId(body.client_user_id, 'client_user_id'),
        amountCents: requireAmountCents(body.amount_cents),
        reason: optionalString(body.reason, 'reason', 500),
        developerId: optionalDeveloperId(body.developer_id),
      }),
    ),
    get('/console/transfers', (url) => {
      const { page, pageSize } = pageQuery(url);
      return hub.transfers(page, pageSize);
    }),
    get('/console/users/logs', (url) => {
      const { page, pageSize } = pageQuery(url);
      return hub.userLogs(requireId(url.searchParams.get('client_user_id'), 'client_user_id'), page, pageSize);
    }),
    get('/console/tables', (url) => {
      const { page, pageSize } = pageQuery(url);
      return hub.tables(page, pageSize);
    }),
    post('/console/tables', (body) => hub.addTable(body)),
    post('/console/tables/publish', (body) => hub.publish(requireId(body.short_code, 'short_code'))),
    post('/console/tables/unpublish', (body) => hub.unpublish(requireId(body.short_code, 'short_code'))),
    get('/console/webhooks', () => hub.webhooks()),
    post('/console/webhooks', (body) => hub.setWebhooks(body.configs, optionalDeveloperId(body.developer_id)), 'PUT'),
    post('/console/notifications', (body) =>
      hub.triggerNotification({
        event: body.event,
        clientUserId: body.client_user_id,
        shortCode: body.short_code,
        title: body.title,
        content: body.content,
        linkUrl: body.link_url,
        developerId: optionalDeveloperId(body.developer_id),
      }),
    ),
    get('/console/trigger/preview', (url) => hub.triggerPreview({ event: url.searchParams.get('event') })),
    post('/console/trigger', (body) => hub.trigger(triggerInput(body))),
    post('/console/refunds', (body) =>
      hub.triggerRefund({
        clientUserId: requireId(body.client_user_id, 'client_user_id'),
        logId: positiveId(body.log_id, 'log_id', 'a deduct record'),
        reason: optionalString(body.reason, 'reason', 500),
        developerId: optionalDeveloperId(body.developer_id),
      }),
    ),
    get('/console/clock', () => clockView(hub.clock)),
    post('/console/clock', (body) => {
      if (body.resume === true && body.advance_ms === undefined) hub.clock.resume();
      else {
        const ms = body.advance_ms;
        if (typeof ms !== 'number' || !Number.isSafeInteger(ms) || ms <= 0 || ms > MAX_ADVANCE_MS)
          throw new MockHttpError(
            400,
            `advance_ms must be a whole number of milliseconds from 1 to ${MAX_ADVANCE_MS}.`,
          );
        hub.clock.advance(ms);
      }
      return clockView(hub.clock);
    }),
    post('/console/reset', () => {
      hub.reset();
      return { reset: true };
    }),
    get('/console/seed', () => hub.seed()),
  ];
  return routes.map(guarded);
}

function triggerInput(body: Record<string, unknown>): TriggerInput {
  return {
    event: body.event,
    clientUserId: body.client_user_id,
    shortCode: body.short_code,
    amount: body.amount,
    reason: body.reason,
    title: body.title,
    content: body.content,
    linkUrl: body.link_url,
    set: body.set,
    developerId: optionalDeveloperId(body.developer_id),
  };
}
