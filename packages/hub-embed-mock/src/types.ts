/** Shapes of the simulator: its options, its seed (plain JSON) and the records it keeps. */

/** An end user of a developer, as the seed describes it. */
export interface SeedUser {
  client_user_id: string;
  balance_cents: number;
}

/**
 * One webhook configuration as the console sets it. Either URL may be absent; both may be equal.
 * `events` narrows which events this configuration receives (absent: all of its kind).
 */
export interface WebhookConfig {
  notification_url?: string;
  billing_url?: string;
  events?: string[];
}

export interface SeedApiKey {
  key: string;
  status: 'active' | 'disabled';
  /** ISO 8601; absent or null means the key never expires. */
  expires_at?: string | null;
}

/** An account of the platform. Only `developer` accounts may use the open API. */
export interface SeedAccount {
  id: number;
  name: string;
  role: 'developer' | 'member';
  pool_cents?: number;
  keys?: SeedApiKey[];
  users?: SeedUser[];
  webhooks?: WebhookConfig[];
}

/** A project table of the platform. `type` A names the supply side, B the demand side. */
export interface SeedTable {
  project_id: number;
  short_code: string;
  name: string;
  industry: string;
  /** A simulator icon name (served at `/static/icons/<name>.png`) or an absolute http(s) URL. */
  icon: string;
  tags: string[];
  type: 'A' | 'B';
  published: boolean;
  /** Price of the form's paid action, in cents. */
  price_cents: number;
}

/** The whole seed: a plain JSON-able object, loadable from a file with `--seed`. */
export interface MockSeed {
  accounts: SeedAccount[];
  tables: SeedTable[];
}

export type AuthKind = 'api-key' | 'bearer' | 'none';

export interface RequestLogEntry {
  /** Simulator clock, ms since the epoch. */
  time: number;
  site: 'api' | 'form';
  method: string;
  path: string;
  status: number;
  auth: AuthKind;
  clientUserId?: string;
}

export type DeliveryOutcome = 'delivered' | 'rejected' | 'timeout' | 'connect-timeout' | 'network-error';

/** One outbound webhook call and what came of it. There is never a second attempt. */
export interface WebhookDelivery {
  id: number;
  time: number;
  event: string;
  kind: 'notification' | 'billing';
  url: string;
  outcome: DeliveryOutcome;
  status?: number;
  /** For billing_deduct: whether the receiver answered 200 with `ok: true`. */
  ok?: boolean;
  error?: string;
  body: WebhookBody;
  /** The request headers exactly as sent. */
  headers: Record<string, string>;
  /** The answer's body (its first 4,096 characters), when an answer came. */
  responseBody?: string;
  /** Wall-clock time from sending to the answer or the failure, in ms (the simulator clock may be frozen). */
  durationMs: number;
  /** Set on a console resend: the id of the delivery sent again. */
  resendOf?: number;
}

export interface WebhookBody {
  event: string;
  timestamp: string;
  short_code: string;
  project_icon_url: string | null;
  target: { client_user_id: string | null };
  notification?: { title: string; content: string; link_url: string };
  billing?: { amount: string; reason: string };
}

/** What a webhook sender reports back; it never throws for HTTP statuses. */
export type SendResult =
  | { kind: 'response'; status: number; body: string }
  | { kind: 'timeout' | 'connect-timeout' | 'network-error'; error: string };

/** Sends one POST. Node uses a node:http sender with a real connect timeout; elsewhere fetch. */
export type WebhookSender = (
  url: string,
  init: { headers: Record<string, string>; body: string; connectTimeoutMs: number; timeoutMs: number },
) => Promise<SendResult>;

/**
 * One record of a user's points log as the simulator keeps it and the service sends it (snake_case);
 * hub-embed/server reads it into its own `PointsLogRecord`.
 */
export interface LedgerRecord {
  id: number;
  source: 'transfer' | 'billing';
  record_type: 'recharge' | 'deduct' | 'refund' | 'reward' | 'failed';
  change_cents: number;
  amount_cents: number;
  balance_after: number;
  reason: string;
  status: 'success' | 'failed';
  short_code: string | null;
  project_id: number | null;
  created_at: string;
}

/** A log record as the console lists it: a deduct also says whether it was refunded already. */
export interface ConsoleLogRecord extends LedgerRecord {
  refunded?: boolean;
}

/** A pool-to-user move (recharge or console transfer), as the points page lists them. */
export interface TransferRecord {
  /** The id of the user's `recharge` log record. */
  id: number;
  client_user_id: string;
  amount_cents: number;
  reason: string;
  external_order_id: string | null;
  created_at: string;
}

/** An API key as the console lists it: never the plaintext. */
export interface ApiKeyView {
  id: string;
  /** Prefix and last four characters; with `id`, `created_at` and `state` it tells keys apart. */
  mask: string;
  state: 'active' | 'disabled' | 'expired';
  status: 'active' | 'disabled';
  created_at: string;
  expires_at: string | null;
}

/** One page of a list, newest first. */
export interface Page<T> {
  list: T[];
  total: number;
  page: number;
  page_size: number;
}

/** A test event from the console's interface test simulator or `hub-embed-mock trigger`. */
export interface TriggerInput {
  event: unknown;
  clientUserId?: unknown;
  shortCode?: unknown;
  /** billing events: yuan with two decimals, e.g. "1.50". */
  amount?: unknown;
  reason?: unknown;
  title?: unknown;
  content?: unknown;
  linkUrl?: unknown;
  /** Dotted body paths to set last, e.g. {"notification.title": "Hi"}; values are any JSON. */
  set?: unknown;
  developerId?: number | undefined;
}

export interface TriggerResult {
  event: string;
  deliveries: WebhookDelivery[];
  /** billing_deduct only: what the answers decided, by the form's rules, and the log record written. */
  decision?: { charged: boolean; record: LedgerRecord };
}

export interface FormSubmission {
  time: number;
  shortCode: string;
  clientUserId: string;
  developerId: number;
  message: string;
}

/** Faults after the work is done (answer-faults.ts): a recharge applied, then its answer dropped or delayed. */
/**
 * One recharge's fault. Before the work: `drop-before` closes the connection and `error-before` answers a
 * 5xx (`status`, default 502) without applying anything; `conflict` answers 409 without applying anything.
 * After it (a recharge the route applied): `drop` closes the connection, `error-after` answers a 5xx,
 * `delay` holds the answer `ms`. `late-apply` drops the answer at once and applies the recharge `ms` later.
 * `failed-attempt` logs the attempt as failed (a `recharge` record with the remark, `status` `failed`, change
 * 0), credits nothing and answers `status`.
 */
export type RechargeFault =
  | { kind: 'none' | 'drop-before' | 'conflict' | 'drop' }
  | { kind: 'error-before' | 'error-after' | 'failed-attempt'; status: number }
  | { kind: 'delay' | 'late-apply'; ms: number };

/**
 * Faults of recharges (`POST …/points/users/recharge`), each rate a fraction (0..1) of recharges; the rates
 * together at most 1. The after-the-work faults meet only recharges the route applied.
 */
export interface RechargeAnswerFaults {
  /** Applied, then the answer dropped (the connection closed). */
  dropRate?: number;
  /** Applied, then the answer held back by `delayMs`. */
  delayRate?: number;
  /** How long a delayed answer waits, in ms (default 15000: beyond the toolkit's 10 s timeout). */
  delayMs?: number;
  /** Dropped before anything was applied. */
  dropBeforeRate?: number;
  /** Answered 502 before anything was applied (a proxy that could not reach the service). */
  errorBeforeRate?: number;
  /** Applied, then answered 502 (a proxy that gave up waiting, a service failing after its write). */
  errorRate?: number;
  /** Answered 409 without anything applied. */
  conflictRate?: number;
  /** Logged as a failed attempt (status `failed`, change 0), nothing credited, answered 500. */
  failedAttemptRate?: number;
  /** The answer dropped at once and the recharge applied `lateApplyMs` later (a slow queue behind the API). */
  lateApplyRate?: number;
  /** Default 1000. */
  lateApplyMs?: number;
  /** A test's own fault for each recharge (undefined: the rates decide), e.g. drawn by a property-based test. */
  pick?: () => RechargeFault | undefined;
}

/**
 * A service's choices where the spec is silent (profiles.ts; docs/simulator.md, "Service profiles"). Every
 * field is optional; the defaults are the spec's plain reading.
 */
export interface ServiceProfile {
  /** How much of a recharge's `reason` the log keeps: `length` UTF-8 bytes or characters (default all). */
  reasonLimit?: { length: number; unit: 'bytes' | 'characters' };
  /** Cut the remark at its first 4-byte character, as MySQL's utf8mb3 does in non-strict mode. */
  cutAtFourByte?: boolean;
  /** Trim trailing white space after the cut. */
  trimReason?: boolean;
  /** Store the remark HTML-escaped (`'` as `&#39;`) or backslash-escaped (`'` as `\'`). */
  escapeReason?: 'html' | 'backslash';
  /** The order of the logs (default newest first). */
  logsOrder?: 'newest-first' | 'oldest-first';
  /** `total` of a logs page: every record (default), missing, the page's count, or in `pagination.total`. */
  logsTotal?: 'all' | 'missing' | 'page' | 'elsewhere';
  /** The most records a logs page holds, while `page_size` echoes the size asked (default 100). */
  pageSizeCap?: number;
  /** A gateway's HTML error page instead of a logs answer: every read, or only reads of `page`. */
  logsError?: { status: number; page?: number };
  /** A record shows in the logs this many ms after it is written (default 0). */
  logLagMs?: number;
  /** A recharge is applied, and answered, this many ms after it arrives (default 0). */
  applyDelayMs?: number;
  /** A gateway in front answers 504 (HTML) after this many ms while the request goes on (default 0: none). */
  gatewayTimeoutMs?: number;
  /**
   * How far the service's clock is from the caller's, in ms, as its logs' `created_at` show it (default 0);
   * 28800000 plays Beijing time labelled `Z`.
   */
  clockOffsetMs?: number;
  /** A proxy in front forwards each recharge twice and answers with the second's answer (default false). */
  proxyRepeatsPost?: boolean;
  /**
   * What the form site and the icons send for a cross-origin-isolated host page (COOP + COEP): `none`
   * (default: the spec says nothing of it), or a `Cross-Origin-Embedder-Policy` of `require-corp` or
   * `credentialless` on every form-site page, with `Cross-Origin-Resource-Policy: cross-origin` on those
   * pages and on the icons.
   */
  embedderPolicy?: 'none' | 'require-corp' | 'credentialless';
}

export interface SimulatorOptions {
  /** The service's choices where the spec is silent: an object, or a name of a built-in profile. */
  profile?: ServiceProfile | string;
  seed?: MockSeed;
  baseUrl?: string;
  formUrl?: string;
  /**
   * Where the open API is served: `/api/v<n>/<segment>`, default the spec's `/api/v1/hub`. The real
   * deployment's is `/api/v1/apihub`. Only this prefix is served; the console and icons stay where they are.
   */
  apiPrefix?: string;
  /** Access token lifetime in seconds. */
  tokenTtlSeconds?: number;
  latencyMs?: number;
  latencyJitterMs?: number;
  /** Fraction (0..1) of requests to `faultPaths` that answer HTTP 500. */
  faultRate?: number;
  /** Default: published-list under `apiPrefix`. */
  faultPaths?: string[];
  /** Fraction (0..1) of API connections the Node server destroys without an answer. */
  dropRate?: number;
  /**
   * Faults after the work is done: a recharge is applied, then its answer is dropped (the Node server
   * closes the connection; `hub.fetch` rejects) or delayed.
   */
  rechargeFaults?: RechargeAnswerFaults;
  now?: () => number;
  /** Used for outbound webhooks and for `hub.fetch` requests to other origins. */
  fetch?: typeof fetch;
  /** Overrides the webhook sender entirely (startSimulator passes a node:http one). */
  webhookSender?: WebhookSender;
  webhookConnectTimeoutMs?: number;
  webhookTimeoutMs?: number;
  /** Whether the `/console` JSON endpoints exist. */
  console?: boolean;
  corsOrigins?: string[] | 'loopback';
  random?: () => number;
  /** Called after each request has been answered (the CLI prints these). */
  onRequest?: (entry: RequestLogEntry) => void;
  onDelivery?: (delivery: WebhookDelivery) => void;
  /**
   * Host names or addresses answered besides loopback ones (and the hosts of baseUrl and formUrl);
   * other Host headers get 403 (DNS-rebinding defence).
   */
  allowedHosts?: string[];
  /** Entries kept in each of the request log, the delivery log and the submissions (default 1000). */
  logLimit?: number;
}

/** The simulator's clock: real time (or `options.now`) until a test or the console freezes it. */
export interface MockClock {
  now(): number;
  /** Freezes the clock at `ms` until `advance` or `resume`. */
  set(ms: number): void;
  advance(ms: number): void;
  /** Back to the base clock (real time unless `now` was given). */
  resume(): void;
}

export interface NotificationInput {
  event: unknown;
  clientUserId?: unknown;
  shortCode?: unknown;
  title: unknown;
  content: unknown;
  linkUrl?: unknown;
  developerId?: number | undefined;
}

export interface RefundInput {
  clientUserId: string;
  logId: number;
  reason?: string | undefined;
  developerId?: number | undefined;
}

export interface TransferInput {
  clientUserId: string;
  amountCents: number;
  reason?: string | undefined;
  developerId?: number | undefined;
}

export interface LedgerView {
  poolCents: number;
  balancesCents: number;
  toppedUpCents: number;
  chargedCents: number;
  refundedCents: number;
  /** pool + balances + charged - refunded === topped up: points are never created or lost. */
  balanced: boolean;
}

/** What the developer console does: the operations a platform admin has, as typed methods. */
export interface AdminOperations {
  /** The plaintext `key` is in this answer only; lists show `ApiKeyView`. */
  createApiKey(input?: { developerId?: number | undefined; expiresAt?: string }): ApiKeyView & { key: string };
  /** By plaintext key or key id. */
  disableKey(keyOrId: string): ApiKeyView;
  /** By plaintext key or key id: expires now. */
  expireKey(keyOrId: string): ApiKeyView;
  topUp(input: { yuan: unknown; developerId?: number | undefined }): {
    developer_id: number;
    amount_cents: number;
    pool_cents: number;
  };
  publish(shortCode: string): { short_code: string; published: boolean };
  unpublish(shortCode: string): { short_code: string; published: boolean };
  /** Adds a table (the seed's table format) at the end of the catalogue. */
  addTable(table: unknown): SeedTable;
  setWebhooks(configs: unknown, developerId?: number): { configs: WebhookConfig[] };
  triggerNotification(input: NotificationInput): Promise<{ event: string; deliveries: WebhookDelivery[] }>;
  triggerRefund(input: RefundInput): Promise<{ record: LedgerRecord; deliveries: WebhookDelivery[] }>;
  /** The console's "transfer to user": a recharge from the pool without an order id. */
  transfer(input: TransferInput): Record<string, unknown>;
  /** Any event with chosen fields, through the real dispatch; a deduct is decided and logged like the form's. */
  trigger(input: TriggerInput): Promise<TriggerResult>;
  /** What `trigger` would send and to which URLs; sends nothing (the console pre-fills its form from it). */
  triggerPreview(input: TriggerInput): { body: Omit<WebhookBody, 'timestamp'>; urls: string[] };
  /** Sends a recorded delivery's body again to its URL (a new delivery; the ledger does not change). */
  resend(deliveryId: number): Promise<WebhookDelivery>;
  /** Back to the seed: accounts, keys, tables, tokens and points; the delivery log and submissions empty. */
  reset(): void;
}

/** Read-only views of the simulator's state. */
export interface ReadViews {
  ledger(developerId?: number): LedgerView;
  snapshot(): Record<string, unknown>;
  keys(developerId?: number): ApiKeyView[];
  /** The pool and every user's balance. */
  points(developerId?: number): {
    developer_id: number;
    pool_cents: number;
    users: { client_user_id: string; user_id: number; balance_cents: number }[];
  };
  /** The webhook configurations, in the order they are called, and the outbound IPs to allow. */
  webhooks(developerId?: number): { configs: WebhookConfig[]; outbound_ips: string[] };
  /** Tables in catalogue order, one page (the catalogue may hold 100,000). */
  tables(page: number, pageSize: number): Page<SeedTable>;
  transfers(page: number, pageSize: number, developerId?: number): Page<TransferRecord>;
  userLogs(clientUserId: string, page: number, pageSize: number, developerId?: number): Page<ConsoleLogRecord>;
  /** The seed the simulator started from (and Reset returns to), valid input for `--seed`. */
  seed(): MockSeed;
}

/** The logs the simulator keeps; each is a bounded ring (oldest entries dropped past `logLimit`). */
export interface HubLogs {
  readonly requestLog: RequestLogEntry[];
  readonly deliveries: WebhookDelivery[];
  readonly submissions: FormSubmission[];
}

export interface Simulator extends AdminOperations, ReadViews, HubLogs {
  /** The service's `{base_url}`: the API site's origin (the console is at `{baseUrl}/console/`). */
  readonly baseUrl: string;
  /** Where the open API is served, e.g. `/api/v1/hub`. */
  readonly apiPrefix: string;
  /** The API root, `baseUrl` + `apiPrefix`: the value for `base-url` and `baseUrl` under any prefix. */
  readonly apiUrl: string;
  readonly formUrl: string;
  /** The plaintext active key of the seed's first developer. */
  readonly apiKey: string;
  readonly clock: MockClock;
  handleApi(req: Request): Promise<Response>;
  handleForm(req: Request): Promise<Response>;
  /** fetch-compatible: requests to baseUrl/formUrl go to the handlers, others to the real network. */
  fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response>;
  /** Whether the Node server should drop this connection (dropRate). */
  shouldDropConnection(): boolean;
}
