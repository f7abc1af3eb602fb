/**
 * Test doubles for every native host. Each installs the same globals a real host injects and answers
 * the way a real host does (evaluateJavaScript-style `__hubEmbedReceive`, RN `message` events, WML
 * `onmessage`, WithReply promises, parent `postMessage`), so tests drive the real page code.
 */
import { BRIDGE_NS, BRIDGE_VERSION, BridgeError, toScriptLiteral } from '../bridge/protocol.js';
import { createHostKernel, type MethodHandler } from './kernel.js';
import type { BridgeErrorCode, BridgeMessage } from '../bridge/protocol.js';
import type { PageToHostRequests } from '../bridge/methods.js';
import type { TransportName } from '../bridge/transports.js';

export type MockTransport =
  'react-native' | 'webkit' | 'webkit-reply' | 'android' | 'android-jsi' | 'flutter' | 'wechat' | 'parent';

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

/** The globals this mock installs and later calls into, typed as it uses them. */
interface MockedWindow extends Window {
  /** The page's bridge installs it (src/bridge/receive.ts); native hosts evaluate calls to it. */
  __hubEmbedReceive?: (message: unknown) => void;
  /** Transport 'android': the addWebMessageListener object this mock installs. */
  hubEmbed: AndroidChannel;
}

/** Android's addWebMessageListener object: the page posts through it and hears the host's replies on it. */
interface AndroidChannel extends EventTarget {
  postMessage(raw: unknown): void;
  onmessage: ((event: { data: unknown }) => void) | null;
}

const TRANSPORT_OF: Record<MockTransport, TransportName> = {
  'react-native': 'react-native',
  webkit: 'webkit',
  'webkit-reply': 'webkit',
  android: 'android',
  'android-jsi': 'android',
  flutter: 'android',
  wechat: 'wechat',
  parent: 'parent',
};

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
  const win = (options.window ?? window) as MockedWindow;
  const handlers = options.handlers ?? DEFAULT_HANDLERS;
  const origin = options.origin ?? win.location.ancestorOrigins?.[0] ?? 'https://host.example';
  const restores: Array<() => void> = [];
  /** Requests held by `manual` (and the hello, with `answerHello: false`) until reply() or fail(). */
  const holds = new Map<string, { resolve(result: unknown): void; reject(error: BridgeError): void }>();
  let counter = 0;
  let parentWindow: MessageEventSource | undefined;

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
    send: (_script, json) => toPage(json),
    onAccepted(m) {
      host.messages.push(m);
      if (m.kind === 'evt') host.events.push({ method: m.method!, params: m.params });
      if (m.kind === 'req' && m.method === 'bridge.hello') host.sessions.push(m.sid);
      if (m.kind === 'cancel') {
        host.cancelled.push(m.id);
        const i = host.held.findIndex((h) => h.id === m.id);
        if (i >= 0) host.held.splice(i, 1);
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
      toPage(raw);
    },
    announce: () => host.deliver({ sid: '', id: `h${++counter}`, kind: 'evt', method: 'bridge.ready' }),
    remove() {
      kernel.close();
      for (const restore of restores.splice(0).reverse()) restore();
    },
  };

  function envelope(message: Partial<BridgeMessage>) {
    return { ns: BRIDGE_NS, v: BRIDGE_VERSION, ...(kernel.nonce && { nonce: kernel.nonce }), ...message };
  }

  function setGlobal(target: object, key: string, value: unknown) {
    const previous = Object.getOwnPropertyDescriptor(target, key);
    Object.defineProperty(target, key, { value, configurable: true, writable: true });
    restores.push(() => {
      if (previous) Object.defineProperty(target, key, previous);
      else Reflect.deleteProperty(target, key);
    });
  }

  // Native hosts evaluate `window.__hubEmbedReceive(<literal>)`; parsing the escaped literal as JSON
  // is what the JavaScript engine does with it, without evaluating code.
  const viaReceive = (raw: unknown) =>
    win.__hubEmbedReceive?.(typeof raw === 'string' ? (JSON.parse(toScriptLiteral(raw)) as unknown) : raw);
  const dispatchOn = (target: EventTarget, raw: unknown, extra: MessageEventInit = {}) =>
    target.dispatchEvent(new MessageEvent('message', { data: raw, ...extra }));

  function toPage(raw: unknown): void {
    switch (transport) {
      case 'react-native': {
        const target = options.rnTarget ?? 'receive';
        if (target === 'receive') return viaReceive(raw);
        if (target !== 'document') dispatchOn(win, raw);
        if (target !== 'window') dispatchOn(win.document, raw);
        return;
      }
      case 'android': {
        const channel = win.hubEmbed;
        dispatchOn(channel, raw);
        channel.onmessage?.({ data: raw });
        return;
      }
      case 'parent':
        dispatchOn(win, raw, { origin, source: parentWindow ?? null });
        return;
      case 'wechat':
        throw new Error('a WeChat mini-program cannot message the web-view page');
      default:
        return viaReceive(raw);
    }
  }

  /** Settles a held request, or (a test's forgery) sends an answer to any request the page made. */
  function respond(id: string, body: Partial<BridgeMessage>) {
    const i = host.held.findIndex((m) => m.id === id);
    const hold = holds.get(id);
    if (i >= 0 && hold) {
      host.held.splice(i, 1);
      holds.delete(id);
      if (body.ok) hold.resolve(body.result);
      else hold.reject(new BridgeError(body.error!.code, body.error!.message));
      return;
    }
    const request = host.messages.find((m) => m.id === id && m.kind === 'req');
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

  switch (transport) {
    case 'react-native':
      setGlobal(win, 'ReactNativeWebView', { postMessage: post });
      break;
    case 'webkit':
      setGlobal(win, 'webkit', { messageHandlers: { hubEmbed: { postMessage: post } } });
      break;
    case 'webkit-reply':
      setGlobal(win, 'webkit', { messageHandlers: { hubEmbed: { postMessage: fromPageWithReply } } });
      break;
    case 'android': {
      const channel: AndroidChannel = Object.assign(new EventTarget(), { postMessage: post, onmessage: null });
      setGlobal(win, 'hubEmbed', channel);
      break;
    }
    case 'android-jsi':
    case 'flutter':
      setGlobal(win, 'hubEmbed', { postMessage: post });
      break;
    case 'wechat':
      setGlobal(win, '__wxjs_environment', 'miniprogram');
      setGlobal(win, 'wx', {
        miniProgram: {
          postMessage: ({ data }: { data: { hubEmbed: unknown[] } }) => data.hubEmbed.forEach(post),
          navigateTo({ url, success, fail }: { url: string; success?: () => void; fail?: (e: unknown) => void }) {
            host.navigations.push(url);
            queueMicrotask(() =>
              options.wechatNavigate === 'fail' ? fail?.({ errMsg: 'navigateTo:fail' }) : success?.(),
            );
          },
          getEnv: (cb: (env: { miniprogram: boolean }) => void) => cb({ miniprogram: true }),
        },
      });
      break;
    case 'parent': {
      parentWindow = fakeParentWindow(win, restores);
      setGlobal(parentWindow, 'postMessage', (data: unknown, targetOrigin: string) => {
        // The browser drops a message whose targetOrigin does not match the receiver.
        if (targetOrigin === origin) post(data);
      });
      setGlobal(win, 'parent', parentWindow);
      break;
    }
  }
  if (options.marker || options.nonce)
    setGlobal(win, '__HUB_EMBED_BRIDGE__', { transport: TRANSPORT_OF[transport], v: 1, nonce: options.nonce });
  return host;
}

function isPlainObject(value: unknown): boolean {
  return !!value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype;
}

/** Browsers accept only a real window as a MessageEvent source; simpler DOMs accept any object. */
function fakeParentWindow(win: Window, restores: Array<() => void>): MessageEventSource {
  try {
    const standIn = {} as Window;
    new MessageEvent('message', { source: standIn });
    return standIn;
  } catch {
    const frame = win.document.createElement('iframe');
    frame.hidden = true;
    win.document.body.append(frame);
    restores.push(() => frame.remove());
    return frame.contentWindow!;
  }
}
