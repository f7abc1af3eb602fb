/** The page side of the bridge: one state machine per connectBridge(), tying its sections to its state. */
import { answerHost, type PageHandler } from './answers.js';
// Before the sections' other rules, so the bundle keeps the transports beside the code that finds them.
import { findHost } from './find-host.js';
import type { Bridge, BridgeOptions, CallOptions, HostInfo, State } from './bridge-types.js';
import { createCalls } from './calls.js';
import { announces, dropReason, onceById } from './inbound.js';
import type { HelloResult } from './methods.js';
import { BRIDGE_VERSION, BridgeError, failure, parseMessage, toBridgeError } from './protocol.js';
import type { BridgeErrorCode, BridgeMessage } from './protocol.js';
import { addReceiver } from './receive.js';
import { NO_HOST, refusal, tooManyCalls } from './refusals.js';
import { randomId, succeeds, wire } from './sending.js';
import type { HostWindow, Transport } from './transports.js';

/**
 * One bridge: one state machine (its states and moves: bridge-types.ts), in these sections, in this order.
 * Each rule a section applies is a module of its own, tested alone.
 *
 *   State             what the bridge holds: its state, host, transport, nonce, open calls, queue, timers
 *   Sending           each message through the transport (its envelope and size: sending.ts)
 *   Calls             page → host requests: refused (refusals.ts), or opened and ended (calls.ts)
 *   Ending            no host, or closed: what fails with it
 *   Handshake         bridge.hello; again after a back/forward-cache restore or the host's bridge.ready
 *   Finding the host  looking for a transport (find-host.ts), and waiting for a late marker
 *   Receiving         every inbound message: checks (inbound.ts), replies to calls, the host's requests
 *   Start             the listeners and timers it starts with, and the Bridge it returns
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
  /** The page's handlers of host requests, by method. */
  const handlers = new Map<string, PageHandler>();
  /** Whether a host request is new: a duplicate is not answered twice. */
  const firstTime = onceById();
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

  const stopTimers = () => {
    clearTimeout(readyTimer);
    clearTimeout(waitTimer);
    clearInterval(probeTimer);
  };

  // ── Sending ────────────────────────────────────────────────────────────────────────────────────
  const post = (message: Partial<BridgeMessage>): unknown => transport!.post(wire(sid, nonce, message));

  // ── Calls ──────────────────────────────────────────────────────────────────────────────────────
  /** Open calls by id (queued or sent), and the calls and events held until the handshake, in order. */
  const { pending, queue, settle, call: openCall } = createCalls(post, receive, ignore);

  function call(
    method: string,
    params: unknown,
    { timeoutMs = options.timeoutMs ?? 10_000, signal }: CallOptions = {},
  ) {
    const waiting = state !== 'ready' && method !== 'bridge.hello';
    const refused = refusal(state, waiting, queue.size, queueLimit) ?? tooManyCalls(method, pending.size, pendingLimit);
    return refused ? Promise.reject(refused) : openCall(method, params, waiting, timeoutMs, signal);
  }

  // ── Ending ─────────────────────────────────────────────────────────────────────────────────────
  /** No host (next = 'none') or closed: queued calls and the handshake fail; sent calls too when closed. */
  function end(next: State, code: BridgeErrorCode, message: string): void {
    stopTimers();
    host = null;
    state = next;
    settleReady(null);
    queue.clear();
    for (const open of pending.values()) if (next === 'closed' || !open.sent) open.end(new BridgeError(code, message));
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
    const found = findHost(win, options, waitingForMarker);
    if (!found) return;
    clearInterval(probeTimer);
    ({ transport, nonce } = found);
    if (transport.listen) offs.push(transport.listen(receive));
    if (state === 'waiting') handshake();
  }

  // ── Receiving ──────────────────────────────────────────────────────────────────────────────────
  /** Answers a host → page request (answers.ts), once per id. */
  function answer(request: BridgeMessage): void {
    const { id } = request;
    if (!firstTime(id)) {
      ignore('duplicate');
      return;
    }
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
    // A host whose marker came after the page spoke without it (Flutter, Android without document-start
    // scripts) announces itself with the marker's nonce: the page takes that nonce from now on.
    if (announces(message) && message.nonce === win.__HUB_EMBED_BRIDGE__?.nonce) nonce = message.nonce;
    const dropped = dropReason(message, sid, nonce);
    if (dropped) ignore(dropped);
    else if (announces(message)) {
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
    } else if (message.kind === 'res')
      settle(
        message.id,
        message.ok === true ? undefined : new BridgeError(message.error!.code, message.error!.message),
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
      if (refusal(state, waiting, queue.size, queueLimit)) return false;
      const message: Partial<BridgeMessage> = { id: randomId(), kind: 'evt', method: event, params };
      if (!waiting) return succeeds(() => post(message));
      // Measured now, so an event too large to send is a `false` for the caller, not a silent loss later.
      if (!succeeds(() => wire(sid, nonce, message))) return false;
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
