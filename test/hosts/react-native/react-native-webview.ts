/**
 * react-native-webview's WebView, played against a real Chromium page, prop by prop as its
 * docs/Reference.md documents them:
 * - `source.uri` loads in a page of its own;
 * - `window.ReactNativeWebView.postMessage(string)` reaches `onMessage` with `nativeEvent.data` and the
 *   posting frame's `nativeEvent.url`;
 * - `injectedJavaScriptBeforeContentLoaded` runs in the main frame before the page's scripts (or, with
 *   `lateInjection`, after them, as Android may), and `injectedJavaScriptObject` is what the page reads
 *   from `window.ReactNativeWebView.injectedObjectJson()`;
 * - `ref.injectJavaScript(script)` runs a script in the main frame;
 * - every navigation asks `onShouldStartLoadWithRequest({url, isTopFrame})` first, and false stops it;
 * - `window.open` and `target=_blank` go to `onOpenWindow({nativeEvent: {targetUrl}})` and open nothing;
 * - `onLoadStart` comes as a main-frame load starts.
 */
import { Component, createElement } from 'react';
import type { Browser, Page } from 'playwright-core';

interface WebViewProps {
  source: { uri: string };
  injectedJavaScriptBeforeContentLoaded?: string;
  injectedJavaScriptObject?: object;
  onMessage?: (event: { nativeEvent: { data: string; url: string } }) => void;
  onShouldStartLoadWithRequest?: (request: { url: string; isTopFrame: boolean; navigationType: string }) => boolean;
  onOpenWindow?: (event: { nativeEvent: { targetUrl: string } }) => void;
  onLoadStart?: (event: { nativeEvent: { url: string } }) => void;
  [key: string]: unknown;
}

let browser: Browser | undefined;
/** Android's order: the page's first scripts run before injectedJavaScriptBeforeContentLoaded. */
let lateInjection = false;
/** Every WebView mounted, oldest first. */
export const webViews: WebView[] = [];

export function useBrowser(next: Browser, options: { lateInjection?: boolean } = {}): void {
  browser = next;
  lateInjection = options.lateInjection ?? false;
  webViews.length = 0;
}

/** The page side of the native object, installed in every frame before any script of the page. */
const NATIVE_OBJECT = `
  window.ReactNativeWebView = {
    postMessage: function (data) { window.__rnPostMessage(String(data)); },
    injectedObjectJson: function () { return window.__rnInjectedObject; },
  };
  window.open = function (url) { window.__rnOpenWindow(new URL(String(url), location.href).href); return null; };
`;

export class WebView extends Component<WebViewProps> {
  page?: Page;
  /** Settles once the first load of `source` has committed. */
  loaded: Promise<void>;
  private markLoaded!: () => void;
  private closed = false;

  constructor(props: WebViewProps) {
    super(props);
    this.loaded = new Promise((resolve) => (this.markLoaded = resolve));
  }

  override componentDidMount(): void {
    webViews.push(this);
    void this.open();
  }

  override componentWillUnmount(): void {
    this.closed = true;
    void this.page?.close();
  }

  private async open(): Promise<void> {
    if (!browser) throw new Error('react-native-webview stand-in: call useBrowser() first');
    const page = (this.page = await browser.newPage());
    page.on('pageerror', (error) => console.error('page error:', error.message));
    await page.exposeBinding('__rnPostMessage', ({ frame }, data: string) =>
      this.props.onMessage?.({ nativeEvent: { data, url: frame.url() } }),
    );
    await page.exposeBinding('__rnOpenWindow', (_source, targetUrl: string) =>
      this.props.onOpenWindow?.({ nativeEvent: { targetUrl } }),
    );
    const object = JSON.stringify(this.props.injectedJavaScriptObject ?? {});
    await page.addInitScript(`window.__rnInjectedObject = ${JSON.stringify(object)};${NATIVE_OBJECT}`);
    const marker = this.props.injectedJavaScriptBeforeContentLoaded;
    if (marker) {
      const mainFrameOnly = `if (window === window.top) { ${marker} }`;
      if (lateInjection) await page.addInitScript(`addEventListener('load', function () { ${mainFrameOnly} });`);
      else await page.addInitScript(mainFrameOnly);
    }
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
      const allowed = this.props.onShouldStartLoadWithRequest?.({ url, isTopFrame, navigationType: 'other' }) ?? true;
      // Refused: the page stays where it is, as it does natively (a 204 answer never replaces a document).
      if (!allowed) return route.fulfill({ status: 204 });
      if (isTopFrame) this.props.onLoadStart?.({ nativeEvent: { url } });
      return route.continue();
    });
    if (this.closed) return void page.close();
    await page.goto(this.props.source.uri, { waitUntil: 'commit' });
    this.markLoaded();
  }

  /** What `ref.injectJavaScript` does natively: evaluate the script in the main frame. */
  injectJavaScript(script: string): void {
    void this.loaded.then(() =>
      this.page!.addScriptTag({ content: script }).catch((error: Error) => {
        if (!this.closed) console.error('injectJavaScript:', error.message);
      }),
    );
  }

  override render() {
    return createElement('WebView', { uri: this.props.source.uri });
  }
}
