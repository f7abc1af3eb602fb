/**
 * What <HubEmbedView> decides, apart from the views it renders (hub-embed-view.ts), as react-native-webview
 * keeps useWebViewLogic apart from its platform views: the host kernel for the view's life and the replies
 * through injectJavaScript, which URLs load inside, a page that never says hello, a killed content process
 * and the ref's methods. Its rules are pure functions (view-rules.ts); the marker's nonce per load, the
 * selection, the form pages' tokens and Android back are hooks of their own (use-*.ts).
 */
import { useEffect, useImperativeHandle, useLayoutEffect, useMemo, useRef, useState, type ForwardedRef } from 'react';
import { Linking, useColorScheme } from 'react-native';
import type { WebView, WebViewMessageEvent } from 'react-native-webview';
import type {
  ShouldStartLoadRequest,
  WebViewNavigationEvent,
  WebViewOpenWindowEvent,
} from 'react-native-webview/lib/WebViewTypes.js';
import { createHostKernel } from '../host/kernel.js';
import { randomNonce } from '../host/page-scripts.js';
import type { TokenRequest } from '../host/types.js';
import { exactOrigins, originOf } from '../host/navigation.js';
import { isFormUrl } from './form-checks.js';
import type { OpenForm } from './form-modal.js';
import { useAndroidBack } from './use-android-back.js';
import { useFormTokens } from './use-form-tokens.js';
import { useMarkerNonce } from './use-marker-nonce.js';
import { useSelection } from './use-selection.js';
import {
  NO_HELLO_MS,
  afterFormOpened,
  allowedOrigins,
  noHelloMessage,
  refreshTold,
  reloadsWithOneMore,
  type WidgetError,
} from './view-rules.js';
import {
  tellApp,
  type FormCloseReason,
  type HubEmbedViewEvent,
  type HubEmbedViewHandle,
  type HubEmbedViewProps,
} from './view-props.js';

/** The state and the handlers of one <HubEmbedView>, for its views. */
export function useHubEmbedView(props: HubEmbedViewProps, ref: ForwardedRef<HubEmbedViewHandle>) {
  const webView = useRef<WebView>(null);
  const [form, setForm] = useState<OpenForm>();
  /** When the view reloaded by itself after its content process died, in the last minute. */
  const recentReloads = useRef<number[]>([]);
  /** A form the page opened itself (its dialog): Android back closes it too. */
  const pageForm = useRef(false);
  /** The refresh() calls under way, each told of a widget.error that comes before its answer. */
  const refreshing = useRef(new Set<(error: WidgetError) => void>());
  /**
   * Whether a page's form.opened was believed since the user last touched the view: one is believed per
   * gesture, so a page that sends form.opened in a loop cannot keep Android back for itself.
   */
  const formBelieved = useRef(false);
  // The newest props, read by the kernel's callbacks, which are made once.
  const latest = useRef(props);
  latest.current = props;
  /** The widget's language, from its widget.ready: the form Modal's close label speaks it. */
  const [widgetLocale, setWidgetLocale] = useState<string>();

  const openExternal = (url: string) => (latest.current.openExternal ?? Linking.openURL)(url);
  const widgetOrigin = originOf(props.source.uri);
  const allowedKey = [widgetOrigin, ...(props.allowedOrigins ?? [])].join(',');
  const allowed = useMemo(() => allowedOrigins(widgetOrigin, props.allowedOrigins), [allowedKey]);
  const latestAllowed = useRef(allowed);
  latestAllowed.current = allowed;

  /** The marker's nonce for each load (use-marker-nonce.ts). */
  const nonces = useMarkerNonce();
  const { markerNonce } = nonces;
  /** Whether the hello of this load was answered with getToken: a getToken that comes or goes reloads the page. */
  const helloHadToken = useRef<boolean | undefined>(undefined);
  /** Tells the app when the widget page loaded and said no hello (a plain bundle by mistake, a script that threw). */
  const noHelloTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const heardHello = () => clearTimeout(noHelloTimer.current);

  const tell = (event: HubEmbedViewEvent) => tellApp(latest.current, event);

  /** The form pages' tokens (use-form-tokens.ts). */
  const { formUrl, formRefused } = useFormTokens(latest, setForm);

  /** The tag selection (use-selection.ts); it reaches the kernel made below. */
  const selection = useSelection(props, latest, () => kernel);

  // One kernel, one page session, for the view's life: a prop that changes after mount (allowedOrigins,
  // getToken, tags) is read where it is used, so the page's nonce and session stay valid through it.
  const [kernel] = useState(() =>
    createHostKernel({
      platform: 'react-native',
      transport: 'react-native',
      appVersion: props.appVersion,
      allowedOrigins: allowed,
      nonce: markerNonce,
      handlers: {
        // Read at each hello and each ask: a getToken the app passes later is announced to the reloaded page.
        get getToken() {
          const { getToken } = latest.current;
          return getToken && ((request: TokenRequest) => getToken(request));
        },
        openForm: async (request) => {
          const custom = latest.current.openForm;
          // Only a web page of an origin the app allows fills the screen; anything else (data:, another
          // site) stays with the page, in its own dialog, where the page's rules apply.
          if (!custom && !isFormUrl(request.url, latestAllowed.current)) {
            latest.current.onRejected?.(`form.open: ${originOf(request.url) ?? 'a URL'} is not an allowed origin`);
            return false;
          }
          const url = await formUrl(request.url);
          if (custom) return custom({ ...request, url });
          setForm({ ...request, url, relayNonce: randomNonce() });
          return true;
        },
        openExternal,
      },
      onEvent(event) {
        if (event.name === 'form.opened') {
          const state = afterFormOpened(
            { pageForm: pageForm.current, believed: formBelieved.current },
            event.params.handledBy,
          );
          pageForm.current = state.pageForm;
          formBelieved.current = state.believed;
        }
        if (event.name === 'form.closed') pageForm.current = false;
        if (event.name === 'tags.changed') {
          selection.pageSelected(event.params.tags);
        }
        if (event.name === 'widget.ready') setWidgetLocale(event.params.locale);
        if (event.name === 'widget.error') for (const hear of refreshing.current) hear(event.params);
        tell(event.name === 'form.closed' ? { name: event.name, params: { reason: 'page', ...event.params } } : event);
        // After the app's onTagsChanged (and the render it asked for): a controlled `tags` the app did not
        // change to the user's selection is selected again, as a controlled input keeps its value.
        if (event.name === 'tags.changed') selection.pageSelectionHeard();
      },
      onAccepted(message) {
        if (message.kind !== 'req' || message.method !== 'bridge.hello') return;
        heardHello();
        helloHadToken.current = Boolean(latest.current.getToken);
        nonces.renew();
        // The selection goes to each new page session as it says hello, before the page has its token and
        // loads anything: the first list the widget asks for is already the filtered one.
        selection.helloHeard();
      },
      onRejected: (reason) => latest.current.onRejected?.(reason),
      // Replies run as scripts in the page's main frame: ref.postMessage would reach window on iOS but
      // document on Android, and other frames never see them.
      send: (script) => webView.current?.injectJavaScript(script),
    }),
  );
  useEffect(
    () => () => {
      heardHello();
      kernel.close();
    },
    [kernel],
  );
  // Where URLs may go follows the prop before the next native event; the page's session stays.
  useLayoutEffect(() => kernel.setAllowedOrigins(allowed), [allowed]);

  // A getToken that comes after the page said hello (a session restored later) or goes away changes what
  // the page may ask: the page loads again, and its hello announces the getToken it has now.
  const hasToken = Boolean(props.getToken);
  useEffect(() => {
    if (kernel.sessions.length && helloHadToken.current !== undefined && helloHadToken.current !== hasToken)
      webView.current?.reload();
  }, [hasToken]);

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
      refresh: () => refreshTold(() => kernel.refresh(), refreshing.current),
      setTags: selection.setTags,
      closeForm: async () => closeNativeForm('app') || kernel.closeForm(),
      reload: () => webView.current?.reload(),
    }),
    [kernel, form],
  );

  // Android back closes a form first: the Modal's own onRequestClose handles its form; this, the page's.
  useAndroidBack(kernel, pageForm);

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
    const reloads = reloadsWithOneMore(recentReloads.current, Date.now());
    if (!reloads) {
      latest.current.onRejected?.('content process gone again: not reloaded');
      return;
    }
    recentReloads.current = reloads;
    webView.current?.reload();
  };

  /** A touch in the view (bubbling up from the WebView) is a user gesture: the page's next form.opened is believed. */
  const onTouchStart = () => void (formBelieved.current = false);

  // react-native-webview injects the marker at load start from the props of that moment, before this
  // event reaches the app: the load carries the nonce the WebView was last given.
  const onLoadStart = (event: WebViewNavigationEvent) => {
    // Android also reports a same-document navigation of the loaded page (pushState, a #hash) here, with
    // loading false: the same document, its sessions and its open dialog stay.
    if (event.nativeEvent.loading !== false) {
      kernel.reload({ nonce: nonces.given.current });
      nonces.loadStarted();
      helloHadToken.current = undefined;
      heardHello();
      // A page that reloads with its own form dialog open has no form any more: back goes to the app.
      pageForm.current = false;
    }
    extra.onLoadStart?.(event);
  };

  /** The widget page loaded: it has NO_HELLO_MS to say hello, or the app hears what to check. */
  const onLoad = (event: WebViewNavigationEvent) => {
    const { url } = event.nativeEvent;
    // Also a page that never says hello (the plain bundle, another allowed site) leaves its nonce behind.
    nonces.renew();
    if (originOf(url) === widgetOrigin && !kernel.sessions.length) {
      heardHello();
      noHelloTimer.current = setTimeout(
        () => tell({ name: 'widget.error', params: { kind: 'no-bridge', message: noHelloMessage(url) } }),
        NO_HELLO_MS,
      );
    }
    extra.onLoad?.(event);
  };

  return {
    webView,
    form,
    widgetLocale,
    widgetOrigin,
    markerNonce,
    backgroundColor,
    formOrigins,
    extra,
    onTouchStart,
    onLoadStart,
    onLoad,
    onMessage,
    onShouldStartLoadWithRequest,
    onOpenWindow,
    onProcessGone,
    decideNavigation: kernel.decideNavigation.bind(kernel),
    closeNativeForm,
    onFormMessage: (data: unknown) =>
      form && tell({ name: 'form.message', params: { shortCode: form.shortCode, data } }),
    onFormRefused: () => form && void formRefused(form),
    onRejected: (reason: string) => latest.current.onRejected?.(reason),
  };
}
