/**
 * The platform admin's operations (what the developer console does): keys, the points pool, table
 * publishing, webhook configuration, and the notifications and refunds the platform sends.
 * Every operation checks its input before changing anything, and throws MockHttpError (status + text).
 */
import { isRecord } from '../../../src/core/records.js';
import type { HubContext } from './context.js';
import { MockHttpError, centsToYuan, requireAmountCents } from './http.js';
import { iconUrl } from './icons.js';
import { SeedError, parseSeedTable, parseWebhookConfig } from './seed.js';
import { recharge, refund, topUp } from './ledger.js';
import type { Account } from './state.js';
import { createTrigger, notificationOf } from './trigger.js';
import type { AdminOperations, WebhookConfig } from './types.js';
import { keyView } from './views.js';
import { eventsOfKind } from './webhooks.js';

export function adminOperations(context: HubContext): AdminOperations {
  const { state } = context;

  function account(developerId?: number): Account {
    return state.developer(developerId);
  }

  function table(shortCode: string) {
    const t = state.table(shortCode);
    if (!t) throw new MockHttpError(404, `No project table with short_code ${JSON.stringify(shortCode)}.`);
    return t;
  }

  const tests = createTrigger(context);

  return {
    createApiKey(input = {}) {
      let expiresAt: number | null = null;
      if (input.expiresAt !== undefined) {
        expiresAt = Date.parse(input.expiresAt);
        if (Number.isNaN(expiresAt)) throw new MockHttpError(400, 'expires_at must be an ISO 8601 date.');
      }
      const rec = state.createKey(account(input.developerId), expiresAt, context.now());
      return { key: rec.key, ...keyView(rec, context.now()) };
    },
    disableKey(keyOrId) {
      const rec = state.keyRecord(keyOrId);
      rec.status = 'disabled';
      return keyView(rec, context.now());
    },
    expireKey(keyOrId) {
      const rec = state.keyRecord(keyOrId);
      rec.expiresAt = context.now();
      return keyView(rec, context.now());
    },
    topUp(input) {
      const yuan = input.yuan;
      if (typeof yuan !== 'number' || !Number.isFinite(yuan) || yuan <= 0)
        throw new MockHttpError(400, 'yuan must be a positive number (1 yuan = 100 points).');
      const cents = Math.round(yuan * 100);
      if (Math.abs(cents - yuan * 100) > 1e-6) throw new MockHttpError(400, 'yuan must have at most two decimals.');
      requireAmountCents(cents, 'yuan * 100');
      const dev = account(input.developerId);
      return { developer_id: dev.id, amount_cents: cents, pool_cents: topUp(dev, cents) };
    },
    publish(shortCode) {
      const t = table(shortCode);
      state.catalog.setPublished(t, true);
      return { short_code: t.short_code, published: true };
    },
    unpublish(shortCode) {
      const t = table(shortCode);
      state.catalog.setPublished(t, false);
      return { short_code: t.short_code, published: false };
    },
    addTable(input) {
      // Without a project_id the table takes the next free one, as the service would assign it.
      const withId =
        isRecord(input) && !('project_id' in input)
          ? { ...input, project_id: state.tables.reduce((max, table) => Math.max(max, table.project_id), 0) + 1 }
          : input;
      let t;
      try {
        t = parseSeedTable(withId, 'table');
      } catch (error) {
        throw new MockHttpError(400, error instanceof SeedError ? error.message : String(error));
      }
      if (state.table(t.short_code))
        throw new MockHttpError(409, `short_code ${JSON.stringify(t.short_code)} is taken.`);
      if (state.tables.some((other) => other.project_id === t.project_id))
        throw new MockHttpError(409, `project_id ${t.project_id} is taken.`);
      state.catalog.add(t);
      return { ...t, tags: [...t.tags] };
    },
    setWebhooks(configs, developerId) {
      if (!Array.isArray(configs)) throw new MockHttpError(400, 'configs must be an array of webhook configurations.');
      if (configs.length > 20) throw new MockHttpError(400, 'At most 20 webhook configurations are allowed.');
      let parsed: WebhookConfig[];
      try {
        parsed = configs.map((config, index) => parseWebhookConfig(config, `configs[${index}]`));
      } catch (error) {
        throw new MockHttpError(400, error instanceof Error ? error.message : String(error));
      }
      const dev = account(developerId);
      dev.webhooks = parsed;
      return { configs: parsed.map((config) => ({ ...config })) };
    },
    async triggerNotification(input) {
      const notifications: readonly string[] = eventsOfKind('notification');
      if (typeof input.event !== 'string' || !notifications.includes(input.event)) {
        throw new MockHttpError(400, `event must be one of ${notifications.join(', ')}.`);
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
      const notification = notificationOf(t, input.title, input.content, input.linkUrl);
      const dev = account(input.developerId);
      const sent = await context.sendWebhook(dev.id, {
        event,
        short_code: shortCode,
        project_icon_url: t ? iconUrl(t.icon, context.baseUrl) : null,
        target: { client_user_id: clientUserId },
        notification,
      });
      return { event, deliveries: sent };
    },
    async triggerRefund(input) {
      const dev = account(input.developerId);
      const user = state.knownUser(dev, input.clientUserId);
      const reason = input.reason ?? 'Refund after complaint review';
      const { record: rec, amountCents, table: t } = refund(state, dev, user, input.logId, reason, context.now());
      const sent = await context.sendWebhook(dev.id, {
        event: 'billing_refund',
        short_code: rec.short_code ?? '',
        project_icon_url: t ? iconUrl(t.icon, context.baseUrl) : null,
        target: { client_user_id: user.clientUserId },
        billing: { amount: centsToYuan(amountCents), reason },
      });
      return { record: { ...rec }, deliveries: sent };
    },
    transfer(input) {
      return recharge(
        state,
        account(input.developerId),
        {
          clientUserId: input.clientUserId,
          amountCents: input.amountCents,
          reason: input.reason ?? 'Console transfer',
        },
        context.now(),
        context.profile,
      );
    },
    trigger: (input) => tests.trigger(input),
    triggerPreview: (input) => tests.preview(input),
    async resend(deliveryId) {
      const original = context.deliveries.find((delivery) => delivery.id === deliveryId);
      if (!original)
        throw new MockHttpError(404, `No delivery ${deliveryId} in the delivery log (it keeps the newest ones).`);
      return context.resendWebhook(original);
    },
    reset() {
      context.reset();
    },
  };
}
