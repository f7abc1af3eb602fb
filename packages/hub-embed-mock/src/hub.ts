/**
 * createSimulator: the whole simulator as two Web-standard handlers (API site and form site), put
 * together from its parts: checked settings, the clock, the state, the admin operations, the read
 * views, the route tables and the request pipeline.
 * Isomorphic on purpose: this module and its imports use only Web APIs, so the same simulator runs
 * in Node, in happy-dom and in a real browser tab (tests swap global fetch for `hub.fetch`).
 */
import { adminOperations } from './admin.js';
import { answerFaults } from './answer-faults.js';
import { createClock } from './clock.js';
import type { HubContext } from './context.js';
import { createFormSite } from './form.js';
import { isoBeijing } from './http.js';
import { createRequestPipeline } from './requests.js';
import { checkProfile } from './profiles.js';
import { pushBounded } from './ring.js';
import { apiSiteRoutes } from './routes.js';
import { SeedError, activeKeyOf, defaultSeed, parseSeed } from './seed.js';
import { checkSettings } from './settings.js';
import { HubState } from './state.js';
import type { Simulator, SimulatorOptions, RequestLogEntry, WebhookBody, WebhookDelivery } from './types.js';
import { readViews } from './views.js';
import { dispatch, matchingUrls } from './webhooks.js';

export { DEFAULT_BASE_URL, DEFAULT_FORM_URL, DEFAULT_FAULT_PATHS } from './settings.js';
// Kept here too: code written before the types moved to types.ts imports them from hub.js.
export type { Simulator, MockClock, NotificationInput, RefundInput, LedgerView } from './types.js';

export function createSimulator(options: SimulatorOptions = {}): Simulator {
  let seed;
  try {
    seed = parseSeed(options.seed ?? defaultSeed);
  } catch (error) {
    if (error instanceof SeedError) throw error;
    throw new SeedError(String(error));
  }
  const settings = checkSettings(options);
  const profile = checkProfile(options.profile);
  const { baseUrl, formUrl, apiPrefix, tokenTtlSeconds, dropRate, random, logLimit } = settings;
  const clock = createClock(options.now ?? Date.now);
  const state = new HubState(seed, clock.now());
  const requestLog: RequestLogEntry[] = [];
  const deliveries: WebhookDelivery[] = [];
  let nextDeliveryId = 1;
  const dispatchContext = {
    sender: settings.sender,
    connectTimeoutMs: settings.connectTimeoutMs,
    timeoutMs: settings.timeoutMs,
    now: () => clock.now(),
    record(entry: Omit<WebhookDelivery, 'id'>) {
      const delivery = { id: nextDeliveryId++, ...entry };
      pushBounded(deliveries, delivery, logLimit);
      options.onDelivery?.(delivery);
      return delivery;
    },
  };

  const context: HubContext = {
    state,
    baseUrl,
    apiPrefix,
    formUrl,
    profile,
    tokenTtlSeconds,
    logLimit,
    deliveries,
    now: () => clock.now(),
    sendWebhook(developerId, partial) {
      const account = state.developer(developerId);
      const body: WebhookBody = { ...partial, timestamp: isoBeijing(clock.now()) };
      return dispatch(dispatchContext, matchingUrls(account.webhooks, body.event), body);
    },
    async resendWebhook(original) {
      const [delivery] = await dispatch(dispatchContext, [original.url], original.body, { resendOf: original.id });
      return delivery!;
    },
    reset() {
      state.load(seed, clock.now());
      deliveries.length = 0;
      formSite.submissions.length = 0;
    },
  };

  const admin = adminOperations(context);
  const views = readViews(context, seed);
  const formSite = createFormSite(context);
  const consoleTarget = options.console === false ? null : { ...admin, ...views, requestLog, deliveries, clock };
  const pipeline = createRequestPipeline({
    settings,
    context,
    formSite,
    routes: apiSiteRoutes(context, consoleTarget),
    record(entry) {
      pushBounded(requestLog, entry, logLimit);
      options.onRequest?.(entry);
    },
    answerFault: answerFaults(options.rechargeFaults, random, apiPrefix),
  });

  return {
    baseUrl,
    apiPrefix,
    apiUrl: baseUrl + apiPrefix,
    formUrl,
    apiKey: activeKeyOf(seed),
    clock,
    requestLog,
    deliveries,
    submissions: formSite.submissions,
    ...pipeline,
    shouldDropConnection: () => dropRate > 0 && random() < dropRate,
    ...admin,
    ...views,
  };
}
