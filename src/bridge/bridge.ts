/** The page side of the bridge: handshake, queueing, calls with timeouts, host-to-page handlers. */
import { answerHost, type PageHandler } from './answers.js';
import { RESULTS } from './methods.js';
import type { HelloResult, HostToPageRequests, PageToHostEvents, PageToHostRequests } from './methods.js';
import {
  BRIDGE_VERSION,
  BridgeError,
  MAX_MESSAGE_CHARS,
  envelope,
  failure,
  parseMessage,
  toBridgeError,
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

/** An open call, as the host kernel keeps its own: how it ends, and whether the host has it. */
interface Pending {
  /** Ends it with an error, or with a result that must have the method's shape. */
  end(error?: BridgeError, result?: unknown): void;
  /** Posted to the host, so it is not failed by a failed re-handshake. Never set for the hello. */
  sent: boolean;
}

/** 'waiting': looking for the host or shaking hands; calls and events queue. 'none': no host. */
type State = 'waiting' | 'ready' | 'none' | 'closed';

const NO_HOST = 'no host';
/**
 * Session ids and message ids: random, so nothing from an earlier page or another widget can collide.
 * They need to be unique, not secret: any script of the page sees them, and what tells the page's own
 * messages apart is the host's nonce (and, for a parent frame, the origin), never an id. Math.random's
 * ~52 bits are plenty for that, and it exists in every WebView, secure context or not.
 */
const randomId = () => Math.random().toString(36).slice(2);

/**
 * One bridge: one state machine, in these sections of connectBridge, in this order.
 *
 *   State             what the bridge holds: its state, host, transport, nonce, open calls, queue, timers
 *   Sending           each message's envelope, and its post through the transport
 *   Calls             page → host requests: queued until the handshake, with a timeout, abort and cancel
 *   Ending            no host, or closed: what fails with it
 *   Handshake         bridge.hello; again after a back/forward-cache restore or the host's bridge.ready
 *   Finding the host  looking for a transport, and waiting for a late marker
 *   Receiving         every inbound message: checks, replies to calls, the host's requests
 *   Start             the listeners and timers it starts with, and the Bridge it returns
 *
 * State moves: 'waiting' → 'ready' (the hello answered) or 'none' (no host; it refused or stayed silent);
 * 'ready' → 'waiting' after a back/forward-cache restore; 'none' → 'waiting' on the host's bridge.ready;
 * any → 'closed' on close().
 */
export function connectBridge(options: BridgeOptions = {}): Bridge {
  // ── State ──────────────────────────────────────────────────────────────────────────────────────
  const win = window as HostWindow;
  const readyMs = options.readyTimeoutMs ?? 2000;
  const queueLimit = options.queueLimit ?? 50;
  const pendingLimit = options.pendingLimit ?? 1000;
  /** Every inbound message the bridge drops is reported the same way, with its reason. */
  const ignore = (reason: string) => options.debug?.(`ignored: ${reason}`);
  const sid = randomId();
  /** Open calls by id, queued or sent. */
  const pending = new Map<string, Pending>();
  /** Calls and events held until the handshake, in the order they were made. */
  const queue = new Set<() => void>();
  /** The page's handlers of host requests, by method. */
  const handlers = new Map<string, PageHandler>();
  /** Ids of the host's requests lately answered, so that a duplicate is not answered twice. */
  const seen = new Set<string>();
  /** Undoes each listener the bridge added. */
  const offs: Array<() => void> = [];
  let state: State;
  /** Until the wait for the host is over, a native host object found without a nonce is not used yet. */
  let waitingForMarker = options.waitForMarker;
  let transport: Transport | undefined;
  let nonce: string | undefined;
  let host: HostInfo | null = null;
  let readyTimer: ReturnType<typeof setTimeout> | undefined;
  let waitTimer: ReturnType<typeof setTimeout> | undefined;
  let probeTimer: ReturnType<typeof setInterval> | undefined;
  let settleReady!: (host: HostInfo | null) => void;
  let ready: Promise<HostInfo | null>;

  const fail = (code: BridgeErrorCode, message: string) => new BridgeError(code, message);
  const stopTimers = () => {
    clearTimeout(readyTimer);
    clearTimeout(waitTimer);
    clearInterval(probeTimer);
  };
  /** Why a call or event cannot go now; `waiting`: it would have to queue. */
  const refusal = (waiting: boolean) =>
    state === 'closed'
      ? fail('E_CANCELLED', 'bridge closed')
      : state === 'none'
        ? fail('E_UNSUPPORTED', NO_HOST)
        : waiting && queue.size >= queueLimit
          ? fail('E_UNSUPPORTED', 'queue full')
          : undefined;

  // ── Sending ────────────────────────────────────────────────────────────────────────────────────
  /** The message as sent; throws for one too large (or not JSON-able, e.g. circular params). */
  function wire(message: Partial<BridgeMessage>): string {
    const json = envelope({ sid, ...message }, nonce);
    if (json.length > MAX_MESSAGE_CHARS) throw fail('E_UNSUPPORTED', 'message too large');
    return json;
  }

  function post(message: Partial<BridgeMessage>): unknown {
    return transport!.post(wire(message));
  }

  /** Whether `work` ran without throwing. */
  function succeeds(work: () => unknown): boolean {
    try {
      work();
      return true;
    } catch {
      return false;
    }
  }

  // ── Calls ──────────────────────────────────────────────────────────────────────────────────────
  function settle(id: string, error?: BridgeError, result?: unknown): void {
    const open = pending.get(id);
    if (open) open.end(error, result);
    else ignore('late reply');
  }

  function call(
    method: string,
    params: unknown,
    { timeoutMs = options.timeoutMs ?? 10_000, signal }: CallOptions = {},
  ): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const waiting = state !== 'ready' && method !== 'bridge.hello';
      const refused =
        refusal(waiting) ??
        (pending.size >= pendingLimit && method !== 'bridge.hello'
          ? fail('E_UNSUPPORTED', 'too many pending calls')
          : undefined);
      if (refused) {
        reject(refused);
        return;
      }
      const id = randomId();
      const done = (error?: BridgeError, result?: unknown) => {
        pending.delete(id);
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        // A queued call that ends early frees its place in the queue.
        queue.delete(run);
        const shape = !error && RESULTS.get(method);
        if (shape && !shape(result)) error = fail('E_INTERNAL', `${method}: bad result`);
        if (error) reject(error);
        else resolve(result);
      };
      const stop = (code: BridgeErrorCode, what: string) => {
        done(fail(code, `${method} ${what}`));
        // Tell the host so it can drop its work (a host that is gone has none); a reply that still comes
        // is ignored by id.
        if (open.sent) succeeds(() => post({ id, kind: 'cancel' }));
      };
      const timer = timeoutMs > 0 ? setTimeout(() => stop('E_TIMEOUT', 'timed out'), timeoutMs) : undefined;
      const onAbort = () => stop('E_CANCELLED', 'cancelled');
      const run = () => {
        // The hello has no timeout or signal, and fails with the handshake: it never counts as sent.
        open.sent = method !== 'bridge.hello';
        // A WKScriptMessageHandlerWithReply (or WeChat, answering for its host) replies through a promise;
        // the other transports return nothing. A post that throws (too large, host gone) fails the call.
        new Promise((resolve) => resolve(post({ id, kind: 'req', method, params }))).then(
          (reply) => {
            if (reply !== undefined && reply !== null) receive(reply);
          },
          (error: unknown) => settle(id, toBridgeError(error)),
        );
      };
      const open: Pending = { end: done, sent: false };
      signal?.addEventListener('abort', onAbort);
      pending.set(id, open);
      // An already-aborted signal ends the call here, before anything is sent.
      if (signal?.aborted) onAbort();
      else if (waiting) queue.add(run);
      else run();
    });
  }

  // ── Ending ─────────────────────────────────────────────────────────────────────────────────────
  /** No host (next = 'none') or closed: queued calls and the handshake fail; sent calls too when closed. */
  function end(next: State, code: BridgeErrorCode, message: string): void {
    stopTimers();
    host = null;
    state = next;
    settleReady(null);
    queue.clear();
    for (const open of pending.values()) if (next === 'closed' || !open.sent) open.end(fail(code, message));
  }

  const noHost = () => end('none', 'E_UNSUPPORTED', NO_HOST);

  // ── Handshake ──────────────────────────────────────────────────────────────────────────────────
  /** `timeoutMs` 0: the handshake's own timer decides; a re-hello after `bridge.ready` has its own. */
  function handshake(timeoutMs = 0): void {
    call(
      'bridge.hello',
      { v: [BRIDGE_VERSION], widgetVersion: options.widgetVersion ?? '', capabilities: [...handlers.keys()] },
      { timeoutMs },
    ).then(
      (result) => {
        // RESULTS checked what the bridge relies on (platform, capabilities); the rest is kept as sent.
        const answer = result as HelloResult;
        if (answer.v !== BRIDGE_VERSION) {
          end('none', 'E_VERSION', `host protocol v${answer.v}`);
          return;
        }
        stopTimers();
        state = 'ready';
        // The answer as the host sent it, and the transport it came through.
        host = { ...answer, transport: transport!.name };
        settleReady(host);
        ready = Promise.resolve(host);
        for (const run of queue) {
          queue.delete(run);
          run();
        }
        options.onReady?.(host);
      },
      // Only a handshake the bridge waits for decides; a re-hello that fails leaves the host as it was.
      (error: unknown) => {
        if (state !== 'waiting') return;
        const { code, message } = toBridgeError(error);
        end('none', code, message);
      },
    );
  }

  function start(): void {
    state = 'waiting';
    ready = new Promise((resolve) => {
      settleReady = resolve;
    });
    readyTimer = setTimeout(noHost, readyMs);
    if (transport) handshake();
  }

  // ── Finding the host ───────────────────────────────────────────────────────────────────────────
  function probe(): void {
    if (transport || state === 'closed') return;
    const forced = options.transport;
    const found =
      typeof forced === 'object' ? { transport: forced } : detectTransport(win, { ...options, only: forced });
    if (!found) return;
    // Flutter and Android may inject the marker after the page's first scripts. Their hosts drop every
    // message without the marker's nonce, so a native object found without one waits for the marker.
    // (A WeChat page or a parent frame has no marker to wait for.)
    const native = found.transport.name !== 'wechat' && found.transport.name !== 'parent';
    if (native && waitingForMarker && found.nonce === undefined && !win.__HUB_EMBED_BRIDGE__) return;
    clearInterval(probeTimer);
    ({ transport, nonce } = found);
    if (transport.listen) offs.push(transport.listen(receive));
    if (state === 'waiting') handshake();
  }

  // ── Receiving ──────────────────────────────────────────────────────────────────────────────────
  /** Answers a host → page request (answers.ts), once per id. */
  function answer(request: BridgeMessage): void {
    const { id } = request;
    if (seen.has(id)) {
      ignore('duplicate');
      return;
    }
    // Bounded so a long-lived page does not grow; duplicates only arrive back to back.
    if (seen.size > 200) seen.clear();
    seen.add(id);
    const reply = (body: Partial<BridgeMessage>) => {
      if (state !== 'closed') post({ id, kind: 'res', ...body });
    };
    void answerHost(handlers, request)
      .then(reply)
      // A result too large to send still gets an answer: the error.
      .catch((error: unknown) => reply(failure(error)))
      .catch(() => {});
  }

  function receive(raw: unknown): void {
    if (state === 'closed') return;
    const message = parseMessage(raw);
    if (typeof message === 'string') return ignore(message);
    const announce = message.kind === 'evt' && message.method === 'bridge.ready';
    // A host whose marker came after the page spoke without it (Flutter, Android without document-start
    // scripts) announces itself with the marker's nonce: the page takes that nonce from now on.
    if (announce && message.nonce === win.__HUB_EMBED_BRIDGE__?.nonce) nonce = message.nonce;
    if (nonce && message.nonce !== nonce) ignore('nonce');
    else if (announce) {
      // The host (re)initialised: find it if it was injected late, or shake hands again. A page that ran
      // without a host looks again (the host may have come late, with its marker) and shakes hands anew.
      if (state === 'none') {
        probe();
        start();
      } else if (!transport) probe();
      // Anyone in the page can send this event when the host set no nonce, so the bridge keeps its host
      // and says hello again; an answer (a re-initialised host's, or one that now has the nonce) replaces
      // it, silence changes nothing.
      else handshake(readyMs);
    } else if (message.sid !== sid) ignore('sid');
    else if (message.kind === 'res')
      settle(
        message.id,
        message.ok === true ? undefined : fail(message.error!.code, message.error!.message),
        message.result,
      );
    else if (message.kind === 'req') answer(message);
  }

  // ── Start ──────────────────────────────────────────────────────────────────────────────────────
  const onPageShow = (event: PageTransitionEvent) => {
    if (event.persisted && state === 'ready') start();
  };
  win.addEventListener('pageshow', onPageShow);
  offs.push(addReceiver(win, receive), () => win.removeEventListener('pageshow', onPageShow));

  start();
  // A microtask, so handlers registered right after connectBridge() are in the hello.
  queueMicrotask(probe);
  probeTimer = setInterval(probe, 100);
  // Stopped with the other timers; it can only end a bridge that never found a host object. Its last look
  // takes a native object without a nonce as it is.
  waitTimer = setTimeout(() => {
    waitingForMarker = false;
    probe();
    if (!transport) noHost();
  }, options.waitForHostMs ?? readyMs);

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
    // RESULTS checked each result against its method's shape, which is its result type.
    request: call as Bridge['request'],
    emit(event, params) {
      const waiting = state !== 'ready';
      if (refusal(waiting)) return false;
      const message: Partial<BridgeMessage> = { id: randomId(), kind: 'evt', method: event, params };
      if (!waiting) return succeeds(() => post(message));
      // Measured now, so an event too large to send is a `false` for the caller, not a silent loss later.
      if (!succeeds(() => wire(message))) return false;
      // A host that goes away before the handshake ends loses the event, as it would lose a sent one.
      queue.add(() => succeeds(() => post(message)));
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
      offs.forEach((off) => off());
      end('closed', 'E_CANCELLED', 'bridge closed');
    },
  };
}
