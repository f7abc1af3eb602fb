/** The page side of the WebView bridge and its protocol: what the widget and hub-embed's main entry use. */
export { connectBridge } from './bridge.js';
export type { Bridge, BridgeOptions, CallOptions, HostInfo } from './bridge-types.js';
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
