/** How the page reaches each kind of native host, and which one this page is in. */
import { BridgeError } from './protocol.js';

export type TransportName = 'react-native' | 'webkit' | 'android' | 'wechat' | 'parent';

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

export type HostWindow = Window & Record<string, any>;

type Builder = (win: HostWindow, options: DetectOptions) => Omit<Transport, 'name'> | undefined;

export const isFn = (f: unknown): f is (...args: any[]) => any => typeof f === 'function';

/** Listens for `message` on every target; returns the undo. */
function onMessage(targets: any[], handler: (e: MessageEvent) => void): () => void {
  for (const t of targets) t.addEventListener('message', handler);
  return () => targets.forEach((t) => t.removeEventListener('message', handler));
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
const channel = (target: any, listen?: Transport['listen']) =>
  isFn(target?.postMessage) ? { post: (json: string) => target.postMessage(json), listen } : undefined;

const builders: Record<TransportName, Builder> = {
  // iOS fires the host's postMessage on window, Android on document; a message from another frame
  // has a source, a native one has none.
  'react-native': (win) =>
    channel(win.ReactNativeWebView, (deliver) => onMessage([win, win.document], (e) => e.source || deliver(e.data))),
  webkit: (win) => channel(win.webkit?.messageHandlers?.hubEmbed),
  // addWebMessageListener's object (every version) has addEventListener, for the reply proxy's messages;
  // a JavascriptInterface or a Flutter JavaScriptChannel has postMessage only: its host calls
  // __hubEmbedReceive.
  android: ({ hubEmbed: c }) =>
    channel(c, isFn(c?.addEventListener) ? (deliver) => onMessage([c], (e) => deliver(e.data)) : undefined),
  wechat(win, { wechatFormPage: page = win.__HUB_EMBED_BRIDGE__?.wechatFormPage }) {
    const mp = win.wx?.miniProgram;
    const inMiniProgram = win.__wxjs_environment === 'miniprogram' || /miniProgram/i.test(win.navigator?.userAgent);
    if (!inMiniProgram || !isFn(mp?.postMessage)) return;
    const formPage = /^\/[\w\-/]+$/.test(String(page)) && page;
    const batch: string[] = [];
    return {
      // The mini-program cannot message the page, so requests are answered here, as its host would answer
      // them; events are batched: the mini-program reads posts only at back/share/destroy.
      post(json) {
        const m = JSON.parse(json);
        if (m.kind === 'evt' && batch.push(json) === 1)
          queueMicrotask(() => mp.postMessage({ data: { hubEmbed: batch.splice(0) } }));
        if (m.kind === 'req')
          return new Promise((resolve, reject) => {
            if (m.method === 'bridge.hello')
              return resolve({ v: 1, platform: 'wechat', capabilities: formPage ? ['form.open'] : [] });
            if (m.method !== 'form.open' || !formPage)
              throw new BridgeError('E_UNSUPPORTED', `${m.method}: not in WeChat`);
            mp.navigateTo({
              url: `${formPage}?shortCode=${encodeURIComponent(m.params.shortCode)}&url=${encodeURIComponent(m.params.url)}`,
              success: () => resolve({ handled: true }),
              fail: (e: any) => reject(new BridgeError('E_DENIED', `${e?.errMsg}`)),
            });
          }).then((result) => JSON.stringify({ ...m, kind: 'res', ok: true, result }));
      },
    };
  },
  parent(win, options) {
    const allowed = (options.allowedParentOrigins ?? []).filter((o) => originOf(o) === o);
    const target = win.parent !== win && parentOrigin(win, allowed);
    if (!target) return;
    return {
      post: (json) => win.parent.postMessage(json, target),
      listen: (deliver) =>
        onMessage([win], (e) => e.source === win.parent && allowed.includes(e.origin) && deliver(e.data)),
    };
  },
};

/**
 * react-native-webview's `injectedJavaScriptObject` is there before the page's first script on Android,
 * where the injected marker may come too late: its `hubEmbedNonce` is the nonce's early carrier.
 */
function earlyNonce(win: HostWindow): unknown {
  try {
    return JSON.parse(win.ReactNativeWebView.injectedObjectJson()).hubEmbedNonce;
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
  const nonce = [marker?.nonce, earlyNonce(win)].find((value) => typeof value == 'string');
  for (const name of (Object.hasOwn(builders, named) ? [named] : Object.keys(builders)) as TransportName[]) {
    const found = builders[name](win, options);
    if (found) return { transport: { name, ...found }, nonce };
  }
  return undefined;
}
