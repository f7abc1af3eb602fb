/**
 * Test doubles for every native host. Each installs the same globals a real host injects and answers
 * the way a real host does (evaluateJavaScript-style `__hubEmbedReceive`, RN `message` events, WML
 * `onmessage`, WithReply promises, parent `postMessage`), so tests drive the real page code.
 */
import { BRIDGE_NS, BRIDGE_VERSION, BridgeError, parseMessage, toScriptLiteral } from './protocol.js';
import type { BridgeErrorCode, BridgeMessage } from './protocol.js';
import type { PageToHostRequests } from './methods.js';
import type { HostWindow, TransportName } from './transports.js';

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
  /** Delivers a message or a raw value through this host's inbound path, as the host would. */
  deliver(message: Partial<BridgeMessage> | unknown): void;
  /** Pushes `evt bridge.ready`, as a host that injects early does. */
  announce(): void;
  /** Removes every global this host installed. */
  remove(): void;
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

export function createMockHost(transport: MockTransport, options: MockHostOptions = {}): MockHost {
  const win = (options.window ?? window) as HostWindow;
  const handlers = options.handlers ?? DEFAULT_HANDLERS;
  const origin = options.origin ?? win.location.ancestorOrigins?.[0] ?? 'https://host.example';
  const restores: Array<() => void> = [];
  const withReply = new Map<string, { resolve(json: string | null): void; reject(e: Error): void }>();
  const hostCalls = new Map<string, { resolve(v: unknown): void; reject(e: BridgeError): void }>();
  let counter = 0;
  let parentWindow: any;

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
      const id = `h${++counter}`;
      return new Promise((resolve, reject) => {
        hostCalls.set(id, { resolve, reject });
        host.deliver({ sid, id, kind: 'req', method, params });
      });
    },
    deliver(message) {
      const raw = isPlainObject(message) ? JSON.stringify(envelope(message as Partial<BridgeMessage>)) : message;
      toPage(raw);
    },
    announce: () => host.deliver({ sid: '', id: `h${++counter}`, kind: 'evt', method: 'bridge.ready' }),
    remove() {
      for (const restore of restores.splice(0).reverse()) restore();
    },
  };

  function envelope(message: Partial<BridgeMessage>) {
    return { ns: BRIDGE_NS, v: BRIDGE_VERSION, ...(options.nonce && { nonce: options.nonce }), ...message };
  }

  function setGlobal(target: any, key: string, value: unknown) {
    const previous = Object.getOwnPropertyDescriptor(target, key);
    Object.defineProperty(target, key, { value, configurable: true, writable: true });
    restores.push(() => (previous ? Object.defineProperty(target, key, previous) : delete target[key]));
  }

  // Native hosts evaluate `window.__hubEmbedReceive(<literal>)`; parsing the escaped literal as JSON
  // is what the JavaScript engine does with it, without evaluating code.
  const viaReceive = (raw: unknown) =>
    win.__hubEmbedReceive?.(typeof raw === 'string' ? JSON.parse(toScriptLiteral(raw)) : raw);
  const dispatchOn = (target: EventTarget, raw: unknown, extra: MessageEventInit = {}) =>
    target.dispatchEvent(new MessageEvent('message', { data: raw, ...extra }));

  function toPage(raw: unknown) {
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
        return channel.onmessage?.({ data: raw });
      }
      case 'parent':
        return dispatchOn(win, raw, { origin, source: parentWindow });
      case 'wechat':
        throw new Error('a WeChat mini-program cannot message the web-view page');
      default:
        return viaReceive(raw);
    }
  }

  function respond(id: string, body: Partial<BridgeMessage>) {
    const i = host.held.findIndex((m) => m.id === id);
    const request = i >= 0 ? host.held.splice(i, 1)[0] : host.messages.find((m) => m.id === id && m.kind === 'req');
    if (!request) throw new Error(`mock host: no request ${id}`);
    const waiting = withReply.get(id);
    withReply.delete(id);
    if (waiting) {
      // WKScriptMessageHandlerWithReply: replyHandler(json, nil) or replyHandler(nil, errorMessage).
      if (body.ok) waiting.resolve(JSON.stringify(envelope({ sid: request.sid, id, kind: 'res', ...body })));
      else waiting.reject(new Error(`${body.error!.code}: ${body.error!.message}`));
      return;
    }
    host.deliver({ sid: request.sid, id, kind: 'res', ...body });
  }

  function run(m: BridgeMessage) {
    const handler = handlers[m.method!];
    if (!handler) return host.fail(m.id, 'E_NO_HANDLER', `the host has no handler for ${m.method}`);
    Promise.resolve()
      .then(() => handler(m.params))
      .then(
        (result) => host.reply(m.id, result),
        (e) => host.fail(m.id, e instanceof BridgeError ? e.code : 'E_INTERNAL', String(e?.message ?? e)),
      );
  }

  function fromPage(raw: unknown): Promise<string | null> | undefined {
    host.posted.push(raw);
    // A real native channel turns a non-string into "[object Object]"; the page must never send one.
    if (typeof raw !== 'string') return;
    const m = parseMessage(raw);
    if (typeof m === 'string' || (options.nonce && m.nonce !== options.nonce)) return;
    host.messages.push(m);
    const reply =
      transport === 'webkit-reply' && m.kind === 'req'
        ? new Promise<string | null>((resolve, reject) => withReply.set(m.id, { resolve, reject }))
        : transport === 'webkit-reply'
          ? Promise.resolve(null)
          : undefined;
    if (m.kind === 'evt') host.events.push({ method: m.method!, params: m.params });
    else if (m.kind === 'cancel') {
      host.cancelled.push(m.id);
      const i = host.held.findIndex((h) => h.id === m.id);
      if (i >= 0) host.held.splice(i, 1);
    } else if (m.kind === 'res') {
      const call = hostCalls.get(m.id);
      hostCalls.delete(m.id);
      if (m.ok) call?.resolve(m.result);
      else call?.reject(new BridgeError(m.error!.code, m.error!.message));
    } else if (m.method === 'bridge.hello') {
      host.sessions.push(m.sid);
      if (options.answerHello !== false) {
        const capabilities = options.capabilities ?? Object.keys(handlers);
        const result = {
          v: options.helloVersion ?? 1,
          platform: options.platform ?? transport,
          appVersion: '1.0.0',
          capabilities,
          config: {},
        };
        // Replies go out after the page's postMessage returns, as they do from a native thread.
        queueMicrotask(() => host.reply(m.id, result));
      }
    } else if (options.manual) host.held.push(m);
    else run(m);
    return reply;
  }

  const post = (raw: unknown) => fromPage(raw);
  switch (transport) {
    case 'react-native':
      setGlobal(win, 'ReactNativeWebView', { postMessage: post });
      break;
    case 'webkit':
    case 'webkit-reply':
      setGlobal(win, 'webkit', { messageHandlers: { hubEmbed: { postMessage: post } } });
      break;
    case 'android': {
      const channel: any = new EventTarget();
      channel.postMessage = post;
      channel.onmessage = null;
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
function fakeParentWindow(win: HostWindow, restores: Array<() => void>): object {
  try {
    new MessageEvent('message', { source: {} as Window });
    return {};
  } catch {
    const frame = win.document.createElement('iframe');
    frame.hidden = true;
    win.document.body.append(frame);
    restores.push(() => frame.remove());
    return frame.contentWindow!;
  }
}
