/**
 * The page side of bridge protocol v1: one widget's session with its native host.
 *
 * connectBridge() is one state machine ('waiting' → 'ready' | 'none', and 'closed'), laid out in sections:
 *
 *   1. Options and state       the session id, the state, the transport and nonce, the timers
 *   2. Sending                 every message through envelope() (protocol.ts), bounded in size
 *   3. Calls to the host       an id each, the pending limit, timeouts, abort and cancel, results checked
 *   4. The handshake           hello, the queue of what was made before it, no host, close
 *   5. Finding the host        the probe, a host object or marker injected late
 *   6. Receiving               the checks (nonce, sid, duplicates), replies, `bridge.ready`, host requests
 *   7. Wiring, and the Bridge  pageshow, the shared receiving global, the first probe; the object returned
 *
 * Its parts beside this file: the wire format (protocol.ts), the method maps and their checks
 * (methods.ts), answers to the host's requests (answers.ts), the transports and how the page finds one
 * (transports.ts), and the one receiving global (receive.ts).
 */
import { createPageAnswers, type PageHandler } from './answers.js';
import { RESULTS } from './methods.js';
import type {
  Guard,
  HelloResult,
  HostToPageRequests,
  PageRequests,
  PageToHostEvents,
  PageToHostRequests,
} from './methods.js';
import { BRIDGE_VERSION, BridgeError, MAX_MESSAGE_CHARS, envelope, parseMessage, toBridgeError } from './protocol.js';
import type { BridgeErrorCode, BridgeMessage, MessageBody } from './protocol.js';
import { addReceiver } from './receive.js';
import { detectTransport } from './transports.js';
import type { DetectOptions, HostWindow, Transport, TransportName } from './transports.js';

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
  handle<M extends keyof HostToPageRequests>(method: M, handler: PageHandler<M>): () => void;
  /** Rejects every open call with E_CANCELLED and removes every listener and timer. */
  close(): void;
}

/** 'waiting': looking for the host or shaking hands; calls and events queue. 'none': no host. */
type State = 'waiting' | 'ready' | 'none' | 'closed';

/** A call waiting for its answer, as the host kernel keeps its own requests (src/host/requests-to-page.ts). */
interface Pending {
  /** Ends the call: with an error, or with a result that must still pass its method's check. */
  finish(error?: BridgeError, result?: unknown): void;
  /** Posted to the host, so a failed re-handshake does not fail it. Never set for the hello. */
  sent: boolean;
}

/** The transports whose host is a native app, which injects the marker (and so the nonce) itself. */
const NATIVE: ReadonlySet<TransportName> = new Set(['react-native', 'webkit', 'android']);

const NO_HOST = 'no host';

/** RESULTS as a map from each method to the check of its own result, so a call's result type follows its method. */
const RESULT_OF: { [M in keyof PageRequests]: Guard<PageRequests[M]['result']> } = RESULTS;

/**
 * Session ids and message ids: 96 random bits (three random 32-bit numbers), so nothing from an earlier
 * page or another widget can collide (the host keeps cancelled ids across sessions). Unique, not secret:
 * any script in the page sees them. getRandomValues works on plain-http pages, unlike crypto.randomUUID.
 */
const randomId = () => crypto.getRandomValues(new Uint32Array(3)).join('-');

/** Whether `work` ran without throwing. */
function succeeds(work: () => unknown): boolean {
  try {
    work();
    return true;
  } catch {
    return false;
  }
}

export function connectBridge(options: BridgeOptions = {}): Bridge {
  // 1. Options and state ────────────────────────────────────────────────────────────────────────────────
  const win = window as HostWindow;
  const readyMs = options.readyTimeoutMs ?? 2000;
  const queueLimit = options.queueLimit ?? 50;
  const pendingLimit = options.pendingLimit ?? 1000;
  const sid = randomId();
  const pending = new Map<string, Pending>();
  /** Calls and events held until the handshake, in the order they were made. */
  const queue = new Set<() => void>();
  const answers = createPageAnswers();
  /** Ids of the host requests answered lately, to drop a request delivered twice. */
  const seen = new Set<string>();
  /** What close() undoes: listeners on the window and on the transport. */
  const offs: Array<() => void> = [];
  let state: State = 'waiting';
  let transport: Transport | undefined;
  let nonce: string | undefined;
  let host: HostInfo | null = null;
  /** Until the wait for the host is over, a native host object found without a nonce is not used yet. */
  let waitingForMarker = options.waitForMarker ?? false;
  let readyTimer: ReturnType<typeof setTimeout> | undefined;
  let waitTimer: ReturnType<typeof setTimeout> | undefined;
  let probeTimer: ReturnType<typeof setInterval> | undefined;
  let settleReady: (host: HostInfo | null) => void = () => undefined;
  let ready: Promise<HostInfo | null> = Promise.resolve(null);

  /** Every inbound message the bridge drops is reported the same way, with its reason. */
  const ignore = (reason: string) => options.debug?.(`ignored: ${reason}`);

  function stopTimers(): void {
    clearTimeout(readyTimer);
    clearTimeout(waitTimer);
    clearInterval(probeTimer);
  }

  // 2. Sending ──────────────────────────────────────────────────────────────────────────────────────────
  /** The message as sent; throws for one too large (or not JSON-able, e.g. circular params). */
  function wire(message: MessageBody): string {
    const json = envelope({ sid, ...message }, nonce);
    if (json.length > MAX_MESSAGE_CHARS) throw new BridgeError('E_UNSUPPORTED', 'message too large');
    return json;
  }

  /** Posts to the host; what the transport returns is its reply, if it replies that way. */
  function post(message: MessageBody): unknown {
    if (!transport) throw new BridgeError('E_UNSUPPORTED', NO_HOST);
    return transport.post(wire(message));
  }

  // 3. Calls to the host ────────────────────────────────────────────────────────────────────────────────
  /** Why a call or event cannot go now; `queued`: it would wait in the queue for the handshake. */
  const refusal = (queued: boolean) =>
    state === 'closed'
      ? new BridgeError('E_CANCELLED', 'bridge closed')
      : state === 'none'
        ? new BridgeError('E_UNSUPPORTED', NO_HOST)
        : queued && queue.size >= queueLimit
          ? new BridgeError('E_UNSUPPORTED', 'queue full')
          : undefined;

  /** Ends the call a reply answers; a reply to no open call (timed out, cancelled) is only reported. */
  function settle(id: string, error?: BridgeError, result?: unknown): void {
    const call = pending.get(id);
    if (call) call.finish(error, result);
    else ignore('late reply');
  }

  function call<M extends keyof PageRequests>(
    method: M,
    params: PageRequests[M]['params'],
    { timeoutMs = options.timeoutMs ?? 10_000, signal }: CallOptions = {},
  ): Promise<PageRequests[M]['result']> {
    return new Promise((resolve, reject) => {
      const isHello = method === 'bridge.hello';
      const queued = state !== 'ready' && !isHello;
      const refused =
        refusal(queued) ??
        (!isHello && pending.size >= pendingLimit
          ? new BridgeError('E_UNSUPPORTED', 'too many pending calls')
          : undefined);
      if (refused) {
        reject(refused);
        return;
      }
      const id = randomId();
      const isResult = RESULT_OF[method];
      let timer: ReturnType<typeof setTimeout> | undefined;
      const onAbort = () => {
        stop('E_CANCELLED', 'cancelled');
      };
      const run = () => {
        // The hello has no timeout or signal, and fails with the handshake: it never counts as sent.
        pendingCall.sent = !isHello;
        // A WKScriptMessageHandlerWithReply (or WeChat, answering for its host) replies through a promise;
        // the other transports return nothing. A post that throws (too large, host gone) fails the call.
        new Promise((resolveReply) => {
          resolveReply(post({ id, kind: 'req', method, params }));
        }).then(
          (reply) => {
            if (reply !== undefined && reply !== null) receive(reply);
          },
          (error: unknown) => {
            settle(id, toBridgeError(error));
          },
        );
      };
      const pendingCall: Pending = {
        sent: false,
        finish(error, result) {
          pending.delete(id);
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          // A queued call that ends early frees its place in the queue.
          queue.delete(run);
          if (error) reject(error);
          else if (isResult(result)) resolve(result);
          else reject(new BridgeError('E_INTERNAL', `${method}: bad result`));
        },
      };
      function stop(code: BridgeErrorCode, what: string): void {
        pendingCall.finish(new BridgeError(code, `${method} ${what}`));
        // Tell the host so it can drop its work; a reply that still comes is ignored by id.
        if (pendingCall.sent) succeeds(() => post({ id, kind: 'cancel' }));
      }
      if (timeoutMs > 0) {
        timer = setTimeout(() => {
          stop('E_TIMEOUT', 'timed out');
        }, timeoutMs);
      }
      signal?.addEventListener('abort', onAbort);
      pending.set(id, pendingCall);
      // An already-aborted signal ends the call here, before anything is sent.
      if (signal?.aborted) onAbort();
      else if (queued) queue.add(run);
      else run();
    });
  }

  // 4. The handshake ────────────────────────────────────────────────────────────────────────────────────
  /** A new handshake: calls and events queue again until it ends, and `ready` is a new promise. */
  function start(): void {
    state = 'waiting';
    ready = new Promise((resolve) => {
      settleReady = resolve;
    });
    readyTimer = setTimeout(noHost, readyMs);
    if (transport) handshake(transport);
  }

  /** `timeoutMs` 0: the handshake's own timer decides; a re-hello after `bridge.ready` has its own. */
  function handshake(through: Transport, timeoutMs = 0): void {
    const hello = { v: [BRIDGE_VERSION], widgetVersion: options.widgetVersion ?? '', capabilities: answers.methods() };
    call('bridge.hello', hello, { timeoutMs }).then(
      (answer) => {
        if (answer.v !== BRIDGE_VERSION) {
          end('none', 'E_VERSION', `host protocol v${answer.v}`);
          return;
        }
        stopTimers();
        state = 'ready';
        // The answer as the host sent it; RESULTS checked what the bridge relies on (platform, capabilities).
        const met: HostInfo = { ...answer, transport: through.name };
        host = met;
        settleReady(met);
        ready = Promise.resolve(met);
        for (const run of queue) {
          queue.delete(run);
          run();
        }
        options.onReady?.(met);
      },
      // Only a handshake the bridge waits for decides; a re-hello that fails leaves the host as it was.
      (error: unknown) => {
        const { code, message } = toBridgeError(error);
        if (state === 'waiting') end('none', code, message);
      },
    );
  }

  /** No host (next = 'none') or closed: queued calls and the handshake fail; sent calls too when closed. */
  function end(next: 'none' | 'closed', code: BridgeErrorCode, message: string): void {
    stopTimers();
    host = null;
    state = next;
    settleReady(null);
    queue.clear();
    for (const open of pending.values()) {
      if (next === 'closed' || !open.sent) open.finish(new BridgeError(code, message));
    }
  }

  function noHost(): void {
    end('none', 'E_UNSUPPORTED', NO_HOST);
  }

  // 5. Finding the host ─────────────────────────────────────────────────────────────────────────────────
  /** The transport the options force, or the one the page's window shows now (with the marker's nonce). */
  function detect(): { transport: Transport; nonce?: string } | undefined {
    const forced = options.transport;
    if (typeof forced === 'object') return { transport: forced };
    const found = detectTransport(win, { ...options, only: forced });
    // Flutter and Android may inject the marker after the page's first scripts. Their hosts drop every
    // message without the marker's nonce, so a native object found without one waits for the marker.
    const markerMayCome = waitingForMarker && found?.nonce === undefined && !win.__HUB_EMBED_BRIDGE__;
    if (found && markerMayCome && NATIVE.has(found.transport.name)) return undefined;
    return found;
  }

  function probe(): void {
    if (transport || state === 'closed') return;
    const found = detect();
    if (!found) return;
    clearInterval(probeTimer);
    transport = found.transport;
    nonce = found.nonce;
    if (transport.listen) offs.push(transport.listen(receive));
    if (state === 'waiting') handshake(transport);
  }

  /** The wait for the host is over: a last look (a native object without a nonce now counts), then no host. */
  function endWait(): void {
    waitingForMarker = false;
    probe();
    if (!transport) noHost();
  }

  /** The host's `bridge.ready`: it (re)initialised, or it was injected after the page gave up on it. */
  function hostAnnounced(): void {
    if (state === 'none') {
      // The host may have come late: look again (it may bring its marker) and shake hands anew.
      probe();
      start();
    } else if (!transport) {
      probe();
    } else if (state === 'ready') {
      // Anyone in the page can send this event when the host set no nonce, so the bridge keeps its host
      // and says hello again; an answer (a re-initialised host's) replaces it, silence changes nothing.
      handshake(transport, readyMs);
    }
  }

  // 6. Receiving ────────────────────────────────────────────────────────────────────────────────────────
  function receive(raw: unknown): void {
    if (state === 'closed') return;
    const message = parseMessage(raw);
    if (typeof message === 'string') {
      ignore(message);
    } else if (nonce && message.nonce !== nonce) {
      ignore('nonce');
    } else if (message.kind === 'evt' && message.method === 'bridge.ready') {
      hostAnnounced();
    } else if (message.sid !== sid) {
      ignore('sid');
    } else if (message.kind === 'res') {
      // parseMessage gives every failed reply an error from the closed set.
      const error = message.ok === true ? undefined : (message.error ?? { code: 'E_INTERNAL', message: 'host error' });
      settle(message.id, error && new BridgeError(error.code, error.message), message.result);
    } else if (message.kind === 'req') {
      void answerRequest(message);
    }
  }

  async function answerRequest(request: BridgeMessage): Promise<void> {
    if (seen.has(request.id)) {
      ignore('duplicate');
      return;
    }
    // Bounded so a long-lived page does not grow; duplicates only arrive back to back.
    if (seen.size > 200) seen.clear();
    seen.add(request.id);
    const body = await answers.answer(request);
    if (state !== 'closed') reply(request.id, body);
  }

  /** Sends an answer; one too large to send (or a host gone meanwhile) is answered with that error. */
  function reply(id: string, body: MessageBody): void {
    try {
      post({ id, kind: 'res', ...body });
    } catch (error) {
      const { code, message } = toBridgeError(error);
      if (body.ok === true) succeeds(() => post({ id, kind: 'res', ok: false, error: { code, message } }));
    }
  }

  // 7. Wiring, and the Bridge ───────────────────────────────────────────────────────────────────────────
  const onPageShow = (event: PageTransitionEvent) => {
    if (event.persisted && state === 'ready') start();
  };
  win.addEventListener('pageshow', onPageShow);
  offs.push(addReceiver(win, receive), () => {
    win.removeEventListener('pageshow', onPageShow);
  });

  start();
  // A microtask, so handlers registered right after connectBridge() are in the hello.
  queueMicrotask(probe);
  probeTimer = setInterval(probe, 100);
  // Stopped with the other timers once the handshake ends; they only decide for a host not found yet.
  waitTimer = setTimeout(endWait, options.waitForHostMs ?? readyMs);

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
    hasCapability: (method) => host?.capabilities.includes(method) ?? false,
    request: call,
    emit(event, params) {
      const queued = state !== 'ready';
      if (refusal(queued)) return false;
      const message: MessageBody = { id: randomId(), kind: 'evt', method: event, params };
      if (!queued) return succeeds(() => post(message));
      // Measured now, so an event too large to send is a `false` for the caller, not a silent loss later.
      if (!succeeds(() => wire(message))) return false;
      // A host that goes away before the handshake ends loses the event, as it would lose a sent one.
      queue.add(() => {
        succeeds(() => post(message));
      });
      return true;
    },
    handle: answers.handle,
    close() {
      if (state === 'closed') return;
      for (const off of offs) off();
      end('closed', 'E_CANCELLED', 'bridge closed');
    },
  };
}
