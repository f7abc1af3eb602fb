/**
 * react-native-webview's WebView, played against a real Chromium page as its source really behaves
 * (read from node_modules/react-native-webview: src/WebView{Shared,.android,.ios}.tsx,
 * android/…/RNCWebView{,Client,ChromeClient}.java, apple/RNCWebViewImpl.m), on either platform
 * (`useBrowser(browser, {platform})`), as 13.x before 13.13.1 behaves or as 16.x does
 * (`useBrowser(browser, {version: 16})`, or HUB_RN_WEBVIEW=16 for a whole run; 13 by default), or as 14 does
 * (HUB_RN_WEBVIEW=14: Expo SDK 58's 14.0.1, below). This list is
 * 13.9.1's; what 16 does otherwise follows it.
 *
 * - `onMessage`'s `nativeEvent.url` is the WebView's top-level URL, whichever frame posted (Android
 *   `webView.getUrl()`, iOS `_webView.URL` in baseEvent): it never says who spoke.
 * - Android: `ReactNativeWebView` is an addJavascriptInterface object, so every frame, of any origin, has
 *   its `postMessage` and its `injectedObjectJson()` (the `injectedJavaScriptObject`).
 *   `injectedJavaScriptBeforeContentLoaded` is an evaluateJavascript in onPageStarted: main frame only,
 *   and with `lateInjection` after the page's first scripts, as it may come on a device. The
 *   …ForMainFrameOnly flags are stored and never read.
 * - iOS: `window.webkit.messageHandlers.ReactNativeWebView` is in every frame (a WKScriptMessageHandler
 *   is); the `ReactNativeWebView.postMessage` wrapper and `injectedObjectJson` are user scripts for the
 *   main frame only; `injectedJavaScriptBeforeContentLoaded` runs at document start in the main frame, or
 *   in every frame with `injectedJavaScriptBeforeContentLoadedForMainFrameOnly: false`.
 * - Navigations: the JS wrapper (WebViewShared.tsx createOnShouldStartLoadWithRequest) first checks the
 *   URL's origin against `originWhitelist` (default `http://*`, `https://*`, plus about:blank); a URL
 *   that fails goes straight to `Linking.openURL` and the app's handler is never asked. Then
 *   `onShouldStartLoadWithRequest({url, isTopFrame, navigationType})`, false stops it. iOS asks about
 *   sub-frame loads too (`isTopFrame: false`); Android asks only about the top frame (its event always
 *   says `isTopFrame: true`), so sub-frames load unasked. Other schemes (tel:, intent:) are asked the
 *   same way (Chromium's frameRequestedNavigation); they never load here, as on a device.
 * - `window.open` of a new window and `target=_blank` go to `onOpenWindow({nativeEvent: {targetUrl}})` and open
 *   nothing; `window.open(url, '_top')` navigates the top frame, asked about as any navigation.
 * - Injected scripts are the props' at each top-frame load start, as both platforms take them (Android's
 *   onPageStarted evaluates the current `injectedJavaScriptBeforeContentLoaded`; iOS's setter re-makes the
 *   WKUserScripts, which the next document gets): a prop changed after mount reaches the next load, not the
 *   page already shown. Here each top-frame load, `reload()` included, installs the props' script as it
 *   starts (CDP Page.addScriptToEvaluateOnNewDocument, which runs after and undoes every earlier load's)
 *   before its document is made, so a load runs what the props said when it started, never an earlier value.
 * - `onLoadStart` as a top-frame load is allowed (`loading: true`), and on Android also for a same-document
 *   navigation of a loaded page (doUpdateVisitedHistory: pushState, a #hash), with `loading: false`;
 *   `ref.injectJavaScript(script)` and `ref.reload()` act on the main frame.
 * - `terminate()` kills the content process: the page goes blank, and the app hears
 *   `onRenderProcessGone({nativeEvent: {didCrash}})` on Android, `onContentProcessDidTerminate` on iOS.
 *
 * react-native-webview 16.0.0 (read from its repository, v13.9.1..v16.0.0): 14 drops Android before 7, 15
 * and 16 drop the old architecture (16 runs on the New Architecture only); the JS wrapper's navigation,
 * window and load logic is 13's. What a page and the app can tell apart came earlier, in 13.13.1 ("Sending
 * correct url in onMessage callback", #3609), and 16 keeps it:
 * - `onMessage`'s `nativeEvent.url` names the frame that posted. iOS: that frame's request URL
 *   (`message.frameInfo.request.URL`). Android: that frame's origin, `https://host[:port]` without a path
 *   (`WebViewCompat.addWebMessageListener`'s `sourceOrigin`; a System WebView without WEB_MESSAGE_LISTENER
 *   falls back to 13's interface and the top-level URL, which this stand-in does not play).
 * - Android: `ReactNativeWebView` is the web message listener's object, in every frame of any origin (the
 *   allowed origin rule is `*`) with `postMessage(string)` alone. `injectedObjectJson()` is defined by an
 *   evaluateJavascript in the main frame only, right after `injectedJavaScriptBeforeContentLoaded` (so, with
 *   `lateInjection`, after the page's first scripts too): no sub-frame reads the injected object any more.
 * - `injectedJavaScriptBeforeContentLoadedForMainFrameOnly` defaults to true in the native component's spec
 *   (13's New Architecture spec left it false): unset, iOS injects into the main frame only on both.
 *
 * react-native-webview 14.0.1 (read from its package beside 16.0.0's: src/, android/…/RNCWebView{,Client}.java,
 * apple/RNCWebViewImpl.m) already behaves as 16 in all of the above: the same JS wrapper (WebViewShared.tsx is
 * equal), the same web message listener and main-frame `injectedObjectJson`, the same spec defaults. What 16
 * changed since is out of a page's and the app's sight: 14 still runs on the old architecture too, its
 * Android events carry no surface id, and 16 drops `decelerationRate` on Android. So 14 plays 16's model and
 * differs in the version it reports (test/native-hosts/react-native/aliases.mjs), which `<HubEmbedView>` reads.
 */
import { Component, createElement } from 'react';
import type { Browser, CDPSession, Frame, Page } from 'playwright-core';
import { Linking, Platform } from './react-native.js';

type Platform = 'android' | 'ios';
/**
 * The react-native-webview whose behaviour is played: 13 (13.8 to 13.13.0), or 14 and 16 (13.13.1 to 16.x),
 * which behave alike here (above).
 */
export type WebViewVersion = 13 | 14 | 16;
interface NativeEvent<T> {
  nativeEvent: T;
}
interface LoadRequest {
  url: string;
  isTopFrame: boolean;
  navigationType: string;
}

interface WebViewProps {
  source: { uri: string };
  originWhitelist?: readonly string[];
  injectedJavaScriptBeforeContentLoaded?: string;
  injectedJavaScriptBeforeContentLoadedForMainFrameOnly?: boolean;
  injectedJavaScriptObject?: object;
  onMessage?: (event: NativeEvent<{ data: string; url: string }>) => void;
  onShouldStartLoadWithRequest?: (request: LoadRequest) => boolean;
  onOpenWindow?: (event: NativeEvent<{ targetUrl: string }>) => void;
  onLoadStart?: (event: NativeEvent<{ url: string; loading: boolean }>) => void;
  onLoad?: (event: NativeEvent<{ url: string }>) => void;
  onLoadEnd?: (event: NativeEvent<{ url: string }>) => void;
  onRenderProcessGone?: (event: NativeEvent<{ didCrash: boolean; url: string }>) => void;
  onContentProcessDidTerminate?: (event: NativeEvent<{ url: string }>) => void;
  onHttpError?: (event: NativeEvent<{ url: string; statusCode: number; description: string }>) => void;
  [key: string]: unknown;
}

let browser: Browser | undefined;
let platform: Platform = 'android';
/** Android's order: the page's first scripts run before injectedJavaScriptBeforeContentLoaded. */
let lateInjection = false;
/** The version a run plays unless useBrowser names one: HUB_RN_WEBVIEW=14 or 16, or 13. */
function runVersion(): WebViewVersion {
  const named = process.env.HUB_RN_WEBVIEW ?? '13';
  if (!['13', '14', '16'].includes(named)) throw new Error(`HUB_RN_WEBVIEW: 13, 14 or 16, not '${named}'`);
  return Number(named) as WebViewVersion;
}
/** The version played now (tests that expect what differs between versions read it). */
export let webViewVersion: WebViewVersion = runVersion();
/** Every WebView mounted, oldest first. */
export const webViews: WebView[] = [];

/**
 * Settles once every view has set up its page (or closed it, unmounted meanwhile) and every unmounted
 * view has closed it: call it before the browser closes, which would otherwise meet those calls under way.
 */
export async function viewsSettled(): Promise<void> {
  await Promise.allSettled(webViews.flatMap((view) => [view.opened, view.closing]));
}

export function useBrowser(
  next: Browser,
  options: { lateInjection?: boolean; platform?: Platform; version?: WebViewVersion } = {},
): void {
  browser = next;
  platform = options.platform ?? 'android';
  Platform.OS = platform;
  lateInjection = options.lateInjection ?? false;
  webViewVersion = options.version ?? runVersion();
  webViews.length = 0;
}

// WebViewShared.tsx, as written there.
const DEFAULT_ORIGIN_WHITELIST = ['http://*', 'https://*'];
const extractOrigin = (url: string): string => /^[A-Za-z][A-Za-z0-9+\-.]+:(\/\/)?[^/]*/.exec(url)?.[0] ?? '';
const escapeRegExp = (text: string) => text.replace(/[|\\{}()[\]^$+*?.]/g, '\\$&').replace(/-/g, '\\x2d');
const passesWhitelist = (whitelist: readonly string[], url: string) =>
  ['about:blank', ...whitelist]
    .map((entry) => `^${escapeRegExp(entry).replace(/\\\*/g, '.*')}`)
    .some((pattern) => new RegExp(pattern).test(extractOrigin(url)));

/** The page side of the native objects, per platform, installed in every frame before its scripts. */
function nativeObjects(injectedObject: string): string {
  // A new window only: `_top`, `_self` and `_parent` navigate a frame that is there (Android's onCreateWindow and
  // iOS's createWebViewWith are asked about new windows alone).
  const openWindow = `window.open = (function (open) { return function (url, target) {
      if (/^_(top|self|parent)$/.test(String(target))) return open.apply(window, arguments);
      window.__rnOpenWindow(new URL(String(url), location.href).href); return null;
    }; })(window.open);`;
  if (platform === 'android' && webViewVersion >= 14) {
    // addWebMessageListener with the origin rule '*': an object in every frame, of any origin, that takes
    // strings, and whose messages carry the frame's origin as the browser knows it. The binding is taken
    // out of the page's reach, so no script can post with another origin than its frame's.
    return `(function (post, origin) {
      delete window.__rnPostMessage;
      window.ReactNativeWebView = {
        postMessage: function (data) {
          if (typeof data !== 'string') throw new TypeError('ReactNativeWebView.postMessage: a string, please');
          post(data, origin);
        },
      };
    })(window.__rnPostMessage, self.origin);${openWindow}`;
  }
  if (platform === 'android') {
    // addJavascriptInterface: the same object in every frame, of any origin.
    return `window.ReactNativeWebView = {
      postMessage: function (data) { window.__rnPostMessage(String(data)); },
      injectedObjectJson: function () { return ${JSON.stringify(injectedObject)}; },
    };${openWindow}`;
  }
  // The message handler is in every frame; the wrapper and injectedObjectJson are main-frame user scripts.
  return `window.webkit = { messageHandlers: { ReactNativeWebView: {
      postMessage: function (body) { window.__rnPostMessage(typeof body === 'string' ? body : String(body)); },
    } } };
    if (window === window.top) {
      window.ReactNativeWebView = window.ReactNativeWebView || {};
      window.ReactNativeWebView.postMessage = function (data) { window.webkit.messageHandlers.ReactNativeWebView.postMessage(String(data)); };
      window.ReactNativeWebView.injectedObjectJson = function () { return ${JSON.stringify(injectedObject)}; };
    }${openWindow}`;
}

/**
 * `onMessage`'s `nativeEvent.url` for a message that `frame` posted; `origin` is the posting frame's
 * security origin as its native object took it at document start (Android 16 only).
 */
function messageUrl(frame: Frame, top: Frame, origin: string | undefined): string {
  // 13: the top-level URL on both platforms, whichever frame posted.
  if (webViewVersion < 14) return top.url();
  // 16 on iOS: the posting frame's request URL (about:srcdoc for a srcdoc frame).
  if (platform === 'ios') return frame.url();
  // 16 on Android: the posting frame's origin (a srcdoc frame has its parent's).
  return origin ?? 'null';
}

export class WebView extends Component<WebViewProps> {
  page?: Page;
  /** Settles once the first load of `source` has committed. */
  loaded: Promise<void>;
  /** Every URL `onShouldStartLoadWithRequest` was asked about, with its frame and answer. */
  readonly asked: Array<LoadRequest & { allowed: boolean }> = [];
  private markLoaded!: () => void;
  private closed = false;
  /** A top-frame document is loading (asked, not yet loaded): its navigation events are not same-document ones. */
  private loadingDocument = false;
  private terminated = false;

  constructor(props: WebViewProps) {
    super(props);
    this.loaded = new Promise((resolve) => (this.markLoaded = resolve));
  }

  /** open(), settled: the page set up and loading, or closed because the view was unmounted meanwhile. */
  opened?: Promise<void>;
  /** The page's close, once the view is unmounted. */
  closing?: Promise<void>;
  /** open() has made its last call to set the page up: from here the page may be closed. */
  private setUp = false;

  override componentDidMount(): void {
    webViews.push(this);
    // A view unmounted while its page was still being made (a Modal closed at once) just ends.
    this.opened = this.open().catch((error: Error) => {
      if (!this.closed) throw error;
    });
  }

  private cdp?: CDPSession;

  /**
   * At a top-frame load start, before its request goes on: its document runs the marker of the props as they
   * are now, and no earlier one. The command is sent, not awaited: Chromium takes the script for the
   * navigation under way but answers only once that navigation commits, which waits for this request. Nor
   * does removing an earlier load's script by its id work while a navigation is under way (Chromium answers
   * "Script not found"), so each new script, which runs after every earlier one, first undoes what they set.
   */
  private injectFromProps(): void {
    const { injectedJavaScriptBeforeContentLoaded: marker = '' } = this.props;
    const everyFrame = platform === 'ios' && this.props.injectedJavaScriptBeforeContentLoadedForMainFrameOnly === false;
    // 16 on Android: the injected object follows the marker, in the main frame (RNCWebView.injectJavascriptObject).
    const injectedObject =
      platform === 'android' && webViewVersion >= 14
        ? `if (window === window.top) { window.ReactNativeWebView = window.ReactNativeWebView || {};
            window.ReactNativeWebView.injectedObjectJson = function () {
              return ${JSON.stringify(JSON.stringify(this.props.injectedJavaScriptObject ?? null))}; }; }`
        : '';
    const script = `delete window.__HUB_EMBED_BRIDGE__; ${everyFrame ? marker : `if (window === window.top) { ${marker} }`} ${injectedObject}`;
    const source = lateInjection ? `addEventListener('load', function () { ${script} });` : script;
    void this.cdp!.send('Page.addScriptToEvaluateOnNewDocument', { source }).catch((error: Error) => {
      if (!this.closed) console.error('injected script:', error.message);
    });
  }

  override componentWillUnmount(): void {
    this.closed = true;
    // Not while open() is still setting the page up: a binding or an init script under way would meet a
    // page the client has disposed, and Playwright throws outside any promise ("Cannot find parent object
    // page@… to create disposable@…"; a form's Modal closed right after it opened, 2 runs in 8 of
    // react-native-example.test.ts). open() closes the page itself when it finds the view unmounted.
    if (this.setUp) this.closing = this.page?.close();
  }

  /** The JS wrapper's decision, then the app's: true when the load may go on. */
  private shouldStart(url: string, isTopFrame: boolean): boolean {
    if (!passesWhitelist(this.props.originWhitelist ?? DEFAULT_ORIGIN_WHITELIST, url)) {
      void Linking.openURL(url);
      return false;
    }
    const request = { url, isTopFrame, navigationType: 'other' };
    const allowed = this.props.onShouldStartLoadWithRequest?.(request) ?? true;
    this.asked.push({ ...request, allowed });
    return allowed;
  }

  private async open(): Promise<void> {
    if (!browser) throw new Error('react-native-webview stand-in: call useBrowser() first');
    const page = (this.page = await browser.newPage());
    page.on('pageerror', (error) => console.error('page error:', error.message));
    await page.exposeBinding('__rnPostMessage', ({ frame }, data: string, origin?: string) =>
      this.props.onMessage?.({ nativeEvent: { data, url: messageUrl(frame, page.mainFrame(), origin) } }),
    );
    await page.exposeBinding('__rnOpenWindow', (_source, targetUrl: string) =>
      this.props.onOpenWindow?.({ nativeEvent: { targetUrl } }),
    );
    await page.addInitScript(nativeObjects(JSON.stringify(this.props.injectedJavaScriptObject ?? {})));
    const cdp = (this.cdp = await page.context().newCDPSession(page));
    await cdp.send('Page.enable');
    // target=_blank: the popup is closed at once and reported, as onOpenWindow does natively.
    page.on('popup', async (popup) => {
      await popup.waitForURL(/^(?!about:blank)/).catch(() => {});
      const targetUrl = popup.url();
      await popup.close();
      this.props.onOpenWindow?.({ nativeEvent: { targetUrl } });
    });
    await page.route('**/*', async (route) => {
      const request = route.request();
      if (!request.isNavigationRequest()) return route.continue();
      const isTopFrame = request.frame() === page.mainFrame();
      const url = request.url();
      // Android is never asked about a sub-frame: it loads.
      if (!isTopFrame && platform === 'android') return route.continue();
      // Refused: the page stays where it is, as it does natively (a 204 answer never replaces a document).
      if (!this.shouldStart(url, isTopFrame)) return route.fulfill({ status: 204 });
      if (isTopFrame) {
        this.loadingDocument = true;
        // onPageStarted: the injected script of the props as they are now, then the app hears of the load.
        this.injectFromProps();
        this.props.onLoadStart?.({ nativeEvent: { url, loading: true } });
      }
      return route.continue();
    });
    // Schemes that are not fetched (tel:, sms:, intent:, custom ones) never reach page.route: Chromium
    // reports them as requested navigations, which the WebView asks about the same way.
    cdp.on('Page.frameRequestedNavigation', async ({ url, frameId }) => {
      if (/^(?:https?|about):/i.test(url)) return;
      const { frameTree } = await cdp.send('Page.getFrameTree');
      const isTopFrame = frameId === frameTree.frame.id;
      if (isTopFrame || platform === 'ios') this.shouldStart(url, platform === 'android' || isTopFrame);
    });
    // onHttpError: the top frame's document answered an HTTP error (react-native-webview reports the main
    // frame's only, on both platforms); the page it answered with still loads.
    page.on('response', (response) => {
      const request = response.request();
      if (response.status() >= 400 && request.isNavigationRequest() && request.frame() === page.mainFrame())
        this.props.onHttpError?.({
          nativeEvent: { url: response.url(), statusCode: response.status(), description: response.statusText() },
        });
    });
    page.on('load', () => {
      this.loadingDocument = false;
      this.props.onLoad?.({ nativeEvent: { url: page.url() } });
      this.props.onLoadEnd?.({ nativeEvent: { url: page.url() } });
    });
    // Android's onLoadStart is doUpdateVisitedHistory, which also fires for a same-document navigation
    // (history.pushState, a #hash) of a loaded page: `loading` is then false (getProgress() is 100).
    page.on('framenavigated', (frame) => {
      if (platform === 'android' && frame === page.mainFrame() && !this.loadingDocument && !this.terminated)
        this.props.onLoadStart?.({ nativeEvent: { url: frame.url(), loading: false } });
    });
    this.setUp = true;
    if (this.closed) return page.close();
    await page.goto(this.props.source.uri, { waitUntil: 'commit' });
    this.markLoaded();
  }

  /** What `ref.injectJavaScript` does natively: evaluate the script in the main frame. */
  injectJavaScript(script: string): void {
    void this.loaded.then(() => {
      if (this.terminated) return;
      this.page!.addScriptTag({ content: script }).catch((error: Error) => {
        if (!this.closed) console.error('injectJavaScript:', error.message);
      });
    });
  }

  /** `ref.reload()`: the top-level URL again (after a killed content process, the URL it had). */
  reload(): void {
    const url = this.lastUrl ?? this.props.source.uri;
    this.terminated = false;
    void this.loaded.then(() => this.page!.goto(url, { waitUntil: 'commit' }).catch(() => {}));
  }

  private lastUrl?: string;

  /**
   * The system kills the content process (iOS after backgrounding, Android's renderer): the page is
   * gone (a blank view), and the app is told. Nothing more happens unless the app acts.
   */
  async terminate(): Promise<void> {
    await this.loaded;
    const url = (this.lastUrl = this.page!.url());
    this.terminated = true;
    // A blank document, as the dead view shows; about:blank is not routed, so no load is announced.
    await this.page!.goto('about:blank');
    if (platform === 'android') this.props.onRenderProcessGone?.({ nativeEvent: { didCrash: false, url } });
    else this.props.onContentProcessDidTerminate?.({ nativeEvent: { url } });
  }

  override render() {
    return createElement('WebView', { uri: this.props.source.uri });
  }
}
