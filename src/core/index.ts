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
export { HubClient, type HubClientOptions, type PublishedListOptions, type RequestOptions } from './client.js';
export { buildFormUrl, buildNotificationLink, isLoopbackHost, parseFormSite, safeHttpUrl } from './urls.js';
export type { AccessToken, Envelope, PublishedTable } from './types.js';
