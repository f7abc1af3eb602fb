/** Each mock transport's side of the page's window: the globals a real host installs, and how its messages arrive. */
import { toScriptLiteral } from '../bridge/protocol.js';
import type { TransportName } from '../bridge/transports.js';

export type MockTransport =
  'react-native' | 'webkit' | 'webkit-reply' | 'android' | 'android-jsi' | 'flutter' | 'wechat' | 'parent';

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

/** The transport each mock's marker names, and its kernel speaks. */
export const TRANSPORT_OF: Record<MockTransport, TransportName> = {
  'react-native': 'react-native',
  webkit: 'webkit',
  'webkit-reply': 'webkit',
  android: 'android',
  'android-jsi': 'android',
  flutter: 'android',
  wechat: 'wechat',
  parent: 'parent',
};

/** What the transports read of the mock host's options (MockHostOptions in mock-host.ts says what each does). */
export interface TransportOptions {
  window?: Window;
  origin?: string;
  rnTarget?: 'receive' | 'window' | 'document' | 'both';
  wechatNavigate?: 'ok' | 'fail';
  marker?: boolean;
  nonce?: string;
}

/** Where the page's posts go: the mock host's side of the installed globals. */
export interface PagePosts {
  /** Every transport but webkit-reply: the post returns nothing; answers come through `toPage`. */
  post: (raw: unknown) => void;
  /** webkit-reply: the post resolves as a WKScriptMessageHandlerWithReply's replyHandler answers. */
  postWithReply: (raw: unknown) => Promise<string | null>;
  /** WeChat: receives every url passed to `wx.miniProgram.navigateTo`. */
  navigations: string[];
}

/**
 * Installs the globals `transport`'s host injects into `options.window` (default `window`). Returns how the
 * host's messages reach the page, and how to remove every global it installed.
 */
export function installTransport(
  transport: MockTransport,
  options: TransportOptions,
  { post, postWithReply, navigations }: PagePosts,
): { toPage(raw: unknown): void; remove(): void } {
  const win = (options.window ?? window) as MockedWindow;
  const origin = options.origin ?? win.location.ancestorOrigins?.[0] ?? 'https://host.example';
  const restores: Array<() => void> = [];
  let parentWindow: MessageEventSource | undefined;

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

  switch (transport) {
    case 'react-native':
      setGlobal(win, 'ReactNativeWebView', { postMessage: post });
      break;
    case 'webkit':
      setGlobal(win, 'webkit', { messageHandlers: { hubEmbed: { postMessage: post } } });
      break;
    case 'webkit-reply':
      setGlobal(win, 'webkit', { messageHandlers: { hubEmbed: { postMessage: postWithReply } } });
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
            navigations.push(url);
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
  return {
    toPage,
    remove() {
      for (const restore of restores.splice(0).reverse()) restore();
    },
  };
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
