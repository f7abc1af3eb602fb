/**
 * The test double of every native host: a shell around the kernel that records what crossed and holds requests.
 *
 * Each installs the same globals a real host injects (mock-transports.ts) and answers the way a real host
 * does (evaluateJavaScript-style `__hubEmbedReceive`, RN `message` events, WML `onmessage`, WithReply
 * promises, parent `postMessage`), so tests drive the real page code.
 */
import { BRIDGE_NS, BRIDGE_VERSION, BridgeError } from '../bridge/protocol.js';
import { createHostKernel } from './kernel.js';
import { TRANSPORT_OF, installTransport, type MockTransport } from './mock-transports.js';
import type { BridgeErrorCode, BridgeMessage } from '../bridge/protocol.js';
import type { PageToHostRequests } from '../bridge/methods.js';
import type { MethodHandler } from './types.js';

export type { MockTransport } from './mock-transports.js';

export type MockHandlers = {
  [M in keyof PageToHostRequests]?: (
    params: PageToHostRequests[M]['params'],
  ) => PageToHostRequests[M]['result'] | Promise<PageToHostRequests[M]['result']>;
} & Record<string, ((params: any) => unknown) | undefined>;

export interface MockHostOptions {
  window?: Window;
  platform?: string;
  /** Host methods announced in the hello; default: the keys of `handlers`. */
  capabilities?: string[];
  /** Host-side handlers; throw a BridgeError to answer with that code. */
  handlers?: MockHandlers;
  /** false: a host that never answers the handshake. */
  answerHello?: boolean;
  /** The protocol version the host claims in its hello answer. */
  helloVersion?: number;
  /** Hold requests (not the hello) in `held` until `reply()` / `fail()`. */
  manual?: boolean;
  /** Install `window.__HUB_EMBED_BRIDGE__` naming this transport. */
  marker?: boolean;
  /** Per-load nonce: put in the marker, stamped on every host message, required on page messages. */
  nonce?: string;
  /** The parent frame's origin (transport `parent`); default: the real ancestor origin, if any. */
  origin?: string;
  /** React Native: how replies arrive (`injectJavaScript` -> receive, or `ref.postMessage` events). */
  rnTarget?: 'receive' | 'window' | 'document' | 'both';
  /** WeChat: whether `wx.miniProgram.navigateTo` succeeds. */
  wechatNavigate?: 'ok' | 'fail';
}

export interface MockHost {
  readonly transport: MockTransport;
  /** Every raw value the page passed to the native postMessage. */
  readonly posted: unknown[];
  /** Every page message the host accepted, parsed. */
  readonly messages: BridgeMessage[];
  readonly events: Array<{ method: string; params: unknown }>;
  readonly held: BridgeMessage[];
  readonly cancelled: string[];
  /** Session ids of the hellos received, oldest first. */
  readonly sessions: string[];
  /** WeChat: urls passed to `wx.miniProgram.navigateTo`. */
  readonly navigations: string[];
  reply(id: string, result: unknown): void;
  fail(id: string, code: BridgeErrorCode, message: string): void;
  /** A host-to-page request to the newest session (or `sid`). */
  request(method: string, params?: unknown, sid?: string): Promise<unknown>;
  /**
   * Delivers a value through this host's inbound path, as the host would: a plain object is a message
   * (`Partial<BridgeMessage>`) and gets the envelope; any other value goes as it is.
   */
  deliver(message: unknown): void;
  /** Pushes `evt bridge.ready`, as a host that injects early does. */
  announce(): void;
  /** Removes every global this host installed. */
  remove(): void;
}

const DEFAULT_HANDLERS: MockHandlers = {
  'auth.getToken': () => ({ access_token: 'mock-host-token', expires_in: 3600 }),
  'form.open': () => ({ handled: true }),
};

/**
 * A thin shell around the one host implementation (src/host/kernel.ts), as a native app is: it installs
 * the globals a real host injects, carries strings between them and the kernel, and records what
 * crossed for tests to assert on.
 */
export function createMockHost(transport: MockTransport, options: MockHostOptions = {}): MockHost {
  const handlers = options.handlers ?? DEFAULT_HANDLERS;
  /** Requests held by `manual` (and the hello, with `answerHello: false`) until reply() or fail(). */
  const holds = new Map<string, { resolve(result: unknown): void; reject(error: BridgeError): void }>();
  let counter = 0;

  /** Answers through `handlers`, or holds the request for the test to answer. */
  const handle =
    (handler: ((params: any) => unknown) | undefined, hold: boolean) => (params: unknown, request: BridgeMessage) => {
      if (!hold) return handler!(params);
      host.held.push(request);
      return new Promise((resolve, reject) => holds.set(request.id, { resolve, reject }));
    };
  const methods: Record<string, MethodHandler> = {};
  for (const [method, handler] of Object.entries(handlers))
    if (handler) methods[method] = handle(handler, !!options.manual);
  if (options.answerHello === false) methods['bridge.hello'] = handle(undefined, true);

  const kernel = createHostKernel({
    platform: options.platform ?? transport,
    transport: TRANSPORT_OF[transport],
    nonce: options.nonce ?? false,
    // Tests hold requests as long as they like: no timeouts and no cap, as before the kernel.
    timeoutMs: 0,
    maxInFlight: Infinity,
    replies: transport === 'webkit-reply' ? 'return' : 'script',
    methods,
    hello: {
      v: options.helloVersion ?? 1,
      appVersion: '1.0.0',
      capabilities: options.capabilities ?? Object.keys(handlers),
    },
    send: (_script, json) => page.toPage(json),
    onAccepted(message) {
      host.messages.push(message);
      if (message.kind === 'evt') host.events.push({ method: message.method!, params: message.params });
      if (message.kind === 'req' && message.method === 'bridge.hello') host.sessions.push(message.sid);
      if (message.kind === 'cancel') {
        host.cancelled.push(message.id);
        const index = host.held.findIndex((held) => held.id === message.id);
        if (index >= 0) host.held.splice(index, 1);
      }
    },
  });

  const host: MockHost = {
    transport,
    posted: [],
    messages: [],
    events: [],
    held: [],
    cancelled: [],
    sessions: [],
    navigations: [],
    reply: (id, result) => respond(id, { ok: true, result }),
    fail: (id, code, message) => respond(id, { ok: false, error: { code, message } }),
    request(method, params, sid = host.sessions.at(-1)) {
      const answer = kernel.request(method, params, { sid });
      // A test may leave a request unanswered when it removes the host (which fails it E_CANCELLED).
      answer.catch(() => {});
      return answer;
    },
    deliver(message) {
      const raw = isPlainObject(message) ? JSON.stringify(envelope(message as Partial<BridgeMessage>)) : message;
      page.toPage(raw);
    },
    announce: () => host.deliver({ sid: '', id: `h${++counter}`, kind: 'evt', method: 'bridge.ready' }),
    remove() {
      kernel.close();
      page.remove();
    },
  };

  function envelope(message: Partial<BridgeMessage>) {
    return { ns: BRIDGE_NS, v: BRIDGE_VERSION, ...(kernel.nonce && { nonce: kernel.nonce }), ...message };
  }

  /** Settles a held request, or (a test's forgery) sends an answer to any request the page made. */
  function respond(id: string, body: Partial<BridgeMessage>) {
    const index = host.held.findIndex((held) => held.id === id);
    const hold = holds.get(id);
    if (index >= 0 && hold) {
      host.held.splice(index, 1);
      holds.delete(id);
      if (body.ok) hold.resolve(body.result);
      else hold.reject(new BridgeError(body.error!.code, body.error!.message));
      return;
    }
    const request = host.messages.find((message) => message.id === id && message.kind === 'req');
    if (!request) throw new Error(`mock host: no request ${id}`);
    host.deliver({ sid: request.sid, id, kind: 'res', ...body });
  }

  /**
   * What the page posts goes to the kernel. With WKScriptMessageHandlerWithReply the answer is the
   * reply handler's: the reply's JSON, or an error message "E_CODE: text" as a Swift host passes it.
   */
  function fromPageWithReply(raw: unknown): Promise<string | null> {
    host.posted.push(raw);
    return kernel.receive(raw).then((json) => {
      if (json === undefined) return null;
      const answer = JSON.parse(json) as BridgeMessage;
      if (answer.ok) return json;
      throw new Error(`${answer.error!.code}: ${answer.error!.message}`);
    });
  }

  /** Every other host answers through `send` (the kernel's `replies: 'script'`), so the page's post returns nothing. */
  function post(raw: unknown): void {
    host.posted.push(raw);
    void kernel.receive(raw);
  }

  const page = installTransport(transport, options, {
    post,
    postWithReply: fromPageWithReply,
    navigations: host.navigations,
  });
  return host;
}

function isPlainObject(value: unknown): boolean {
  return !!value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype;
}
