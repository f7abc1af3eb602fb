/** The page side of the bridge: handshake, queueing, calls with timeouts, host-to-page handlers. */
import { HOST_REQUEST_CHECKS, RESULT_CHECKS } from './methods.js';
import type { HostToPageRequests, PageToHostEvents, PageToHostRequests } from './methods.js';
import {
  BRIDGE_NS,
  BRIDGE_VERSION,
  BridgeError,
  MAX_MESSAGE_CHARS,
  errorFromReplyMessage,
  parseMessage,
} from './protocol.js';
import type { BridgeErrorCode, BridgeMessage } from './protocol.js';
import { detectTransport } from './transports.js';
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
  /** The window whose globals are used; for tests. */
  window?: Window;
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

const NO_HOST = 'no native host; running as a plain web page';
const CLOSED = 'bridge closed';
const randomId = () => Array.from(crypto.getRandomValues(new Uint32Array(2)), (n) => n.toString(36)).join('');

export function connectBridge(options: BridgeOptions = {}): Bridge {
  const win = (options.window ?? window) as HostWindow;
  const readyMs = options.readyTimeoutMs ?? 2000;
  const queueLimit = options.queueLimit ?? 50;
  const debug = options.debug ?? (() => {});
  const sid = randomId();
  const pending = new Map<string, Pending>();
  const queue: Array<{ id?: string; run(): void }> = [];
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
  let settleReady: (host: HostInfo | null) => void = () => {};
  let ready: Promise<HostInfo | null>;

  const fail = (code: BridgeErrorCode, message: string) => new BridgeError(code, message);

  function post(message: Partial<BridgeMessage>): unknown {
    const json = JSON.stringify({ ns: BRIDGE_NS, v: BRIDGE_VERSION, sid, ...message, ...(nonce && { nonce }) });
    if (json.length > MAX_MESSAGE_CHARS)
      throw fail('E_UNSUPPORTED', 'message exceeds the bridge limit; pass large data by URL');
    return transport!.post(json);
  }

  function settle(id: string, error?: BridgeError, result?: unknown) {
    const entry = pending.get(id);
    if (!entry) return debug(`late reply ${id}`);
    pending.delete(id);
    entry.cleanup();
    const i = queue.findIndex((q) => q.id === id);
    if (i >= 0) queue.splice(i, 1);
    const invalid = !error && RESULT_CHECKS[entry.method]?.(result);
    if (invalid) error = fail('E_INTERNAL', `invalid ${entry.method} result: ${invalid}`);
    if (error) entry.reject(error);
    else entry.resolve(result);
  }

  function transmit(id: string, method: string, params: unknown) {
    const entry = pending.get(id);
    if (!entry) return;
    entry.sent = true;
    if (transport!.local) {
      transport!.local.request(method, params).then(
        (result) => settle(id, undefined, result),
        (e) => settle(id, e instanceof BridgeError ? e : fail('E_INTERNAL', String(e))),
      );
      return;
    }
    try {
      const reply = post({ id, kind: 'req', method, params }) as any;
      if (typeof reply?.then === 'function')
        reply.then(
          (json: unknown) => json != null && receive(json),
          (e: unknown) => settle(id, errorFromReplyMessage(e)),
        );
    } catch (e) {
      settle(id, e instanceof BridgeError ? e : fail('E_INTERNAL', String(e)));
    }
  }

  function call(method: string, params: unknown, callOptions: CallOptions = {}): Promise<any> {
    return new Promise((resolve, reject) => {
      if (state === 'closed') return reject(fail('E_CANCELLED', CLOSED));
      if (state === 'none') return reject(fail('E_UNSUPPORTED', NO_HOST));
      const { signal } = callOptions;
      if (signal?.aborted) return reject(fail('E_CANCELLED', `${method} cancelled`));
      const waiting = state !== 'ready' && method !== 'bridge.hello';
      if (waiting && queue.length >= queueLimit)
        return reject(fail('E_UNSUPPORTED', `queue full (${queueLimit})`));
      const id = (++counter).toString(36);
      const timeoutMs = callOptions.timeoutMs ?? options.timeoutMs ?? 10_000;
      const stop = (code: BridgeErrorCode, message: string) => {
        const sent = pending.get(id)?.sent;
        settle(id, fail(code, message));
        // Tell the host so it can drop its work; a reply that still comes is ignored by id.
        if (sent && !transport?.local)
          try {
            post({ id, kind: 'cancel' });
          } catch {
            /* the host is gone; nothing to tell */
          }
      };
      const timer = timeoutMs > 0 ? setTimeout(() => stop('E_TIMEOUT', `${method} timed out`), timeoutMs) : undefined;
      const onAbort = () => stop('E_CANCELLED', `${method} cancelled`);
      signal?.addEventListener('abort', onAbort);
      pending.set(id, {
        method,
        resolve,
        reject,
        cleanup() {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        },
      });
      if (waiting) queue.push({ id, run: () => transmit(id, method, params) });
      else transmit(id, method, params);
    });
  }

  function stopTimers() {
    clearTimeout(readyTimer);
    clearInterval(probeTimer);
  }

  function becomeReady(info: HostInfo) {
    stopTimers();
    host = info;
    state = 'ready';
    settleReady(info);
    for (const q of queue.splice(0)) q.run();
  }

  function giveUp(code: BridgeErrorCode, message: string) {
    stopTimers();
    host = null;
    state = 'none';
    settleReady(null);
    for (const q of queue.splice(0)) if (q.id) settle(q.id, fail(code, message));
  }

  function handshake() {
    state = 'connecting';
    const local = transport!.local;
    if (local) {
      return becomeReady({ transport: transport!.name, platform: local.platform, capabilities: local.capabilities, config: {} });
    }
    const hello = { v: [BRIDGE_VERSION], widgetVersion: options.widgetVersion ?? '', capabilities: [...handlers.keys()] };
    call('bridge.hello', hello, { timeoutMs: 0 }).then(
      (r) =>
        r.v === BRIDGE_VERSION
          ? becomeReady({
              transport: transport!.name,
              platform: r.platform,
              appVersion: typeof r.appVersion === 'string' ? r.appVersion : undefined,
              capabilities: r.capabilities,
              config: r.config && typeof r.config === 'object' ? r.config : {},
            })
          : giveUp('E_VERSION', `host speaks v${r.v}, page v${BRIDGE_VERSION}`),
      (e: BridgeError) => state !== 'closed' && giveUp(e.code, e.message),
    );
  }

  function start() {
    ready = new Promise((resolve) => (settleReady = resolve));
    clearTimeout(readyTimer);
    readyTimer = setTimeout(() => {
      for (const [id, p] of pending) if (p.method === 'bridge.hello') settle(id, fail('E_UNSUPPORTED', NO_HOST));
      giveUp('E_UNSUPPORTED', NO_HOST);
    }, readyMs);
    if (transport) handshake();
  }

  function probe() {
    if (transport || state === 'closed') return;
    const only = typeof options.transport === 'string' ? options.transport : undefined;
    const found =
      typeof options.transport === 'object' ? { transport: options.transport } : detectTransport(win, { ...options, only });
    if (!found) return;
    clearInterval(probeTimer);
    ({ transport, nonce } = found);
    if (transport.listen) offs.push(transport.listen(receive));
    if (state === 'probing') handshake();
  }

  function reply(id: string, ok: boolean, payload: unknown) {
    if (state === 'closed') return;
    const message: Partial<BridgeMessage> = { id, kind: 'res', ok, [ok ? 'result' : 'error']: payload };
    try {
      post(message);
    } catch (e) {
      try {
        post({ id, kind: 'res', ok: false, error: { code: 'E_INTERNAL', message: (e as Error).message } });
      } catch {
        debug(`reply ${id} lost`);
      }
    }
  }

  function answer(m: BridgeMessage) {
    if (seen.has(m.id)) return debug(`duplicate ${m.id}`);
    seen.add(m.id);
    // Bounded so a long-lived page does not grow; duplicates only arrive back to back.
    if (seen.size > 200) seen.delete(seen.values().next().value!);
    const method = m.method!;
    const handler = handlers.get(method);
    const check = HOST_REQUEST_CHECKS[method];
    if (!handler || !check) return reply(m.id, false, { code: 'E_NO_HANDLER', message: `no handler: ${method}` });
    const invalid = check(m.params);
    if (invalid) return reply(m.id, false, { code: 'E_DENIED', message: `bad params: ${invalid}` });
    Promise.resolve()
      .then(() => handler(m.params ?? {}))
      .then(
        (result) => reply(m.id, true, result ?? null),
        (e) => reply(m.id, false, { code: 'E_INTERNAL', message: String((e as Error)?.message ?? e) }),
      );
  }

  function receive(raw: unknown) {
    if (state === 'closed') return;
    const m = parseMessage(raw);
    if (typeof m === 'string') return debug(`ignored: ${m}`);
    if (nonce && m.nonce !== nonce) return debug('ignored: nonce');
    if (m.kind === 'evt' && m.method === 'bridge.ready') {
      // The host (re)initialised: find it if it was injected late, or shake hands again.
      if (!transport) return probe();
      if (state === 'ready') start();
      return;
    }
    if (m.sid !== sid) return debug('ignored: sid');
    if (m.kind === 'res') settle(m.id, m.ok === true ? undefined : fail(m.error!.code, m.error!.message), m.result);
    else if (m.kind === 'req') answer(m);
  }

  offs.push(addReceiver(win, receive));
  const onPageShow = (e: Event) => (e as PageTransitionEvent).persisted && state === 'ready' && start();
  win.addEventListener('pageshow', onPageShow);
  offs.push(() => win.removeEventListener('pageshow', onPageShow));

  start();
  // A microtask, so handlers registered right after connectBridge() are in the hello.
  queueMicrotask(probe);
  probeTimer = setInterval(probe, 100);
  const waitMs = options.waitForHostMs ?? readyMs;
  if (waitMs < readyMs) {
    const waitTimer = setTimeout(() => !transport && state === 'probing' && giveUp('E_UNSUPPORTED', NO_HOST), waitMs);
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
    request: (method, params, callOptions) => call(method, params, callOptions),
    emit(event, params) {
      if (state === 'none' || state === 'closed') return false;
      const send = () => {
        try {
          post({ id: (++counter).toString(36), kind: 'evt', method: event, params });
        } catch (e) {
          debug(`${event} not sent: ${e}`);
        }
      };
      if (state === 'ready') send();
      else if (queue.length < queueLimit) queue.push({ run: send });
      else return false;
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
      stopTimers();
      state = 'closed';
      for (const off of offs.splice(0)) off();
      for (const id of [...pending.keys()]) settle(id, fail('E_CANCELLED', CLOSED));
      queue.length = 0;
      host = null;
      settleReady(null);
    },
  };
}
