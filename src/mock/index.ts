/** hub-embed/mock: the Open Integration Service simulator (in-process handlers and a Node server). */
export { createMockHub } from './hub.js';
export { DEFAULT_BASE_URL, DEFAULT_FORM_URL, DEFAULT_FAULT_PATHS } from './settings.js';
export { startMockHub } from './node.js';
export { nodeWebhookTransport } from './node-transport.js';
export type { StartMockHubOptions, RunningMockHub } from './node.js';
export { defaultSeed, parseSeed, activeKeyOf, SeedError } from './seed.js';
export { iconSvg } from './icons.js';
export { fetchTransport } from './webhooks.js';
export { MAX_REQUEST_BODY_BYTES } from './http.js';
export { FORM_CSP } from './form-page.js';
export type {
  MockHub,
  MockClock,
  NotificationInput,
  RefundInput,
  LedgerView,
  MockHubOptions,
  MockSeed,
  SeedAccount,
  SeedApiKey,
  SeedTable,
  SeedUser,
  WebhookConfig,
  WebhookBody,
  WebhookDelivery,
  DeliveryOutcome,
  WebhookTransport,
  TransportResult,
  RequestLogEntry,
  PointsLogRecord,
  FormSubmission,
  AuthKind,
} from './types.js';
