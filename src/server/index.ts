/** hub-embed/server: the pieces that hold the API key, for Node >= 20 and other Web-standard runtimes. */
export { createServerClient } from './server-client.js';
export { orderMarker } from './order-marker.js';
export { HubRechargePendingError, HubRechargeUnknownError } from './recharge-pending.js';
export type { FindRechargeInput, RechargeOptions, ResolveRechargeInput } from './recharge-client.js';
export { DEFAULT_SETTLE_WINDOW_MS, REFUSAL_STATUSES } from './recharge-decision.js';
export type { RechargeOutcome } from './recharge-decision.js';
export { createRechargeOrders } from './recharge-orders.js';
export type { CreditOutcome, RechargeOrders, RechargeOrdersOptions } from './recharge-orders.js';
export { createMemoryOrderStore } from './order-store.js';
export type { OrderClaim, OrderState, OrderStore, PaidOrder, StoredOrder } from './order-store.js';
export type {
  LogsQuery,
  PublishedListQuery,
  RechargeInput,
  ServerClient,
  ServerClientOptions,
} from './server-client.js';
export type {
  Balance,
  LogsPage,
  PointsLogRecord,
  PointsRecordType,
  PointsSource,
  RechargeResult,
  Token,
} from './results.js';
export { HubApiError, HubAuthError, HubPoolInsufficientError } from './errors.js';
export { createTokenHandler } from './token-handler.js';
export type { TokenHandler, TokenHandlerOptions } from './token-handler.js';
export type { PrefetchOptions, PrefetchedAnswers } from './prefetch.js';
export { createMemoryTokenCache } from './token-cache.js';
export type { CachedToken, MemoryTokenCacheOptions, SharedExchange, TokenCache } from './token-cache.js';
export { createWebhookHandler } from './webhook-handler.js';
export type { WebhookHandler, WebhookHandlerOptions, WebhookRequestInfo } from './webhook-handler.js';
export type { DeductContext } from './webhook-callbacks.js';
export { createRejectionLogger } from './webhook-rejections.js';
export type { WebhookRejection, WebhookRejectionReason } from './webhook-rejections.js';
export { NOTIFICATION_EVENTS } from './webhook-events.js';
export type {
  BillingDeductEvent,
  BillingEvent,
  BillingEventName,
  BillingRefundEvent,
  NotificationEvent,
  NotificationEventName,
  UnknownEvent,
  WebhookEvent,
  WebhookEventBase,
} from './webhook-events.js';
export type { ClientAddressHeader, SourceInfo } from './addresses.js';
export { formatCentsAsYuan, parseYuanToCents } from './amounts.js';
export { toNodeListener } from './node.js';
// The page's first view, drawn on the server from the token route's prefetch (src/first-view/: the only
// import of this entry from outside src/server, test/package/import-graph.test.ts).
export { renderFirstView } from '../first-view/render-first-view.js';
export type { FirstViewElement, FirstViewOptions } from '../first-view/render-first-view.js';
export type { NodeListener, WebRequestHandler } from './node.js';
