export { HubError, isHubError, type HubErrorKind, type HubErrorOptions } from './errors.js';
export {
  TokenSource,
  type TokenProvider,
  type TokenContext,
  type TokenReason,
  type TokenGetOptions,
  type TokenAnswer,
  type TokenLoad,
} from './token-source.js';
export { tokenFromEndpoint, type TokenEndpointOptions } from './endpoint.js';
export { publishedListPath } from './paths.js';
export { WebClient, type WebClientOptions, type PublishedListOptions, type RequestOptions } from './web-client.js';
export { buildFormUrl, buildNotificationLink } from './token-links.js';
export { isLoopbackHost } from './loopback.js';
export type { AccessToken, Envelope, PublishedTable } from './types.js';
