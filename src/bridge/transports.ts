/** How the page reaches each kind of native host, and which one this page is in. */
import { BridgeError, isObject, parseMessage, type TransportName } from './protocol.js';

export type { TransportName };

export interface Transport {
  readonly name: TransportName;
  /**
   * Posts one JSON string. May return a promise of the reply's JSON string: a WKScriptMessageHandlerWithReply
   * answers that way, and so does a transport that answers for its host (WeChat). A rejection fails the call.
   */
  post(json: string): unknown;
  /** Listens for inbound messages that do not come through `window.__hubEmbedReceive`. */
  listen?(deliver: (data: unknown) => void): () => void;
}

export interface DetectOptions {
  /** Exact origins (`https://app.example`) a parent frame may have; no wildcard. */
  allowedParentOrigins?: readonly string[];
  /**
   * WeChat mini-program page that opens a form, e.g. `/pages/hub-form/index`; unset = not allowed. Default:
   * the marker's `wechatFormPage`, which is how a page with `<hub-embed bridge="auto">` allows it.
   */
  wechatFormPage?: string;
}

/**
 * What native hosts may put on the page's window, as the bridge reads it. Every value is unchecked until
 * used: each leaf is `unknown`, and optional chaining reads through whatever an intermediate holds.
 */
export interface HostGlobals {
  ReactNativeWebView?: { injectedObjectJson?: unknown };
  webkit?: { messageHandlers?: { hubEmbed?: unknown } };
  hubEmbed?: unknown;
  wx?: { miniProgram?: unknown };
  __wxjs_environment?: unknown;
  __HUB_EMBED_BRIDGE__?: { transport?: unknown; nonce?: unknown; wechatFormPage?: unknown };
  __hubEmbedReceive?: unknown;
}

export type HostWindow = Window & HostGlobals;

type Builder = (win: HostWindow, options: DetectOptions) => Omit<Transport, 'name'> | undefined;

export const isFn = (value: unknown): value is (...args: unknown[]) => unknown => typeof value === 'function';

/** Whether a host object delivers messages as events, as an addWebMessageListener object does. */
const isEventTarget = (value: unknown): value is EventTarget => isObject(value) && isFn(value.addEventListener);

/** A host object the page posts to: react-native-webview's, a WKScriptMessageHandler, an Android channel, `wx.miniProgram`. */
interface Poster {
  postMessage(message: unknown): unknown;
}

/** Whether a host's object has a postMessage to call. */
const isPoster = (value: unknown): value is Poster => isObject(value) && isFn(value.postMessage);

/** The WeChat JS-SDK's `wx.miniProgram`, of which the bridge uses two calls. */
interface MiniProgram {
  postMessage(message: { data: { hubEmbed: string[] } }): void;
  navigateTo(options: { url: string; success(): void; fail(error: unknown): void }): void;
}

/** Whether `wx.miniProgram` is the JS-SDK's: it has both calls the bridge makes. */
const isMiniProgram = (value: unknown): value is MiniProgram =>
  isObject(value) && isFn(value.postMessage) && isFn(value.navigateTo);

/** Listens for `message` on every target; returns the undo. */
function onMessage(targets: EventTarget[], handler: (event: MessageEvent) => void): () => void {
  const listener = (event: Event) => {
    if (event instanceof MessageEvent) handler(event);
  };
  for (const target of targets) target.addEventListener('message', listener);
  return () => {
    for (const target of targets) target.removeEventListener('message', listener);
  };
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

// ancestorOrigins is the browser's own record of the parent's origin, so it decides alone where
// available; elsewhere the referrer only chooses among allowed origins. Never "*": a message sent to
// an origin the parent does not have is dropped by the browser, not leaked.
function parentOrigin(win: HostWindow, allowed: readonly string[]): string | undefined {
  // Firefox has no ancestorOrigins, whatever the DOM library's type says.
  const ancestors: DOMStringList | undefined = win.location.ancestorOrigins;
  const origin = ancestors ? ancestors[0] : originOf(win.document.referrer);
  if (origin !== undefined && allowed.includes(origin)) return origin;
  // No record of the parent's origin and a single allowed one: post to it; if the parent is elsewhere,
  // the browser drops the message.
  return !ancestors && allowed.length === 1 ? allowed[0] : undefined;
}

/**
 * React Native, webkit and Android/Flutter differ only in where the host object lives and where its
 * messages arrive: each posts one JSON string to the object's postMessage (called as a method).
 */
function channel(target: unknown, listen?: Transport['listen']): Omit<Transport, 'name'> | undefined {
  if (!isPoster(target)) return undefined;
  return { post: (json) => target.postMessage(json), listen };
}

const builders = {
  // iOS fires the host's postMessage on window, Android on document; a message from another frame
  // has a source, a native one has none.
  'react-native': (win) =>
    channel(win.ReactNativeWebView, (deliver) =>
      onMessage([win, win.document], (event) => {
        if (!event.source) deliver(event.data);
      }),
    ),
  webkit: (win) => channel(win.webkit?.messageHandlers?.hubEmbed),
  // addWebMessageListener's object (every version) has addEventListener, for the reply proxy's messages;
  // a JavascriptInterface or a Flutter JavaScriptChannel has postMessage only: its host calls
  // __hubEmbedReceive.
  android: (win) => {
    const object = win.hubEmbed;
    const listen: Transport['listen'] = isEventTarget(object)
      ? (deliver) =>
          onMessage([object], (event) => {
            deliver(event.data);
          })
      : undefined;
    return channel(object, listen);
  },
  wechat(win, options) {
    const miniProgram = win.wx?.miniProgram;
    const inMiniProgram = win.__wxjs_environment === 'miniprogram' || /miniProgram/i.test(win.navigator.userAgent);
    if (!inMiniProgram || !isMiniProgram(miniProgram)) return undefined;
    const page = options.wechatFormPage ?? win.__HUB_EMBED_BRIDGE__?.wechatFormPage;
    const formPage = typeof page === 'string' && /^\/[\w\-/]+$/.test(page) ? page : undefined;
    /** Events posted in this tick, sent together: the mini-program reads posts only at back/share/destroy. */
    const batch: string[] = [];
    const sendBatch = () => {
      miniProgram.postMessage({ data: { hubEmbed: batch.splice(0) } });
    };
    return {
      // The mini-program cannot message the page, so requests are answered here, as its host would answer
      // them; events are batched.
      post(json) {
        const message = parseMessage(json);
        if (typeof message === 'string') throw new BridgeError('E_INTERNAL', message);
        if (message.kind === 'evt') {
          if (batch.length === 0) queueMicrotask(sendBatch);
          batch.push(json);
        }
        if (message.kind !== 'req') return undefined;
        return new Promise((resolve, reject) => {
          const { method, params } = message;
          if (method === 'bridge.hello') {
            resolve({ v: 1, platform: 'wechat', capabilities: formPage ? ['form.open'] : [] });
          } else if (method !== 'form.open' || !formPage) {
            throw new BridgeError('E_UNSUPPORTED', `${String(method)}: not in WeChat`);
          } else {
            // The page's own form.open: {shortCode, url}, both strings.
            const { shortCode, url } = isObject(params) ? params : {};
            miniProgram.navigateTo({
              url: `${formPage}?shortCode=${encodeURIComponent(String(shortCode))}&url=${encodeURIComponent(String(url))}`,
              success: () => {
                resolve({ handled: true });
              },
              fail: (error) => {
                reject(new BridgeError('E_DENIED', String(isObject(error) ? error.errMsg : undefined)));
              },
            });
          }
        }).then((result) => JSON.stringify({ ...message, kind: 'res', ok: true, result }));
      },
    };
  },
  parent(win, options) {
    const allowed = (options.allowedParentOrigins ?? []).filter((o) => originOf(o) === o);
    const target = win.parent !== win && parentOrigin(win, allowed);
    if (!target) return undefined;
    return {
      post: (json) => win.parent.postMessage(json, target),
      listen: (deliver) =>
        onMessage([win], (event) => {
          if (event.source === win.parent && allowed.includes(event.origin)) deliver(event.data);
        }),
    };
  },
} satisfies Record<TransportName, Builder>;

const isTransportName = (value: unknown): value is TransportName =>
  typeof value === 'string' && Object.hasOwn(builders, value);

/** The order in which the page looks for a host when no marker names one: the order of `builders`. */
const DETECTION_ORDER = Object.keys(builders).filter(isTransportName);

/**
 * react-native-webview's `injectedJavaScriptObject` is there before the page's first script on Android,
 * where the injected marker may come too late: its `hubEmbedNonce` is the nonce's early carrier.
 */
function earlyNonce(win: HostWindow): unknown {
  const read = win.ReactNativeWebView?.injectedObjectJson;
  if (!isFn(read)) return undefined;
  try {
    // Called as a method of its object; anything but a JSON object's text means no early nonce.
    const injected: unknown = JSON.parse(String(read.call(win.ReactNativeWebView)));
    return isObject(injected) ? injected.hubEmbedNonce : undefined;
  } catch {
    return undefined;
  }
}

/** First match wins: the host's explicit marker, then React Native (before webkit, as RN-iOS also
 * registers a webkit handler), iOS, Android/Flutter, WeChat, an allow-listed parent frame. */
export function detectTransport(
  win: HostWindow,
  options: DetectOptions & { only?: TransportName },
): { transport: Transport; nonce?: string } | undefined {
  const marker = win.__HUB_EMBED_BRIDGE__;
  const named = options.only ?? marker?.transport;
  const nonce = [marker?.nonce, earlyNonce(win)].find((value) => typeof value === 'string');
  // A marker that names no transport (or an odd value) leaves the choice to detection.
  for (const name of isTransportName(named) ? [named] : DETECTION_ORDER) {
    const found = builders[name](win, options);
    if (found) return { transport: { name, ...found }, nonce };
  }
  return undefined;
}
