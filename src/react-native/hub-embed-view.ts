/**
 * <HubEmbedView>: the widget page in a react-native-webview WebView, with the host side of the bridge
 * done. It is a shell around the host kernel (src/host/kernel.ts): the WebView's strings go to the
 * kernel, the kernel's replies come back through injectJavaScript, and this file only adds what React
 * Native itself decides: the marker (main frame only) and the promise of it, which URLs load inside, the
 * Android back button, and the selection kept across reloads. The default native form is form-modal.ts.
 *
 * Written with createElement rather than JSX, so that it builds and runs from the same TypeScript
 * toolchain as the rest of the package.
 */
import {
  createElement,
  forwardRef,
  useEffect,
  useImperativeHandle,
  useMemo,
  useRef,
  useState,
  type ForwardedRef,
} from 'react';
import { BackHandler, Linking, StyleSheet, View, useColorScheme } from 'react-native';
import { WebView } from 'react-native-webview';
import type { WebViewMessageEvent } from 'react-native-webview';
import type { ShouldStartLoadRequest, WebViewOpenWindowEvent } from 'react-native-webview/lib/WebViewTypes.js';
import { createHostKernel } from '../host/kernel.js';
import { randomNonce as randomRelayNonce } from '../host/page-scripts.js';
import { exactOrigins, originOf } from '../host/navigation.js';
import { isFormUrl } from './form-checks.js';
import { FormModal, type OpenForm } from './form-modal.js';
import {
  EVENT_PROPS,
  type FormCloseReason,
  type HubEmbedViewEvent,
  type HubEmbedViewHandle,
  type HubEmbedViewProps,
} from './view-props.js';

/** How often a minute the view reloads by itself after its content process died. */
export const RELOADS_PER_MINUTE = 3;

function HubEmbedViewWithRef(props: HubEmbedViewProps, ref: ForwardedRef<HubEmbedViewHandle>) {
  const webView = useRef<WebView>(null);
  const [form, setForm] = useState<OpenForm>();
  /** When the view reloaded by itself after its content process died, in the last minute. */
  const recentReloads = useRef<number[]>([]);
  /** A form the page opened itself (its dialog): Android back closes it too. */
  const pageForm = useRef(false);
  // The newest props, read by the kernel's callbacks, which are made once.
  const latest = useRef(props);
  latest.current = props;
  /**
   * The last selection, the app's (prop or ref) or the user's in the page (tags.changed): the first
   * selection of every new page session, so a reload or a killed content process finds it again.
   */
  const selection = useRef(props.tags);
  /** The widget's language, from its widget.ready: the form Modal's close label speaks it. */
  const [widgetLocale, setWidgetLocale] = useState<string>();

  const openExternal = (url: string) => (latest.current.openExternal ?? Linking.openURL)(url);
  const widgetOrigin = originOf(props.source.uri);
  const allowed = useMemo(
    () => [...new Set([widgetOrigin, ...(props.allowedOrigins ?? [])].filter((origin): origin is string => !!origin))],
    [widgetOrigin, props.allowedOrigins?.join(',')],
  );

  const tell = (event: HubEmbedViewEvent) => {
    latest.current.onEvent?.(event);
    const callback = latest.current[EVENT_PROPS[event.name]] as ((params: unknown) => void) | undefined;
    callback?.(event.params);
  };

  const kernel = useMemo(
    () =>
      createHostKernel({
        platform: 'react-native',
        transport: 'react-native',
        appVersion: props.appVersion,
        allowedOrigins: allowed,
        handlers: {
          ...(props.getToken && { getToken: (request) => latest.current.getToken!(request) }),
          openForm: (request) => {
            const custom = latest.current.openForm;
            if (custom) return custom(request);
            // Only a web page of an origin the app allows fills the screen; anything else (data:, another
            // site) stays with the page, in its own dialog, where the page's rules apply.
            if (!isFormUrl(request.url, allowed)) {
              latest.current.onRejected?.(`form.open: ${originOf(request.url) ?? 'a URL'} is not an allowed origin`);
              return false;
            }
            setForm({ ...request, relayNonce: randomRelayNonce() });
            return true;
          },
          openExternal,
        },
        onEvent(event) {
          if (event.name === 'form.opened') pageForm.current = event.params.handledBy === 'page';
          if (event.name === 'form.closed') pageForm.current = false;
          if (event.name === 'tags.changed') selection.current = event.params.tags;
          if (event.name === 'widget.ready') setWidgetLocale(event.params.locale);
          tell(
            event.name === 'form.closed' ? { name: event.name, params: { reason: 'page', ...event.params } } : event,
          );
        },
        // The selection goes to each new page session as it says hello, before the page has its token and
        // loads anything: the first list the widget asks for is already the filtered one.
        onAccepted(message) {
          if (message.kind === 'req' && message.method === 'bridge.hello' && selection.current) {
            const tags = selection.current;
            queueMicrotask(() => void kernel.setTags(tags).catch(() => {}));
          }
        },
        onRejected: (reason) => latest.current.onRejected?.(reason),
        // Replies run as scripts in the page's main frame: ref.postMessage would reach window on iOS but
        // document on Android, and other frames never see them.
        send: (script) => webView.current?.injectJavaScript(script),
      }),
    // A new kernel (and nonce) only when what the page may be is different.
    [allowed.join(','), Boolean(props.getToken)],
  );
  useEffect(() => () => kernel.close(), [kernel]);

  const tagKey = props.tags?.join('\n');
  useEffect(() => {
    selection.current = props.tags;
    if (props.tags && kernel.sessions.length) void kernel.setTags(props.tags).catch(() => {});
  }, [tagKey, kernel]);

  /** Closes the native form and says so, with how. */
  const closeNativeForm = (reason: FormCloseReason) => {
    if (!form) return false;
    setForm(undefined);
    tell({ name: 'form.closed', params: { shortCode: form.shortCode, reason } });
    return true;
  };

  useImperativeHandle(
    ref,
    () => ({
      refresh: () => kernel.refresh(),
      setTags: (tags) => {
        selection.current = tags;
        return kernel.setTags(tags);
      },
      closeForm: async () => closeNativeForm('app') || kernel.closeForm(),
      reload: () => webView.current?.reload(),
    }),
    [kernel, form],
  );

  // Android back closes a form first: the Modal's own onRequestClose handles its form; this, the page's.
  useEffect(() => {
    const subscription = BackHandler.addEventListener('hardwareBackPress', () => {
      if (!pageForm.current) return false;
      void kernel.closeForm().catch(() => {});
      return true;
    });
    return () => subscription.remove();
  }, [kernel]);

  const extra = props.webViewProps ?? {};
  const scheme = useColorScheme();
  const backgroundColor = props.backgroundColor ?? (scheme === 'dark' ? '#0d1117' : '#ffffff');
  const formOrigins = useMemo(() => exactOrigins(props.formOrigins ?? []), [props.formOrigins?.join(',')]);
  const onMessage = (event: WebViewMessageEvent) => {
    // nativeEvent.url is the top-level URL whichever frame posted, so it only says that the widget page
    // is still the one shown; which frame spoke is the nonce's job (the kernel's check).
    if (originOf(event.nativeEvent.url) !== widgetOrigin) latest.current.onRejected?.('origin');
    else void kernel.receive(event.nativeEvent.data);
    extra.onMessage?.(event);
  };

  const onShouldStartLoadWithRequest = (request: ShouldStartLoadRequest) =>
    // iOS asks about sub-frames (isTopFrame false); Android only about the top frame.
    kernel.decideNavigation(request.url, { isTopFrame: request.isTopFrame !== false }) === 'load';
  /** target=_blank and window.open: never a second window inside the app; out, or nowhere. */
  const onOpenWindow = (event: WebViewOpenWindowEvent) =>
    void kernel.decideNavigation(event.nativeEvent.targetUrl, { newWindow: true });

  /** The content process died (iOS after backgrounding, Android's renderer): load the page again. */
  const onProcessGone = () => {
    pageForm.current = false;
    // A page that kills its process on every load must not reload for ever: at most RELOADS_PER_MINUTE.
    const now = Date.now();
    recentReloads.current = recentReloads.current.filter((at) => now - at < 60_000);
    if (recentReloads.current.length >= RELOADS_PER_MINUTE) {
      latest.current.onRejected?.('content process gone again: not reloaded');
      return;
    }
    recentReloads.current.push(now);
    webView.current?.reload();
  };

  return createElement(
    View,
    { style: [styles.fill, { backgroundColor }, props.style] },
    createElement(WebView, {
      ...extra,
      style: [{ backgroundColor }, extra.style],
      ref: webView,
      source: props.source,
      // Every URL through the component's own decision: with the default whitelist, react-native-webview
      // would hand tel:, intent:, custom schemes straight to Linking.openURL, past openExternal.
      originWhitelist: ['*'],
      // The marker, with the nonce, reaches the main frame only (both platforms, forced here). Android
      // may run it after the page's first scripts; the injected object, which every frame can read there,
      // tells the page only to wait for it.
      injectedJavaScriptBeforeContentLoaded: kernel.marker,
      injectedJavaScriptBeforeContentLoadedForMainFrameOnly: true,
      injectedJavaScriptForMainFrameOnly: true,
      injectedJavaScriptObject: { hubEmbedMarker: true },
      // react-native-webview applies injected scripts at load start, from the props of that moment, so the
      // nonce stays with this view; each top-frame load still starts a new session list.
      onLoadStart: (event) => {
        // Android also reports a same-document navigation of the loaded page (pushState, a #hash) here, with
        // loading false: the same document, its sessions and its open dialog stay.
        if (event.nativeEvent.loading !== false) {
          kernel.reload({ keepNonce: true });
          // A page that reloads with its own form dialog open has no form any more: back goes to the app.
          pageForm.current = false;
        }
        extra.onLoadStart?.(event);
      },
      onMessage,
      onShouldStartLoadWithRequest,
      setSupportMultipleWindows: true,
      onOpenWindow,
      onRenderProcessGone: (event) => {
        onProcessGone();
        extra.onRenderProcessGone?.(event);
      },
      onContentProcessDidTerminate: (event) => {
        onProcessGone();
        extra.onContentProcessDidTerminate?.(event);
      },
    }),
    createElement(FormModal, {
      form,
      closeLabel: props.closeLabel,
      widgetLocale,
      backgroundColor,
      style: props.formStyle,
      formOrigins,
      webViewProps: props.formWebViewProps,
      decideNavigation: (url, options) => kernel.decideNavigation(url, options),
      onOpenWindow,
      onClose: closeNativeForm,
      onMessage: (data) => form && tell({ name: 'form.message', params: { shortCode: form.shortCode, data } }),
      onRejected: (reason) => latest.current.onRejected?.(reason),
    }),
  );
}

const styles = StyleSheet.create({ fill: { flex: 1 } });

/** The widget in a WebView, with the bridge's host side, forms in a native Modal and links to the browser. */
export const HubEmbedView = forwardRef(HubEmbedViewWithRef);
HubEmbedView.displayName = 'HubEmbedView';
