/** How the page reaches each kind of native host, and which one this page is in. */
import type { TransportName } from './protocol.js';

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

/** Finds one kind of host on the page: the transport to it, or undefined when this page is not in one. */
export type Builder = (win: HostWindow, options: DetectOptions) => Omit<Transport, 'name'> | undefined;

export const isFn = (value: unknown): value is (...args: unknown[]) => unknown => typeof value === 'function';

/** A host object the page posts to: react-native-webview's, a WKScriptMessageHandler, an Android channel. */
interface Poster {
  postMessage(json: string): unknown;
  addEventListener?: unknown;
}

/**
 * Whether a host's object has a postMessage to call: optional chaining reads a member of whatever the
 * value is (a primitive has none).
 */
const hasPostMessage = (value: unknown): value is Poster =>
  isFn((value as { postMessage?: unknown } | undefined)?.postMessage);

/** Listens for `message` on every target; returns the undo. */
function onMessage(targets: EventTarget[], handler: (event: MessageEvent) => void): () => void {
  for (const target of targets) target.addEventListener('message', handler as EventListener);
  return () => targets.forEach((target) => target.removeEventListener('message', handler as EventListener));
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
  const ancestors = win.location.ancestorOrigins;
  const origin = ancestors ? ancestors[0] : originOf(win.document.referrer);
  return allowed.includes(origin!) ? origin : !ancestors && allowed.length === 1 ? allowed[0] : undefined;
}

/**
 * React Native, webkit and Android/Flutter differ only in where the host object lives and where its
 * messages arrive: each posts one JSON string to the object's postMessage (called as a method).
 */
const channel = (target: unknown, listen?: Transport['listen']) =>
  hasPostMessage(target) ? { post: (json: string) => target.postMessage(json), listen } : undefined;

/**
 * The transports in the order detection tries them. WeChat's is not here: only a page inside a WeChat
 * mini-program's <web-view> needs it, so it ships in its own add-on (src/bridge/wechat.ts), which plugs it
 * in with addTransport.
 */
const builders = new Map<TransportName, Builder>([
  // iOS fires the host's postMessage on window, Android on document; a message from another frame
  // has a source, a native one has none.
  [
    'react-native',
    (win) =>
      channel(win.ReactNativeWebView, (deliver) =>
        onMessage([win, win.document], (event) => {
          if (!event.source) deliver(event.data);
        }),
      ),
  ],
  ['webkit', (win) => channel(win.webkit?.messageHandlers?.hubEmbed)],
  // addWebMessageListener's object (every version) has addEventListener, for the reply proxy's messages;
  // a JavascriptInterface or a Flutter JavaScriptChannel has postMessage only: its host calls
  // __hubEmbedReceive.
  [
    'android',
    ({ hubEmbed }) =>
      channel(
        hubEmbed,
        isFn((hubEmbed as Partial<Poster> | undefined)?.addEventListener)
          ? (deliver) => onMessage([hubEmbed as Poster & EventTarget], (event) => deliver(event.data))
          : undefined,
      ),
  ],
  [
    'parent',
    (win, options) => {
      const allowed = (options.allowedParentOrigins ?? []).filter((origin) => originOf(origin) === origin);
      const target = win.parent !== win && parentOrigin(win, allowed);
      if (!target) return;
      return {
        post: (json) => win.parent.postMessage(json, target),
        listen: (deliver) =>
          onMessage([win], (event) => {
            if (event.source === win.parent && allowed.includes(event.origin)) deliver(event.data);
          }),
      };
    },
  ],
]);

/**
 * How a platform add-on plugs its transport in (src/webview/enable-wechat.ts). It is tried after the
 * built-in ones, or alone when the host's marker names it. That keeps the documented order for WeChat, the
 * only add-on: it came last but for `parent`, and a WeChat web-view is a top-level page, where `parent`
 * never matches (its window is its own parent), so the two never compete.
 */
export function addTransport(name: TransportName, builder: Builder): void {
  builders.set(name, builder);
}

/**
 * A hub-embed host on react-native-webview says, in its `injectedJavaScriptObject`, that its marker is
 * coming. On Android that object is readable by every frame (addJavascriptInterface), so it carries no
 * secret: the nonce comes only in the marker, which reaches the main frame alone, sometimes after the
 * page's first scripts. Until then the page waits rather than speak without it.
 */
export function markerComing(win: HostWindow): boolean {
  try {
    // Anything but a method that returns a JSON object's text throws here, and means no promise.
    return (
      (
        JSON.parse((win.ReactNativeWebView as { injectedObjectJson(): string }).injectedObjectJson()) as {
          hubEmbedMarker?: unknown;
        }
      ).hubEmbedMarker === true
    );
  } catch {
    return false;
  }
}

/** First match wins: the host's explicit marker, then React Native (before webkit, as RN-iOS also
 * registers a webkit handler), iOS, Android/Flutter, an allow-listed parent frame, then the transports
 * add-ons plugged in (WeChat, with hub-embed/wechat). */
export function detectTransport(
  win: HostWindow,
  options: DetectOptions & { only?: TransportName },
): { transport: Transport; nonce?: string } | undefined {
  const marker = win.__HUB_EMBED_BRIDGE__;
  // A Map takes any value as a key, so an odd marker value (or an add-on's name when the add-on is not
  // loaded) simply names no transport, and every transport is tried.
  const named = (options.only ?? marker?.transport) as TransportName;
  const nonce = typeof marker?.nonce === 'string' ? marker.nonce : undefined;
  const namedBuilder = builders.get(named);
  for (const [name, builder] of namedBuilder ? [[named, namedBuilder] as const] : builders) {
    const found = builder(win, options);
    if (found) return { transport: { name, ...found }, nonce };
  }
  return undefined;
}
