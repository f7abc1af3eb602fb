/** The page side of the bridge: handshake, queueing, calls with timeouts, host-to-page handlers. */
import { HOST_REQUESTS, RESULTS, isObject } from './methods.js';
import type { HostToPageRequests, PageToHostEvents, PageToHostRequests } from './methods.js';
import { BRIDGE_NS, BRIDGE_VERSION, BridgeError, MAX_MESSAGE_CHARS, parseMessage, toBridgeError } from './protocol.js';
import type { BridgeErrorCode, BridgeMessage } from './protocol.js';
import { detectTransport, isFn } from './transports.js';
import type { DetectOptions, HostWindow, Transport, TransportName } from './transports.js';
import { addReceiver } from './receive.js';

export interface BridgeOptions extends DetectOptions {
  /** Force one transport (a name, or your own object); default: detect. */
  transport?: TransportName | Transport;
  /** How long the host has to answer the handshake before the page runs as a plain web page. */
  readyTimeoutMs?: number;
  /** How long to keep looking for a host object that is not there yet (late injection). */
  waitForHostMs?: number;
  /** Default per-call timeout; 0 = none. */
  timeoutMs?: number;
  /** Calls and events held until the handshake; more are refused. */
  queueLimit?: number;
  widgetVersion?: string;
  /** Told why inbound messages were ignored and about late replies. */
  debug?: (message: string) => void;
}

export interface HostInfo {
  transport: TransportName;
  platform: string;
  appVersion?: string;
  capabilities: string[];
  config: Record<string, unknown>;
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
  /** Returns false when the event was dropped (no host, closed, or queue full). */
  emit<E extends keyof PageToHostEvents>(event: E, params: PageToHostEvents[E]): boolean;
  handle<M extends keyof HostToPageRequests>(
    method: M,
    handler: (params: Params<M>) => Result<M> | Promise<Result<M>>,
  ): () => void;
  /** Rejects every open call with E_CANCELLED and removes every listener and timer. */
  close(): void;
}

interface Pending {
  method: string;
  resolve(value: unknown): void;
  reject(error: BridgeError): void;
  cleanup(): void;
  sent?: boolean;
}

type State = 'probing' | 'connecting' | 'ready' | 'none' | 'closed';

const NO_HOST = 'no host';
const randomId = () => Array.from(crypto.getRandomValues(new Uint32Array(2)), (n) => n.toString(36)).join('');

export function connectBridge(options: BridgeOptions = {}): Bridge {
  const win = window as HostWindow;
  const readyMs = options.readyTimeoutMs ?? 2000;
  const queueLimit = options.queueLimit ?? 50;
  const debug = options.debug ?? (() => {});
  const sid = randomId();
  const pending = new Map<string, Pending>();
  /** Calls and events held until the handshake, in the order they were made. */
  const queue: Array<() => void> = [];
  const handlers = new Map<string, (params: any) => unknown>();
  const seen = new Set<string>();
  const offs: Array<() => void> = [];
  let counter = (Math.random() * 1e6) | 0;
  let state: State = 'probing';
  let transport: Transport | undefined;
  let nonce: string | undefined;
  let host: HostInfo | null = null;
  let readyTimer: ReturnType<typeof setTimeout> | undefined;
  let probeTimer: ReturnType<typeof setInterval> | undefined;
  let settleReady!: (host: HostInfo | null) => void;
  let ready: Promise<HostInfo | null>;

  const fail = (code: BridgeErrorCode, message: string) => new BridgeError(code, message);
  const nextId = () => (++counter).toString(36);
  const stopTimers = () => {
    clearTimeout(readyTimer);
    clearInterval(probeTimer);
  };

  function post(message: Partial<BridgeMessage>): unknown {
    // An undefined nonce is left out by JSON.stringify.
    const json = JSON.stringify({ ns: BRIDGE_NS, v: BRIDGE_VERSION, sid, ...message, nonce });
    if (json.length > MAX_MESSAGE_CHARS) throw fail('E_UNSUPPORTED', 'exceeds the bridge limit; pass data by URL');
    return transport!.post(json);
  }

  function settle(id: string, error?: BridgeError, result?: unknown): void {
    const entry = pending.get(id);
    if (!entry) return debug(`late reply ${id}`);
    pending.delete(id);
    entry.cleanup();
    const shape = !error && RESULTS.get(entry.method);
    if (shape && !shape(result)) error = fail('E_INTERNAL', `${entry.method}: bad result`);
    if (error) entry.reject(error);
    else entry.resolve(result);
  }

  function transmit(id: string, method: string, params: unknown): void {
    const entry = pending.get(id);
    if (!entry) return;
    entry.sent = true;
    const local = transport!.local;
    try {
      // A local host answers itself; a WKScriptMessageHandlerWithReply answers through a promise.
      const reply: any = local ? local.request(method, params) : post({ id, kind: 'req', method, params });
      if (isFn(reply?.then))
        reply.then(
          (r: unknown) => (local ? settle(id, undefined, r) : r != null && receive(r)),
          (e: unknown) => settle(id, toBridgeError(e)),
        );
    } catch (e) {
      settle(id, toBridgeError(e));
    }
  }

  function call(method: string, params: unknown, { timeoutMs = options.timeoutMs ?? 10_000, signal }: CallOptions = {}): Promise<any> {
    return new Promise((resolve, reject) => {
      const waiting = state !== 'ready' && method !== 'bridge.hello';
      const refused =
        state === 'closed'
          ? fail('E_CANCELLED', 'bridge closed')
          : state === 'none'
            ? fail('E_UNSUPPORTED', NO_HOST)
            : signal?.aborted
              ? fail('E_CANCELLED', `${method} cancelled`)
              : waiting && queue.length >= queueLimit
                ? fail('E_UNSUPPORTED', `queue full (${queueLimit})`)
                : undefined;
      if (refused) return reject(refused);
      const id = nextId();
      const stop = (code: BridgeErrorCode, what: string) => {
        const sent = pending.get(id)?.sent;
        settle(id, fail(code, `${method} ${what}`));
        // Tell the host so it can drop its work; a reply that still comes is ignored by id.
        if (sent && !transport!.local)
          try {
            post({ id, kind: 'cancel' });
          } catch {
            /* the host is gone; nothing to tell */
          }
      };
      const timer = timeoutMs > 0 ? setTimeout(() => stop('E_TIMEOUT', 'timed out'), timeoutMs) : undefined;
      const onAbort = () => stop('E_CANCELLED', 'cancelled');
      const run = () => transmit(id, method, params);
      signal?.addEventListener('abort', onAbort);
      pending.set(id, {
        method,
        resolve,
        reject,
        cleanup() {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          // A queued call that ends early frees its place in the queue.
          const i = queue.indexOf(run);
          if (i >= 0) queue.splice(i, 1);
        },
      });
      if (waiting) queue.push(run);
      else run();
    });
  }

  function becomeReady(info: HostInfo): void {
    stopTimers();
    host = info;
    state = 'ready';
    settleReady(info);
    for (const run of queue.splice(0)) run();
  }

  /** No host (next = 'none') or closed: queued calls and the handshake fail; sent calls too when closed. */
  function end(next: State, code: BridgeErrorCode, message: string): void {
    stopTimers();
    host = null;
    state = next;
    settleReady(null);
    queue.length = 0;
    for (const [id, p] of pending) if (next === 'closed' || !p.sent || p.method === 'bridge.hello') settle(id, fail(code, message));
  }

  function handshake(): void {
    state = 'connecting';
    const { name, local } = transport!;
    if (local) return becomeReady({ transport: name, platform: local.platform, capabilities: local.capabilities, config: {} });
    call('bridge.hello', { v: [BRIDGE_VERSION], widgetVersion: options.widgetVersion ?? '', capabilities: [...handlers.keys()] }, { timeoutMs: 0 }).then(
      (r) =>
        r.v === BRIDGE_VERSION
          ? becomeReady({
              transport: name,
              platform: r.platform,
              appVersion: typeof r.appVersion == 'string' ? r.appVersion : undefined,
              capabilities: r.capabilities,
              config: isObject(r.config) ? r.config : {},
            })
          : end('none', 'E_VERSION', `host speaks v${r.v}, page v${BRIDGE_VERSION}`),
      (e: BridgeError) => state !== 'closed' && end('none', e.code, e.message),
    );
  }

  function start(): void {
    ready = new Promise((resolve) => (settleReady = resolve));
    clearTimeout(readyTimer);
    readyTimer = setTimeout(() => end('none', 'E_UNSUPPORTED', NO_HOST), readyMs);
    if (transport) handshake();
  }

  function probe(): void {
    if (transport || state === 'closed') return;
    const forced = options.transport;
    const found = typeof forced === 'object' ? { transport: forced } : detectTransport(win, { ...options, only: forced });
    if (!found) return;
    clearInterval(probeTimer);
    ({ transport, nonce } = found);
    if (transport.listen) offs.push(transport.listen(receive));
    if (state === 'probing') handshake();
  }

  function reply(id: string, error?: BridgeError, result?: unknown): void {
    if (state === 'closed') return;
    try {
      post(error ? { id, kind: 'res', ok: false, error: { code: error.code, message: error.message } } : { id, kind: 'res', ok: true, result });
    } catch (e) {
      // A result too large to send still gets an answer: the error.
      if (error) debug(`reply ${id} lost`);
      else reply(id, toBridgeError(e));
    }
  }

  function answer({ id, method, params }: BridgeMessage): void {
    if (seen.has(id)) return debug(`duplicate ${id}`);
    seen.add(id);
    // Bounded so a long-lived page does not grow; duplicates only arrive back to back.
    if (seen.size > 200) seen.delete(seen.values().next().value!);
    const handler = handlers.get(method!);
    const shape = HOST_REQUESTS.get(method!);
    if (!handler || !shape) return reply(id, fail('E_NO_HANDLER', `no handler: ${method}`));
    if (!shape(params)) return reply(id, fail('E_DENIED', `${method}: bad params`));
    Promise.resolve(params ?? {})
      .then(handler)
      .then(
        (result) => reply(id, undefined, result ?? null),
        (e) => reply(id, toBridgeError(e)),
      );
  }

  function receive(raw: unknown): void {
    if (state === 'closed') return;
    const m = parseMessage(raw);
    if (typeof m == 'string') return debug(`ignored: ${m}`);
    if (nonce && m.nonce !== nonce) return debug('ignored: nonce');
    if (m.kind === 'evt' && m.method === 'bridge.ready') {
      // The host (re)initialised: find it if it was injected late, or shake hands again.
      if (!transport) probe();
      else if (state === 'ready') start();
    } else if (m.sid !== sid) debug('ignored: sid');
    else if (m.kind === 'res') settle(m.id, m.ok === true ? undefined : fail(m.error!.code, m.error!.message), m.result);
    else if (m.kind === 'req') answer(m);
  }

  const onPageShow = (e: Event) => (e as PageTransitionEvent).persisted && state === 'ready' && start();
  win.addEventListener('pageshow', onPageShow);
  offs.push(addReceiver(win, receive), () => win.removeEventListener('pageshow', onPageShow));

  start();
  // A microtask, so handlers registered right after connectBridge() are in the hello.
  queueMicrotask(probe);
  probeTimer = setInterval(probe, 100);
  const waitMs = options.waitForHostMs ?? readyMs;
  if (waitMs < readyMs) {
    const waitTimer = setTimeout(() => !transport && state === 'probing' && end('none', 'E_UNSUPPORTED', NO_HOST), waitMs);
    offs.push(() => clearTimeout(waitTimer));
  }

  return {
    sid,
    get ready() {
      return ready;
    },
    get host() {
      return host;
    },
    get pendingCount() {
      return pending.size;
    },
    hasCapability: (method) => !!host?.capabilities.includes(method),
    request: call,
    emit(event, params) {
      const send = () => {
        try {
          post({ id: nextId(), kind: 'evt', method: event, params });
        } catch (e) {
          debug(`${event} not sent: ${e}`);
        }
      };
      if (state === 'ready') send();
      else if (state === 'none' || state === 'closed' || queue.length >= queueLimit) return false;
      else queue.push(send);
      return true;
    },
    handle(method, handler) {
      handlers.set(method, handler);
      return () => {
        if (handlers.get(method) === handler) handlers.delete(method);
      };
    },
    close() {
      if (state === 'closed') return;
      for (const off of offs.splice(0)) off();
      end('closed', 'E_CANCELLED', 'bridge closed');
    },
  };
}
