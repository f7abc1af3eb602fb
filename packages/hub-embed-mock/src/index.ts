/** hub-embed/mock: the Open Integration Service simulator (in-process handlers and a Node server). */
export { createSimulator } from './hub.js';
export { startSimulator } from './node.js';
export { nodeWebhookSender } from './node-sender.js';
export type { StartSimulatorOptions, RunningSimulator } from './node.js';
export { defaultSeed, parseSeed, SeedError } from './seed.js';
export { fetchWebhookSender } from './webhooks.js';
export { MAX_REQUEST_BODY_BYTES } from './http.js';
export { certify, CertifyUsageError } from './certify/certify.js';
export type { CertifyOptions } from './certify/certify.js';
export { table as certifyTable, junit as certifyJunit } from './certify/report.js';
export type { CertifyReport } from './certify/report.js';
export type { RuleResult, Grade as RuleGrade } from './certify/grading.js';
export type {
  Simulator,
  MockClock,
  NotificationInput,
  RefundInput,
  LedgerView,
  SimulatorOptions,
  RechargeAnswerFaults,
  ServiceProfile,
  RechargeFault,
  MockSeed,
  SeedAccount,
  SeedApiKey,
  SeedTable,
  SeedUser,
  WebhookConfig,
  WebhookBody,
  WebhookDelivery,
  DeliveryOutcome,
  WebhookSender,
  SendResult,
  RequestLogEntry,
  LedgerRecord,
  FormSubmission,
  AuthKind,
} from './types.js';
