/**
 * The developer console (not part of the open API): JSON endpoints under /console that call the
 * same typed methods tests and integrators use on the hub object.
 */
import type { Route } from './context.js';
import { MockHttpError, ok, readJsonObject, requireAmountCents, requireId, optionalString } from './http.js';
import type { AdminOperations, HubLogs, ReadViews } from './types.js';

/** What the console reaches: the admin operations, the read views and the logs. */
export type ConsoleTarget = AdminOperations & ReadViews & Pick<HubLogs, 'requestLog' | 'deliveries'>;

function optionalDeveloperId(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0)
    throw new MockHttpError(400, 'developer_id must be a positive integer.');
  return value;
}

function logIdOf(value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0)
    throw new MockHttpError(400, 'log_id must be the id of a deduct record.');
  return value;
}

export function consoleRoutes(hub: ConsoleTarget): Route[] {
  const post = (path: string, run: (body: Record<string, unknown>) => unknown): Route => ({
    method: 'POST',
    path,
    async handle(req) {
      return ok(await run(await readJsonObject(req)));
    },
  });
  return [
    { method: 'GET', path: '/console/state', handle: async () => ok(hub.snapshot()) },
    { method: 'GET', path: '/console/requests', handle: async () => ok({ list: hub.requestLog }) },
    { method: 'GET', path: '/console/deliveries', handle: async () => ok({ list: hub.deliveries }) },
    post('/console/keys', (b) => {
      const expiresAt = optionalString(b.expires_at, 'expires_at', 64);
      return hub.createApiKey({
        developerId: optionalDeveloperId(b.developer_id),
        ...(expiresAt !== undefined ? { expiresAt } : {}),
      });
    }),
    post('/console/keys/disable', (b) => hub.disableKey(requireId(b.key, 'key'))),
    post('/console/keys/expire', (b) => hub.expireKey(requireId(b.key, 'key'))),
    post('/console/pool/top-up', (b) => hub.topUp({ yuan: b.yuan, developerId: optionalDeveloperId(b.developer_id) })),
    post('/console/tables/publish', (b) => hub.publish(requireId(b.short_code, 'short_code'))),
    post('/console/tables/unpublish', (b) => hub.unpublish(requireId(b.short_code, 'short_code'))),
    {
      method: 'PUT',
      path: '/console/webhooks',
      async handle(req) {
        const b = await readJsonObject(req);
        return ok(hub.setWebhooks(b.configs, optionalDeveloperId(b.developer_id)));
      },
    },
    post('/console/notifications', (b) =>
      hub.triggerNotification({
        event: b.event,
        clientUserId: b.client_user_id,
        shortCode: b.short_code,
        title: b.title,
        content: b.content,
        linkUrl: b.link_url,
        developerId: optionalDeveloperId(b.developer_id),
      }),
    ),
    post('/console/refunds', (b) =>
      hub.triggerRefund({
        clientUserId: requireId(b.client_user_id, 'client_user_id'),
        logId: logIdOf(b.log_id),
        reason: optionalString(b.reason, 'reason', 500),
        developerId: optionalDeveloperId(b.developer_id),
      }),
    ),
    post('/console/transfers', (b) =>
      hub.transfer({
        clientUserId: requireId(b.client_user_id, 'client_user_id'),
        amountCents: requireAmountCents(b.amount_cents),
        reason: optionalString(b.reason, 'reason', 500),
        developerId: optionalDeveloperId(b.developer_id),
      }),
    ),
  ];
}
