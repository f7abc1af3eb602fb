/**
 * The host side of bridge protocol v1: what a native app (iOS, Android, React Native, a test double)
 * runs around the widget page. Every native host in this repository is a thin shell around this one
 * implementation: the shell moves strings between the WebView and `receive()` / `send`, and this file
 * decides everything else (the per-load nonce and marker, checks on every message, the handshake,
 * handlers, replies, requests to the page with timeouts).
 */
import type { AccessToken } from '../core/types.js';
import type { HelloResult, HostToPageRequests, PageToHostEvents } from '../bridge/methods.js';
import { isObject } from '../bridge/methods.js';
import {
  BRIDGE_NS,
  BRIDGE_VERSION,
  BridgeError,
  MAX_MESSAGE_CHARS,
  parseMessage,
  toBridgeError,
  toScriptLiteral,
} from '../bridge/protocol.js';
import type { BridgeErrorCode, BridgeMessage } from '../bridge/protocol.js';
import type { TransportName } from '../bridge/transports.js';
import { decideNavigation, exactOrigins, type NavigationDecision } from './navigation.js';

/** What the app supplies. `bridge.hello` announces exactly these, so the page asks for nothing else. */
export interface HostHandlers {
  /** The token for the signed-in user, from the app's own server. Concurrent requests share one call. */
  getToken?(request: { reason?: 'initial' | 'expired' }): AccessToken | Promise<AccessToken>;
  /** Resolve true when the app opened the form itself (a native screen); the page then opens nothing. */
  openForm?(request: { url: string; shortCode: string }): boolean | Promise<boolean>;
  /** A URL that must leave the WebView: the system browser, a Custom Tab, an SFSafariViewController. */
  openExternal?(url: string): void | Promise<void>;
}

/** One event of the page, typed from the bridge's one event map. */
export type HostEvent = {
  [E in keyof PageToHostEvents]: { name: E; params: PageToHostEvents[E] };
}[keyof PageToHostEvents];

/** A handler of a page request by method name: what test doubles and app-specific methods plug in. */
export type MethodHandler = (params: unknown, request: BridgeMessage) => unknown;

export interface HostKernelOptions {
  /** Told to the page in the hello: 'ios', 'android', 'react-native', … */
  platform: string;
  /** The page transport the marker names (docs/webview.md, "Transports"). */
  transport: TransportName;
  appVersion?: string;
  handlers?: HostHandlers;
  /** Every event the page sends (widget.ready, table.selected, form.opened, …). */
  onEvent?(event: HostEvent): void;
  /**
   * Delivers one message to the page. `script` is what evaluateJavaScript / injectJavaScript runs
   * (`window.__hubEmbedReceive(<literal>)`); `json` is the message itself, for channels that carry
   * strings (a parent frame's postMessage, an Android WebMessagePort).
   */
  send(script: string, json: string): void;
  /** Exact origins whose pages may load inside the WebView: the widget page's and the form site's. */
  allowedOrigins?: readonly string[];
  /** How long the page has to answer a request, and a handler to settle; default 10 s. 0: no limit. */
  timeoutMs?: number;
  /** A message that was dropped, and why: for the app's logs. Never shown to the user. */
  onRejected?(reason: string, raw: unknown): void;
  /**
   * `script` (default): replies go through `send`. `return`: `receive()` resolves with the reply, as a
   * WKScriptMessageHandlerWithReply's replyHandler wants it.
   */
  replies?: 'script' | 'return';
  /**
   * The first load's nonce; later loads always get a fresh random one. `false`: no nonce at all, for a
   * channel that is already bound to the page (a parent frame checked by origin and source; tests).
   */
  nonce?: string | false;
  /** More of the marker, e.g. `{wechatFormPage: '/pages/hub-form/index'}`. */
  markerExtras?: Record<string, string>;
  /** Methods beyond the typed handlers, or in their place (test doubles, app-specific calls). */
  methods?: Record<string, MethodHandler | undefined>;
  /** Overrides of the hello's answer (a `methods['bridge.hello']` replaces it altogether). */
  hello?: Partial<HelloResult>;
  /** Every message that passed the checks, before it is handled: for the app's logs and for tests. */
  onAccepted?(message: BridgeMessage): void;
  /** Most page requests handled at once; more are answered E_UNSUPPORTED. Default 1,000. */
  maxInFlight?: number;
}

export interface RequestOptions {
  /** The page session to ask; default the newest. */
  sid?: string;
  timeoutMs?: number;
}

export interface HostKernel {
  /** This page load's nonce ('' with `nonce: false`). */
  readonly nonce: string;
  /** The script to inject before the page's own scripts run: the marker with the transport and nonce. */
  readonly marker: string;
  /** The page sessions that said hello during this load, oldest first. */
  readonly sessions: readonly string[];
  /**
   * A new page load began (call it before the load, then inject `marker`): a new nonce, a new session
   * list, and requests to the old page fail E_CANCELLED. `keepNonce` for a WebView that fixes its
   * injected scripts before the load starts (react-native-webview): the same nonce then stays.
   */
  reload(options?: { keepNonce?: boolean }): void;
  /**
   * Every raw value the page posted. With `replies: 'return'` it resolves with the reply's JSON for a
   * request (undefined otherwise); with `replies: 'script'` the reply goes through `send`.
   */
  receive(raw: unknown): Promise<string | undefined>;
  /** A request to the page (`widget.refresh`, `widget.setTags`, `form.close`, or any method it handles). */
  request<M extends keyof HostToPageRequests>(
    method: M,
    params: HostToPageRequests[M]['params'],
    options?: RequestOptions,
  ): Promise<HostToPageRequests[M]['result']>;
  request(method: string, params?: unknown, options?: RequestOptions): Promise<unknown>;
  /** Loads the widget's tags and tables again. */
  refresh(): Promise<void>;
  /** Selects tags in the widget. */
  setTags(tags: string[]): Promise<void>;
  /** Closes a form the page opened; resolves whether one was open. */
  closeForm(): Promise<boolean>;
  /**
   * Whether a navigation may load inside the WebView. For `external` the kernel has already passed the
   * URL to `openExternal`; `blocked` (javascript:, data:, file:, …) goes nowhere.
   */
  decideNavigation(url: string): NavigationDecision;
  /** Ends everything: pending requests fail E_CANCELLED, later messages are dropped. */
  close(): void;
}

/** `window.__hubEmbedReceive(<literal>)`, the literal escaped so no JSON can break out of the script. */
export function receiveScript(json: string): string {
  return `window.__hubEmbedReceive&&window.__hubEmbedReceive(${toScriptLiteral(json)});true;`;
}

/**
 * 128 random bits as hex. React Native's Hermes has no `crypto` unless the app adds a polyfill; there
 * Math.random stands in, which still keeps other frames' messages out (they cannot read the marker),
 * the nonce's one job, since any script of the page itself can read it anyway.
 */
function randomNonce(): string {
  const bytes = new Uint8Array(16);
  const crypto = (globalThis as { crypto?: Crypto }).crypto;
  if (crypto?.getRandomValues) crypto.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

const isToken = (value: unknown): value is AccessToken =>
  isObject(value) &&
  typeof value.access_token === 'string' &&
  value.access_token !== '' &&
  typeof value.expires_in === 'number' &&
  Number.isFinite(value.expires_in) &&
  value.expires_in > 0;

interface Waiting {
  resolve(result: unknown): void;
  reject(error: BridgeError): void;
  sid: string;
}

export function createHostKernel(options: HostKernelOptions): HostKernel {
  const { handlers = {}, transport } = options;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxInFlight = options.maxInFlight ?? 1000;
  const allowedOrigins = exactOrigins(options.allowedOrigins ?? []);
  const withNonce = options.nonce !== false;
  let nonce = withNonce ? (options.nonce as string | undefined) || randomNonce() : '';
  let sessions: string[] = [];
  let counter = 0;
  let closed = false;
  let inFlight = 0;
  let tokenCall: Promise<AccessToken> | undefined;
  /** Host-to-page requests waiting for the page's answer. */
  const waiting = new Map<string, Waiting>();
  /** Page requests the page has cancelled: their late answers are not sent. */
  const cancelled = new Set<string>();

  const reject = (reason: string, raw: unknown) => options.onRejected?.(reason, raw);

  const typed: Record<string, MethodHandler | undefined> = {
    'auth.getToken': handlers.getToken && ((params) => token(params)),
    'form.open': handlers.openForm && ((params) => openForm(params)),
  };
  const methods = { ...typed, ...options.methods };
  const has = (method: string) => Object.hasOwn(methods, method) && typeof methods[method] === 'function';

  /** Single flight: the page may ask from several widgets or retries at once; the app's server is asked once. */
  function token(params: unknown): Promise<AccessToken> {
    const reason = isObject(params) && params.reason === 'expired' ? 'expired' : 'initial';
    tokenCall ??= Promise.resolve()
      .then(() => handlers.getToken!({ reason }))
      .then((result) => {
        if (!isToken(result)) throw new BridgeError('E_INTERNAL', 'getToken must give {access_token, expires_in}');
        return { access_token: result.access_token, expires_in: result.expires_in };
      })
      .finally(() => (tokenCall = undefined));
    return tokenCall;
  }

  async function openForm(params: unknown): Promise<{ handled: boolean }> {
    if (!isObject(params) || typeof params.url !== 'string' || typeof params.shortCode !== 'string') {
      throw new BridgeError('E_DENIED', 'form.open needs {url, shortCode}');
    }
    const handled = await handlers.openForm!({ url: params.url, shortCode: params.shortCode });
    return { handled: handled === true };
  }

  function envelope(message: Partial<BridgeMessage>): string {
    return JSON.stringify({ ns: BRIDGE_NS, v: BRIDGE_VERSION, ...message, ...(withNonce && { nonce }) });
  }

  const deliver = (json: string) => options.send(receiveScript(json), json);

  function hello(request: BridgeMessage): unknown {
    sessions = [...sessions.filter((sid) => sid !== request.sid), request.sid];
    const custom = methods['bridge.hello'];
    if (custom) return custom(request.params, request);
    const capabilities = Object.keys(methods).filter((method) => method !== 'bridge.hello' && has(method));
    return {
      v: BRIDGE_VERSION,
      platform: options.platform,
      ...(options.appVersion !== undefined && { appVersion: options.appVersion }),
      capabilities,
      config: {},
      ...options.hello,
    } satisfies HelloResult;
  }

  /** Runs a page request to its answer: a result, or an error from the protocol's closed set of codes. */
  async function answer(request: BridgeMessage): Promise<Partial<BridgeMessage>> {
    const method = request.method!;
    try {
      let result: unknown;
      if (method === 'bridge.hello') result = await hello(request);
      else if (!has(method)) throw new BridgeError('E_NO_HANDLER', `the app handles no ${method}`);
      else if (inFlight >= maxInFlight) throw new BridgeError('E_UNSUPPORTED', 'too many requests at once');
      else {
        inFlight++;
        try {
          result = await settleWithin(
            Promise.resolve().then(() => methods[method]!(request.params, request)),
            method,
          );
        } finally {
          inFlight--;
        }
      }
      return { ok: true, result: result ?? null };
    } catch (error) {
      const { code, message } = toBridgeError(error);
      return { ok: false, error: { code, message } };
    }
  }

  function settleWithin<T>(work: Promise<T>, method: string): Promise<T> {
    if (timeoutMs <= 0) return work;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, fail) => {
      timer = setTimeout(
        () => fail(new BridgeError('E_TIMEOUT', `the app did not answer ${method} in time`)),
        timeoutMs,
      );
    });
    return Promise.race([work, late]).finally(() => clearTimeout(timer));
  }

  /** Why this message is dropped, or undefined when it is for this page load. */
  function refusal(message: BridgeMessage): string | undefined {
    if (withNonce && message.nonce !== nonce) return 'nonce';
    // WeChat answers the hello in the page, so its host learns sessions from the events themselves.
    if (message.kind === 'req' && message.method === 'bridge.hello') return undefined;
    if (transport === 'wechat') return undefined;
    return sessions.includes(message.sid) ? undefined : 'sid';
  }

  async function receive(raw: unknown): Promise<string | undefined> {
    if (closed) return void reject('closed', raw);
    // A native channel hands over strings; anything else is not from the page's bridge.
    if (typeof raw !== 'string') return void reject('not a string', raw);
    if (raw.length > MAX_MESSAGE_CHARS) return void reject('too large', raw);
    const message = parseMessage(raw);
    if (typeof message === 'string') return void reject(message, raw);
    const why = refusal(message);
    if (why) return void reject(why, raw);
    if (transport === 'wechat' && !sessions.includes(message.sid)) sessions = [...sessions, message.sid];
    options.onAccepted?.(message);

    switch (message.kind) {
      case 'evt':
        options.onEvent?.({ name: message.method, params: message.params } as HostEvent);
        return undefined;
      case 'cancel':
        cancelled.add(message.id);
        return undefined;
      case 'res': {
        const call = waiting.get(message.id);
        if (!call || call.sid !== message.sid) return void reject('no such request', raw);
        waiting.delete(message.id);
        if (message.ok === true) call.resolve(message.result);
        else call.reject(new BridgeError(message.error!.code, message.error!.message));
        return undefined;
      }
      case 'req': {
        const load = nonce;
        const body = await answer(message);
        // Not for a page that cancelled the call, went away (a reload) or was closed meanwhile.
        if (closed || cancelled.delete(message.id) || load !== nonce) return undefined;
        const reply = envelope({ sid: message.sid, id: message.id, kind: 'res', ...body });
        if (options.replies === 'return') return reply;
        deliver(reply);
        return undefined;
      }
    }
  }

  function request(method: string, params: unknown = {}, { sid, timeoutMs: ms = timeoutMs }: RequestOptions = {}) {
    return new Promise<unknown>((resolve, fail) => {
      const target = sid ?? sessions.at(-1);
      if (closed) return fail(new BridgeError('E_CANCELLED', 'the host is closed'));
      if (transport === 'wechat') {
        return fail(new BridgeError('E_UNSUPPORTED', 'a WeChat mini-program cannot message the web-view page'));
      }
      if (!target) return fail(new BridgeError('E_UNSUPPORTED', 'no widget page has said hello yet'));
      const id = `h${++counter}`;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const settle =
        <A>(then: (arg: A) => void) =>
        (arg: A) => {
          clearTimeout(timer);
          waiting.delete(id);
          then(arg);
        };
      waiting.set(id, { resolve: settle(resolve), reject: settle(fail), sid: target });
      if (ms > 0)
        timer = setTimeout(() => waiting.get(id)?.reject(new BridgeError('E_TIMEOUT', `${method} timed out`)), ms);
      deliver(envelope({ sid: target, id, kind: 'req', method, params }));
    });
  }

  function failAll(code: BridgeErrorCode, message: string): void {
    for (const call of [...waiting.values()]) call.reject(new BridgeError(code, message));
  }

  return {
    get nonce() {
      return nonce;
    },
    get marker() {
      const marker = { ...options.markerExtras, transport, v: BRIDGE_VERSION, ...(withNonce && { nonce }) };
      // Parsed in the page from an escaped literal, so no value can end the script it is injected in.
      return `window.__HUB_EMBED_BRIDGE__=JSON.parse(${toScriptLiteral(JSON.stringify(marker))});true;`;
    },
    get sessions() {
      return sessions;
    },
    reload({ keepNonce = false } = {}) {
      if (withNonce && !keepNonce) nonce = randomNonce();
      sessions = [];
      cancelled.clear();
      failAll('E_CANCELLED', 'the page loaded again');
    },
    receive,
    request,
    refresh: async () => {
      await request('widget.refresh');
    },
    setTags: async (tags) => {
      await request('widget.setTags', { tags: [...tags] });
    },
    closeForm: async () => {
      const result = await request('form.close');
      return isObject(result) && result.closed === true;
    },
    decideNavigation(url) {
      const decision = decideNavigation(url, allowedOrigins);
      if (decision === 'external') void Promise.resolve(handlers.openExternal?.(url)).catch(() => {});
      return decision;
    },
    close() {
      closed = true;
      failAll('E_CANCELLED', 'the host is closed');
    },
  };
}
