import { WebClient, type WebClientOptions } from './web-client.js';
export { HubError, isHubError, type HubErrorKind, type HubErrorOptions } from './errors.js';
export {
  TokenSource,
  checkAccessToken,
  type TokenProvider,
  type TokenContext,
  type TokenReason,
  type TokenGetOptions,
  type TokenAnswer,
  type TokenLoad,
} from './token-source.js';
export { tokenFromEndpoint, sharedTokenSource, type TokenEndpointOptions } from './endpoint.js';
export { canonicalTags, publishedListPath } from './paths.js';
export { WebClient, type WebClientOptions, type PublishedListOptions, type RequestOptions } from './web-client.js';
export { buildFormUrl, buildNotificationLink, parseFormSite, safeHttpUrl } from './urls.js';
export { isLoopbackHost } from './loopback.js';
export type { AccessToken, Envelope, PublishedTable } from './types.js';

// The name before 0.2.0 (CHANGELOG.md, Changed), kept in the ES entries for one release. The <script> bundles'
// global has only the new name: each name there costs bytes in the first file.
/** @deprecated Renamed `WebClient` (the server's client is `ServerClient`); this name goes in the next release. */
export const HubClient = WebClient;
/** @deprecated Renamed `WebClient`. */
export type HubClient = WebClient;
/** @deprecated Renamed `WebClientOptions`. */
export type HubClientOptions = WebClientOptions;
