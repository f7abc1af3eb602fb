/**
 * The WeChat mini-program transport: a page inside a mini-program's <web-view>. The mini-program cannot
 * message its web-view, so this transport answers the page's requests itself, as a host would, and batches
 * the page's events for the mini-program. Only such a page needs it, so it is an add-on
 * (src/webview/enable-wechat.ts plugs it in) and not part of the WebView bundle.
 */
import type { PageToHostRequests } from './methods.js';
import type { BridgeMessage } from './protocol.js';
import type { Builder } from './transports.js';
import { BridgeError } from './wechat-imports.js';

/** How the JS-SDK's calls fail: `{errMsg}`, a text. */
interface WeChatError {
  errMsg?: string;
}

/** What the page asks of a host that opens a form. */
type FormOpen = PageToHostRequests['form.open']['params'];

/** The WeChat JS-SDK's `wx.miniProgram`, of which the bridge uses two calls. */
interface MiniProgram {
  postMessage(message: { data: { hubEmbed: string[] } }): void;
  navigateTo(options: { url: string; success(): void; fail(error: unknown): void }): void;
}

// The JS-SDK's miniProgram has both calls; a page that fakes one without navigateTo fails its form.open.
const isMiniProgram = (value: unknown): value is MiniProgram =>
  typeof (value as Partial<MiniProgram> | undefined)?.postMessage === 'function';

export const wechat: Builder = (win, options) => {
  const page = options.wechatFormPage ?? win.__HUB_EMBED_BRIDGE__?.wechatFormPage;
  const mp = win.wx?.miniProgram;
  const inMiniProgram = win.__wxjs_environment === 'miniprogram' || /miniProgram/i.test(win.navigator?.userAgent);
  if (!inMiniProgram || !isMiniProgram(mp)) return;
  const formPage = /^\/[\w\-/]+$/.test(String(page)) && String(page);
  const batch: string[] = [];
  return {
    // The mini-program cannot message the page, so requests are answered here, as its host would answer
    // them; events are batched: the mini-program reads posts only at back/share/destroy.
    post(json) {
      // The page's own message (envelope() made it): its shape is known.
      const message = JSON.parse(json) as BridgeMessage;
      if (message.kind === 'evt') {
        batch.push(json);
        // The first event since the last post schedules the next, for all the events of this task.
        if (batch.length === 1) queueMicrotask(() => mp.postMessage({ data: { hubEmbed: batch.splice(0) } }));
      }
      if (message.kind !== 'req') return undefined;
      return new Promise((resolve, reject) => {
        if (message.method === 'bridge.hello') {
          resolve({ v: 1, platform: 'wechat', capabilities: formPage ? ['form.open'] : [] });
          return;
        }
        if (message.method !== 'form.open' || !formPage)
          throw new BridgeError('E_UNSUPPORTED', `${String(message.method)}: not in WeChat`);
        mp.navigateTo({
          // The page's own request: its params have form.open's type.
          url: `${formPage}?shortCode=${encodeURIComponent((message.params as FormOpen).shortCode)}&url=${encodeURIComponent((message.params as FormOpen).url)}`,
          success: () => resolve({ handled: true }),
          fail: (error) => reject(new BridgeError('E_DENIED', String((error as WeChatError | undefined)?.errMsg))),
        });
      }).then((result) => JSON.stringify({ ...message, kind: 'res', ok: true, result }));
    },
  };
};
