/** The bridge's shapes: its options, the host it found, a call's options, the Bridge it returns and its states. */
import type { HelloResult, HostToPageRequests, PageToHostEvents, PageToHostRequests } from './methods.js';
import type { DetectOptions, Transport, TransportName } from './transports.js';

export interface BridgeOptions extends DetectOptions {
  /** Force one transport (a name, or your own object); default: detect. */
  transport?: TransportName | Transport;
  /** How long the host has to answer the handshake before the page runs as a plain web page. */
  readyTimeoutMs?: number;
  /** How long to keep looking for a host object that is not there yet (late injection). */
  waitForHostMs?: number;
  /**
   * A native host object found without a nonce waits for the host's marker, which brings the nonce
   * (Flutter and Android may inject it after the page's first scripts), until `waitForHostMs` is over.
   */
  waitForMarker?: boolean;
  /** Default per-call timeout; 0 = none. */
  timeoutMs?: number;
  /** Calls and events held until the handshake; more are refused. */
  queueLimit?: number;
  /**
   * Calls waiting for an answer at once (queued or sent); more are refused with E_UNSUPPORTED. It
   * bounds memory when calls never time out (`timeoutMs: 0`) and the host never answers.
   */
  pendingLimit?: number;
  widgetVersion?: string;
  /** Told why inbound messages were ignored and about late replies. */
  debug?: (message: string) => void;
  /**
   * Told each handshake that succeeds: the first, a new one after a back/forward-cache restore or the
   * host's `bridge.ready`, and one with a host that announced itself after the page ran without one.
   */
  onReady?: (host: HostInfo) => void;
}

/** The host's answer to `bridge.hello` (`platform` and `capabilities` checked, the rest as sent), and its transport. */
export interface HostInfo extends HelloResult {
  transport: TransportName;
}

export interface CallOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

type Params<M extends keyof HostToPageRequests> = HostToPageRequests[M]['params'];
type Result<M extends keyof HostToPageRequests> = HostToPageRequests[M]['result'];

export interface Bridge {
  /** This bridge's session id; replies for another session are dropped. */
  readonly sid: string;
  /** The latest handshake: the host, or null when there is none (plain web page). */
  readonly ready: Promise<HostInfo | null>;
  readonly host: HostInfo | null;
  /** Calls still waiting for an answer (queued or sent). */
  readonly pendingCount: number;
  hasCapability(method: string): boolean;
  request<M extends keyof PageToHostRequests>(
    method: M,
    params: PageToHostRequests[M]['params'],
    options?: CallOptions,
  ): Promise<PageToHostRequests[M]['result']>;
  /** Returns false when the event was dropped (no host, closed, queue full, or too large to send). */
  emit<E extends keyof PageToHostEvents>(event: E, params: PageToHostEvents[E]): boolean;
  handle<M extends keyof HostToPageRequests>(
    method: M,
    handler: (params: Params<M>) => Result<M> | Promise<Result<M>>,
  ): () => void;
  /** Rejects every open call with E_CANCELLED and removes every listener and timer. */
  close(): void;
}

/**
 * Where a bridge is. 'waiting': looking for the host or shaking hands; calls and events queue. 'none': no
 * host. Moves: 'waiting' → 'ready' (the hello answered) or 'none' (no host; it refused or stayed silent);
 * 'ready' → 'waiting' after a back/forward-cache restore; 'none' → 'waiting' on the host's bridge.ready;
 * any → 'closed' on close().
 */
export type State = 'waiting' | 'ready' | 'none' | 'closed';
