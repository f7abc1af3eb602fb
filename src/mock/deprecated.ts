/**
 * The names hub-embed/mock had before 0.2.0 (CHANGELOG.md, Changed), kept for one release in this one file, so
 * that the next release deletes it: `createMockHub` read one letter away from the host double `createMockHost`
 * (hub-embed/host), and "transport" is the WebView bridge's word (how messages cross to a native host).
 */
import { createSimulator } from './hub.js';
import { startSimulator, type RunningSimulator, type StartSimulatorOptions } from './node.js';
import { nodeWebhookSender } from './node-sender.js';
import type { SendResult, Simulator, SimulatorOptions, WebhookSender } from './types.js';
import { fetchWebhookSender } from './webhooks.js';

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
/** @deprecated Renamed `nodeWebhookSender`: "transport" is the WebView bridge's word. */
export const nodeWebhookTransport = nodeWebhookSender;
/** @deprecated Renamed `fetchWebhookSender`. */
export const fetchTransport = fetchWebhookSender;
/** @deprecated Renamed `WebhookSender`. */
export type WebhookTransport = WebhookSender;
/** @deprecated Renamed `SendResult`. */
export type TransportResult = SendResult;
