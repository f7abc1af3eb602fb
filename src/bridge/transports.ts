/** How the page reaches each kind of native host, and which one this page is in. */
import { BridgeError } from './protocol.js';

export type TransportName = 'react-native' | 'webkit' | 'android' | 'wechat' | 'parent';

/** A host that answers locally because it has no live channel back to the page (WeChat). */
export interface LocalHost {
  platform: string;
  capabilities: string[];
  request(method: string, params: any): Promise<unknown>;
}

export interface Transport {
  readonly name: TransportName;
  /** Posts one JSON string; may return a promise of the reply (WKScriptMessageHandlerWithReply). */
  post(json: string): unknown;
  /** Listens for inbound messages that do not come through `window.__hubEmbedReceive`. */
  listen?(deliver: (data: unknown) => void): () => void;
  local?: LocalHost;
}

export interface DetectOptions {
  /** Exact origins (`https://app.example`) a parent frame may have; no wildcard. */
  allowedParentOrigins?: readonly string[];
  /** WeChat mini-program page that opens a form, e.g. `/pages/hub-form/index`; unset = not allowed. */
  wechatFormPage?: string;
}

export type HostWindow = Window & Record<string, any>;

const isFn = (f: unknown): f is (...args: any[]) => any => typeof f === 'function';

function messageListener(targets: EventTarget[], handler: (e: MessageEvent) => void): () => void {
  const f = handler as EventListener;
  for (const t of targets) t.addEventListener('message', f);
  return () => {
    for (const t of targets) t.removeEventListener('message', f);
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
  const ancestors = win.location.ancestorOrigins;
  if (ancestors) return allowed.includes(ancestors[0]) ? ancestors[0] : undefined;
  const referrer = originOf(win.document.referrer);
  return allowed.includes(referrer!) ? referrer : allowed.length === 1 ? allowed[0] : undefined;
}

const builders: Record<TransportName, (win: HostWindow, options: DetectOptions) => Transport | undefined> = {
  'react-native'(win) {
    const rn = win.ReactNativeWebView;
    if (!isFn(rn?.postMessage)) return;
    return {
      name: 'react-native',
      post: (json) => rn.postMessage(json),
      // iOS fires the host's postMessage on window, Android on document; a message from another
      // frame has a source, a native one has none.
      listen: (deliver) => messageListener([win, win.document], (e) => e.source || deliver(e.data)),
    };
  },
  webkit(win) {
    const handler = win.webkit?.messageHandlers?.hubEmbed;
    if (!isFn(handler?.postMessage)) return;
    return { name: 'webkit', post: (json) => handler.postMessage(json) };
  },
  android(win) {
    // addWebMessageListener injects an object with postMessage + onmessage; a JavascriptInterface
    // or a Flutter JavaScriptChannel of the same name has postMessage only.
    const channel = win.hubEmbed;
    if (!isFn(channel?.postMessage)) return;
    return {
      name: 'android',
      post: (json) => channel.postMessage(json),
      listen(deliver) {
        const f = (e: MessageEvent) => deliver(e?.data);
        if (isFn(channel.addEventListener)) return messageListener([channel], f);
        channel.onmessage = f;
        return () => {
          if (channel.onmessage === f) channel.onmessage = null;
        };
      },
    };
  },
  wechat(win, options) {
    const mp = win.wx?.miniProgram;
    const inMiniProgram = win.__wxjs_environment === 'miniprogram' || /miniProgram/i.test(win.navigator?.userAgent);
    if (!inMiniProgram || !isFn(mp?.postMessage)) return;
    const formPage = /^\/[\w\-/]+$/.test(options.wechatFormPage ?? '') ? options.wechatFormPage : undefined;
    let batch: string[] = [];
    return {
      name: 'wechat',
      // The mini-program only reads posts at back/share/destroy, so one post per tick is plenty.
      post(json) {
        if (!batch.length)
          queueMicrotask(() => {
            mp.postMessage({ data: { hubEmbed: batch } });
            batch = [];
          });
        batch.push(json);
      },
      local: {
        platform: 'wechat',
        capabilities: formPage ? ['form.open'] : [],
        request: (method, params) =>
          method === 'form.open' && formPage
            ? new Promise((resolve, reject) =>
                mp.navigateTo({
                  url: `${formPage}?shortCode=${encodeURIComponent(params.shortCode)}&url=${encodeURIComponent(params.url)}`,
                  success: () => resolve({ handled: true }),
                  fail: (e: any) => reject(new BridgeError('E_DENIED', `${e?.errMsg}`)),
                }),
              )
            : Promise.reject(new BridgeError('E_UNSUPPORTED', `${method}: not in WeChat`)),
      },
    };
  },
  parent(win, options) {
    const allowed = (options.allowedParentOrigins ?? []).filter((o) => originOf(o) === o);
    const target = allowed.length && win.parent && win.parent !== win ? parentOrigin(win, allowed) : undefined;
    if (!target) return;
    return {
      name: 'parent',
      post: (json) => win.parent.postMessage(json, target),
      listen: (deliver) =>
        messageListener([win], (e) => {
          if (e.source === win.parent && allowed.includes(e.origin)) deliver(e.data);
        }),
    };
  },
};

/** First match wins: the host's explicit marker, then React Native (before webkit, as RN-iOS also
 * registers a webkit handler), iOS, Android/Flutter, WeChat, an allow-listed parent frame. */
export function detectTransport(
  win: HostWindow,
  options: DetectOptions & { only?: TransportName },
): { transport: Transport; nonce?: string } | undefined {
  const marker = win.__HUB_EMBED_BRIDGE__;
  const nonce = typeof marker?.nonce === 'string' ? marker.nonce : undefined;
  const order = options.only
    ? [options.only]
    : builders[marker?.transport as TransportName]
      ? [marker.transport as TransportName]
      : (Object.keys(builders) as TransportName[]);
  for (const name of order) {
    const transport = builders[name](win, options);
    if (transport) return { transport, nonce };
  }
  return undefined;
}
