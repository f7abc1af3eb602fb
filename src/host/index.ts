/**
 * `hub-embed/host`: the host side of the WebView bridge, for the native app around the widget page.
 * Never imported by page code; React Native's <HubEmbedView> (hub-embed/react-native) is built on it.
 */
export { createHostKernel } from './kernel.js';
export { receiveScript } from './page-scripts.js';
export type {
  HostEvent,
  HostHandlers,
  HostKernel,
  HostKernelOptions,
  MethodHandler,
  NavigationOptions,
  PageRequestOptions,
  TokenRequest,
} from './types.js';
export { decideNavigation, originOf } from './navigation.js';
export type { NavigationDecision } from './navigation.js';
export { createMockHost } from './mock-host.js';
export type { MockHandlers, MockHost, MockHostOptions, MockTransport } from './mock-host.js';
