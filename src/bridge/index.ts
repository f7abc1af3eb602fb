/** `hub-embed/bridge`: the page side of the WebView bridge, its protocol, and a mock host for tests. */
export * from './runtime.js';
export { createMockHost } from './mock-host.js';
export type { MockHandlers, MockHost, MockHostOptions, MockTransport } from './mock-host.js';
