/**
 * <HubEmbedView>: the widget page in a react-native-webview WebView, with the host side of the bridge
 * done. It is a shell around the host kernel (src/host/kernel.ts): the WebView's strings go to the
 * kernel, the kernel's replies come back through injectJavaScript, and this file only adds what React
 * Native itself decides: the marker and its early carrier, which URLs load inside, the form in a native
 * Modal, and the Android back button.
 *
 * Written with createElement rather than JSX, so that it builds and runs from the same TypeScript
 * toolchain as the rest of the package.
 */
import {
  createElement as h,
  forwardRef,
  useEffect,
  useImperativeHandle,
  useMemo,
  useRef,
  useState,
  type ForwardedRef,
} from 'react';
import { BackHandler, Linking, Modal, Pressable, StyleSheet, Text, View } from 'react-native';
import type { StyleProp, ViewStyle } from 'react-native';
import { WebView } from 'react-native-webview';
import type { WebViewMessageEvent, WebViewProps } from 'react-native-webview';
import type { ShouldStartLoadRequest, WebViewOpenWindowEvent } from 'react-native-webview/lib/WebViewTypes.js';
import type { PageToHostEvents } from '../bridge/methods.js';
import { createHostKernel, type HostEvent, type HostHandlers } from '../host/kernel.js';
import { originOf } from '../host/navigation.js';

/** The callback prop for each event of the one event map, so a new event cannot be forgotten here. */
export const EVENT_PROPS = {
  'widget.ready': 'onReady',
  'table.selected': 'onTableSelected',
  'form.opened': 'onFormOpened',
  'form.closed': 'onFormClosed',
  'widget.error': 'onWidgetError',
  'form.message': 'onFormMessage',
} as const satisfies Record<keyof PageToHostEvents, string>;

type EventProps = {
  [E in keyof typeof EVENT_PROPS as (typeof EVENT_PROPS)[E]]?: (params: PageToHostEvents[E]) => void;
};

export interface HubEmbedViewProps extends EventProps {
  /** The widget page: a page of yours with `<hub-embed bridge="auto">` and the WebView bundle. */
  source: { uri: string };
  /** The signed-in user's token from your server ({access_token, expires_in}); the page asks for no other. */
  getToken?: HostHandlers['getToken'];
  /** The selected tags; a change selects them in the widget. */
  tags?: string[];
  /**
   * Opens a form. Default: a full-screen native Modal with a second WebView on the form URL and a close
   * control. Resolve false to let the page open it itself (in its own dialog).
   */
  openForm?: HostHandlers['openForm'];
  /** Where links that leave the widget go. Default: `Linking.openURL` (the system browser). */
  openExternal?: (url: string) => void | Promise<void>;
  /**
   * Origins besides the widget page's that may load inside, usually your form site's `{form_url}` origin
   * when the page opens forms itself. Exact origins only (`https://forms.example`).
   */
  allowedOrigins?: string[];
  /** Every event, typed; beside the per-event callbacks. */
  onEvent?: (event: HostEvent) => void;
  /** A bridge message that was dropped, and why: for your logs. */
  onRejected?: (reason: string) => void;
  /** Told to the page in the handshake. */
  appVersion?: string;
  style?: StyleProp<ViewStyle>;
  /**
   * Style of the form Modal's container. Safe areas are the app's: pass the insets of your safe-area
   * library here (e.g. `{paddingTop: insets.top}`), as for any screen of yours.
   */
  formStyle?: StyleProp<ViewStyle>;
  /** Label of the form Modal's close control. */
  closeLabel?: string;
  /** More WebView props (e.g. `testID`); the ones this component sets are not overridden. */
  webViewProps?: Omit<WebViewProps, 'source' | 'ref'>;
}

/** What a ref to <HubEmbedView> can do. */
export interface HubEmbedViewHandle {
  /** Loads the widget's tags and tables again. */
  refresh(): Promise<void>;
  /** Selects tags in the widget. */
  setTags(tags: string[]): Promise<void>;
  /** Closes an open form, native or in the page; resolves whether one was open. */
  closeForm(): Promise<boolean>;
}

interface OpenForm {
  url: string;
  shortCode: string;
}

function HubEmbedViewWithRef(props: HubEmbedViewProps, ref: ForwardedRef<HubEmbedViewHandle>) {
  const webView = useRef<WebView>(null);
  const [form, setForm] = useState<OpenForm>();
  /** A form the page opened itself (its dialog): Android back closes it too. */
  const pageForm = useRef(false);
  // The newest props, read by the kernel's callbacks, which are made once.
  const latest = useRef(props);
  latest.current = props;

  const openExternal = (url: string) => (latest.current.openExternal ?? Linking.openURL)(url);
  const widgetOrigin = originOf(props.source.uri);
  const allowed = useMemo(
    () => [...new Set([widgetOrigin, ...(props.allowedOrigins ?? [])].filter((o): o is string => !!o))],
    [widgetOrigin, props.allowedOrigins?.join(',')],
  );

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
            setForm(request);
            return true;
          },
          openExternal,
        },
        onEvent(event) {
          if (event.name === 'form.opened') pageForm.current = event.params.handledBy === 'page';
          if (event.name === 'form.closed') pageForm.current = false;
          if (event.name === 'widget.ready' && latest.current.tags)
            void kernel.setTags(latest.current.tags).catch(() => {});
          latest.current.onEvent?.(event);
          const callback = latest.current[EVENT_PROPS[event.name]] as ((params: unknown) => void) | undefined;
          callback?.(event.params);
        },
        onRejected: (reason) => latest.current.onRejected?.(reason),
        // Replies run as scripts in the page: ref.postMessage would reach window on iOS but document on Android.
        send: (script) => webView.current?.injectJavaScript(script),
      }),
    // A new kernel (and nonce) only when what the page may be is different.
    [allowed.join(','), Boolean(props.getToken)],
  );
  useEffect(() => () => kernel.close(), [kernel]);

  const tagKey = props.tags?.join('\n');
  useEffect(() => {
    if (props.tags && kernel.sessions.length) void kernel.setTags(props.tags).catch(() => {});
  }, [tagKey, kernel]);

  const closeForm = async () => {
    if (form) {
      setForm(undefined);
      return true;
    }
    return kernel.closeForm();
  };

  useImperativeHandle(
    ref,
    () => ({ refresh: () => kernel.refresh(), setTags: (tags) => kernel.setTags(tags), closeForm }),
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

  const onMessage = (event: WebViewMessageEvent) => {
    const { data, url } = event.nativeEvent;
    // react-native-webview posts from every frame: only the widget page itself may speak for the widget.
    if (originOf(url) !== widgetOrigin) return latest.current.onRejected?.('origin');
    void kernel.receive(data);
  };

  const onShouldStartLoadWithRequest = (request: ShouldStartLoadRequest) =>
    kernel.decideNavigation(request.url) === 'load';
  /**
   * target=_blank and window.open: never a second window inside the app. decideNavigation hands other
   * sites to openExternal itself and blocks script and file URLs; our own origins go out the same way.
   */
  const toBrowser = (url: string) => {
    if (kernel.decideNavigation(url) === 'load') void openExternal(url);
  };
  const onOpenWindow = (event: WebViewOpenWindowEvent) => toBrowser(event.nativeEvent.targetUrl);

  const formOrigin = form && originOf(form.url);
  return h(
    View,
    { style: [styles.fill, props.style] },
    h(WebView, {
      ...props.webViewProps,
      ref: webView,
      source: props.source,
      // The marker before the page's scripts, and the nonce again as an object the page reads on Android,
      // where injectedJavaScriptBeforeContentLoaded may run after the page's first script.
      injectedJavaScriptBeforeContentLoaded: kernel.marker,
      injectedJavaScriptObject: { hubEmbedNonce: kernel.nonce },
      // react-native-webview applies injected scripts at load start, from the props of that moment, so the
      // nonce stays with this view; each top-frame load still starts a new session list.
      onLoadStart: () => kernel.reload({ keepNonce: true }),
      onMessage,
      onShouldStartLoadWithRequest,
      setSupportMultipleWindows: true,
      onOpenWindow,
    }),
    h(
      Modal,
      {
        visible: !!form,
        animationType: 'slide',
        presentationStyle: 'fullScreen',
        onRequestClose: () => setForm(undefined),
      },
      form &&
        h(
          View,
          { style: [styles.fill, props.formStyle] },
          h(
            View,
            { style: styles.bar },
            h(
              Pressable,
              { accessibilityRole: 'button', onPress: () => setForm(undefined), style: styles.close },
              h(Text, null, props.closeLabel ?? 'Close'),
            ),
          ),
          h(WebView, {
            source: { uri: form.url },
            style: styles.fill,
            // The form site loads inside; a link out of it (terms, a receipt) goes to the system browser.
            onShouldStartLoadWithRequest: (request: ShouldStartLoadRequest) => {
              if (request.url === 'about:blank' || originOf(request.url) === formOrigin) return true;
              toBrowser(request.url);
              return false;
            },
            setSupportMultipleWindows: true,
            onOpenWindow,
          }),
        ),
    ),
  );
}

const styles = StyleSheet.create({
  fill: { flex: 1 },
  bar: { flexDirection: 'row', justifyContent: 'flex-end', padding: 8 },
  close: { padding: 8 },
});

/** The widget in a WebView, with the bridge's host side, forms in a native Modal and links to the browser. */
export const HubEmbedView = forwardRef(HubEmbedViewWithRef);
HubEmbedView.displayName = 'HubEmbedView';
