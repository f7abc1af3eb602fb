/** The server client's public shapes: its options, its inputs and the client itself. */
import type { FindRechargeInput, RechargeOptions, ResolveRechargeInput } from './recharge-client.js';
import type { RechargeOutcome } from './recharge-decision.js';
import type { Balance, LogsPage, PointsLogRecord, RechargeResult, Token } from './results.js';

/** Options of the server's client (API key); the browser's `WebClient` (Bearer token) is a different thing. */
export interface ServerClientOptions {
  /**
   * The full plaintext API key (`sk-...`). Keep it on the server; it is never shown by this client. Checked
   * at the first call, not here, so a build without secrets may create the client (undefined until then).
   */
  apiKey: string | undefined;
  /**
   * The service's address, e.g. https://hub.example.com (the client adds the spec's /api/v1/hub), or its
   * API root as given, e.g. https://hub.example.com/api/v1/apihub (a path ending in /api/v<n>/<segment>).
   * Checked at the first call, as apiKey is.
   */
  baseUrl: string | undefined;
  /** A fetch-compatible function; default: the global fetch. */
  fetch?: typeof fetch;
  /** Per request; a slower answer fails with HubError kind 'timeout'. Default 10000. */
  timeoutMs?: number;
  /** The wait before the one logs read after a lost answer, and the settle window (docs/server.md, "Points credited exactly once"). */
  recharge?: RechargeOptions;
}

export interface RechargeInput {
  clientUserId: string;
  /** Points to credit, in cents: a positive safe integer. */
  amountCents: number;
  /** Your payment order number, for reconciliation. */
  externalOrderId?: string;
  reason?: string;
}

/** A published-list query: any-match tags and the most tables to list. */
export interface PublishedListQuery {
  tags?: readonly string[];
  limit?: number;
}

export interface LogsQuery {
  /** 1-based; default 1. */
  page?: number;
  /** 1 to 100; default 20. */
  pageSize?: number;
}

/**
 * The service's server-side endpoints, called with the API key. Failures are HubAuthError (401),
 * HubPoolInsufficientError (402), HubApiError (other statuses), or HubError kind 'timeout' | 'network' |
 * 'invalid-response' | 'config'. Error messages carry the status and code, never the service's text.
 * A missing or malformed apiKey or baseUrl is a 'config' error of every call (and of reading these two
 * properties) until it is set.
 */
export interface ServerClient {
  /** The service's `{base_url}`: the API root without its `/api/v<n>/<segment>`. */
  readonly baseUrl: string;
  /** Where every call goes: `{base_url}/api/v1/hub`, or the root given (`…/api/v1/apihub`). */
  readonly apiRoot: string;
  exchangeToken(clientUserId: string): Promise<Token>;
  balance(clientUserId: string): Promise<Balance>;
  /**
   * Sends the recharge once, with the order marker at the start of `reason`. A success, or the service's
   * own refusal (400, 401, 402, 403, 422 in its envelope), is the outcome. Any other answer proves nothing:
   * the logs are read once for the order's credit, and without it HubRechargePendingError is thrown. It is
   * never sent again on its own.
   */
  recharge(input: RechargeInput): Promise<RechargeResult>;
  /** The credit record of an order in the logs, or null when there is none yet (not proof: see resolveRecharge). */
  findRecharge(input: FindRechargeInput): Promise<PointsLogRecord | null>;
  /**
   * What the logs prove of an order last sent at `sentAt`: applied (a credit record), not-applied (no
   * record, and the settle window has passed since `sentAt`), or pending (send nothing yet).
   */
  resolveRecharge(input: ResolveRechargeInput): Promise<RechargeOutcome>;
  logs(clientUserId: string, query?: LogsQuery): Promise<LogsPage>;
  /**
   * GET published-tags with an end user's access token (Bearer), as the browser would: the service's
   * `data.list`, items unchecked (the widget checks them as it checks its own answers).
   */
  publishedTags(accessToken: string): Promise<unknown[]>;
  /** GET published-list with an end user's access token, at the URL the widget would ask for. */
  publishedList(accessToken: string, query?: PublishedListQuery): Promise<unknown[]>;
}
