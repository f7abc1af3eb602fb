/** The host kernel's types: what the app supplies (options, handlers, methods) and the kernel it gets back. */
import type { AccessToken } from '../core/types.js';
import type { TokenReason } from '../core/token-source.js';
import type { HelloResult, HostToPageRequests, PageToHostEvents } from '../bridge/methods.js';
import type { BridgeMessage } from '../bridge/protocol.js';
import type { TransportName } from '../bridge/protocol.js';
import type { NavigationDecision } from './navigation.js';

/**
 * What the app supplies. `bridge.hello` announces exactly these, so the page asks for nothing else. They are
 * read at each hello and each request: a handler set later on this object is announced in the next hello.
 */
export interface HostHandlers {
  /**
   * The token for the signed-in user, from the app's own server. Concurrent requests share one call.
   * `reason` is core's TokenSource vocabulary: `initial`; `expiring` (the token is about to expire);
   * `unauthorized` (the service refused `previous` early: get a new one, never the cached one).
   */
  getToken?(request: TokenRequest): AccessToken | Promise<AccessToken>;
  /** Resolve true when the app opened the form itself (a native screen); the page then opens nothing. */
  openForm?(request: { url: string; shortCode: string }): boolean | Promise<boolean>;
  /** A URL that must leave the WebView: the system browser, a Custom Tab, an SFSafariViewController. */
  openExternal?(url: string): void | Promise<void>;
}

/** What the page says about the token it needs (the bridge's `auth.getToken` params, checked). */
export interface TokenRequest {
  reason: TokenReason;
  /** The token being replaced, with `expiring` and `unauthorized`: pass it to your server, which drops it. */
  previous?: string;
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
  /** The page transport the marker names (docs/webview.md, "Transport detection"). */
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
  /**
   * How long the page has to answer a request (counted from the call, so a request made before the page
   * said hello waits for it within this time), and a handler to settle; default 10 s. 0: no limit.
   */
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
  /**
   * The least time between two URLs handed to `openExternal` (default 1,000 ms); one sooner is blocked
   * and reported (`external open limited`). No WebView says whether a user tapped, so this is what
   * keeps a page from sending the user out of the app in a loop.
   */
  externalIntervalMs?: number;
}

export interface NavigationOptions {
  /**
   * false for a frame inside the page (iOS asks about those): web pages load there, anything else is
   * blocked, and nothing is ever handed to openExternal from a sub-frame. Default true.
   */
  isTopFrame?: boolean;
  /** A `window.open` or `target=_blank`: never a second WebView, so even allowed origins go out. */
  newWindow?: boolean;
}

export interface PageRequestOptions {
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
   * list, and requests to the old page fail E_CANCELLED (requests made before any hello keep waiting for
   * the new page's). `nonce`: the one this load's marker carries, for a WebView that fixed its injected
   * scripts before the load started (react-native-webview); `keepNonce` keeps the current one.
   */
  reload(options?: { keepNonce?: boolean; nonce?: string }): void;
  /**
   * The origins that may load inside from now on (`decideNavigation`), e.g. from an app's remote config.
   * The page's sessions and nonce stay. Anything but exact http(s) origins is a TypeError, and changes nothing.
   */
  setAllowedOrigins(origins: readonly string[]): void;
  /**
   * Every raw value the page posted. With `replies: 'return'` it resolves with the reply's JSON for a
   * request (undefined otherwise); with `replies: 'script'` the reply goes through `send`.
   */
  receive(raw: unknown): Promise<string | undefined>;
  /**
   * A request to the page (`widget.refresh`, `widget.setTags`, `form.close`, or any method it handles).
   * Made before any page said hello, it waits for the first one that does, within the same timeout.
   */
  request<M extends keyof HostToPageRequests>(
    method: M,
    params: HostToPageRequests[M]['params'],
    options?: PageRequestOptions,
  ): Promise<HostToPageRequests[M]['result']>;
  request(method: string, params?: unknown, options?: PageRequestOptions): Promise<unknown>;
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
  decideNavigation(url: string, options?: NavigationOptions): NavigationDecision;
  /** Ends everything: pending requests fail E_CANCELLED, later messages are dropped. */
  close(): void;
}
