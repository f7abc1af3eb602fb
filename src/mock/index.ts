/** hub-embed/mock: the Open Integration Service simulator (in-process handlers and a Node server). */
import { createSimulator } from './hub.js';
import { startSimulator, type RunningSimulator, type StartSimulatorOptions } from './node.js';
import type { Simulator, SimulatorOptions } from './types.js';
export { createSimulator } from './hub.js';
export { DEFAULT_BASE_URL, DEFAULT_FORM_URL, DEFAULT_FAULT_PATHS } from './settings.js';
export { startSimulator } from './node.js';
export { nodeWebhookTransport } from './node-transport.js';
export type { StartSimulatorOptions, RunningSimulator } from './node.js';
export { defaultSeed, parseSeed, activeKeyOf, SeedError } from './seed.js';
export { iconSvg } from './icons.js';
export { fetchTransport } from './webhooks.js';
export { MAX_REQUEST_BODY_BYTES } from './http.js';
export { FORM_CSP } from './form-page.js';
export type {
  Simulator,
  MockClock,
  NotificationInput,
  RefundInput,
  LedgerView,
  SimulatorOptions,
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
  LedgerRecord,
  FormSubmission,
  AuthKind,
} from './types.js';

// The names before 0.2.0 (CHANGELOG.md, Changed), kept for one release: `createMockHub` read one letter away
// from the host double `createMockHost` (hub-embed/host).
/** @deprecated Renamed `createSimulator`; this name goes in the next release. */
export const createMockHub = createSimulator;
/** @deprecated Renamed `startSimulator`; this name goes in the next release. */
export const startMockHub = startSimulator;
/** @deprecated Renamed `Simulator`. */
export type MockHub = Simulator;
/** @deprecated Renamed `SimulatorOptions`. */
export type MockHubOptions = SimulatorOptions;
/** @deprecated Renamed `StartSimulatorOptions`. */
export type StartMockHubOptions = StartSimulatorOptions;
/** @deprecated Renamed `RunningSimulator`. */
export type RunningMockHub = RunningSimulator;
