/** `hub-embed/bridge`: the page side of the WebView bridge, its protocol, and mock hosts for tests. */
export { connectBridge } from './bridge.js';
export type { Bridge, BridgeOptions, CallOptions, HostInfo } from './bridge.js';
export type { HelloResult, HostToPageRequests, PageToHostEvents, PageToHostRequests } from './methods.js';
export {
  BRIDGE_ERROR_CODES,
  BRIDGE_NS,
  BRIDGE_VERSION,
  BridgeError,
  MAX_MESSAGE_CHARS,
  parseMessage,
  toScriptLiteral,
} from './protocol.js';
export type { BridgeErrorCode, BridgeMessage, MessageKind } from './protocol.js';
export { detectTransport } from './transports.js';
export type { DetectOptions, Transport, TransportName } from './transports.js';
export { createMockHost } from './mock-host.js';
export type { MockHandlers, MockHost, MockHostOptions, MockTransport } from './mock-host.js';
