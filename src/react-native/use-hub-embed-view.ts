/**
 * What <HubEmbedView> decides, apart from the views it renders (hub-embed-view.ts), as react-native-webview
 * keeps useWebViewLogic apart from its platform views: the host kernel for the view's life and the replies
 * through injectJavaScript, the marker's nonce per load, which URLs load inside, the selection kept across
 * reloads, a page that never says hello, a killed content process, Android back and the ref's methods.
 */
import { useEffect, useImperativeHandle, useLayoutEffect, useMemo, useRef, useState, type ForwardedRef } from 'react';
import { BackHandler, Linking, useColorScheme } from 'react-native';
import type { WebView, WebViewMessageEvent } from 'react-native-webview';
import type {
  ShouldStartLoadRequest,
  WebViewNavigationEvent,
  WebViewOpenWindowEvent,
} from 'react-native-webview/lib/WebViewTypes.js';
import { BridgeError } from '../bridge/protocol.js';
import { NO_BRIDGE_BUILD, NO_BRIDGE_MS } from '../core/bridge-wait.js';
import { createHostKernel } from '../host/kernel.js';
import { randomNonce } from '../host/page-scripts.js';
import type { TokenRequest } from '../host/types.js';
import { exactOrigins, originOf } from '../host/navigation.js';
import { isFormUrl } from './form-checks.js';
import type { OpenForm } from './form-modal.js';
import { RefusedTokens } from './refused-tokens.js';
import {
  EVENT_PROPS,
  type FormCloseReason,
  type HubEmbedViewEvent,
  type HubEmbedViewHandle,
  type HubEmbedViewProps,
} from './view-props.js';

/** How often a minute the view reloads by itself after its content process died. */
export const RELOADS_PER_MINUTE = 3;

/**
 * How long after the widget page loaded the view waits for its hello before it tells the app (onWidgetError,
 * `no-bridge`). A page with the WebView bundle says hello within the bundle's own waits (a late marker: 2 s).
 */
export const NO_HELLO_MS = NO_BRIDGE_MS;

/** The development warning for a `tags` prop without `onTagsChanged`. */
export const TAGS_WITHOUT_ON_TAGS_CHANGED =
  '<HubEmbedView>: `tags` without `onTagsChanged` keeps the selection at `tags`, so each chip the user taps is ' +
  'undone. Pass onTagsChanged and set tags from it, or leave tags out and call ref.setTags.';
/** Whether the tags warning was given: once per app run, as React's own warnings. */
let warnedTags = false;

/** React Native's development flag (`__DEV__`, false in release builds); false where there is none. */
function isDevelopment(): boolean {
  return (globalThis as { __DEV__?: unknown }).__DEV__ === true;
}

/** What the app hears when the widget page loaded and never spoke to the view. */
export function noHelloMessage(url: string): string {
  return (
    `The widget page ${url} loaded but said nothing to the app in ${NO_HELLO_MS / 1000} s. Check that it loads ` +
    'the WebView build (hub-embed-webview.iife.js or hub-embed/webview), not the plain one (hub-embed.iife.js, ' +
    `hub-embed/define), which shows "${NO_BRIDGE_BUILD}"; that its <hub-embed> has bridge="auto"; and its ` +
    'console for errors (a script that throws before the widget connects).'
  );
}

const sameTags = (one: readonly string[] | undefined, other: readonly string[] | undefined) =>
  JSON.stringify(one) === JSON.stringify(other);

/** The state and the handlers of one <HubEmbedView>, for its views. */
export function useHubEmbedView(props: HubEmbedViewProps, ref: ForwardedRef<HubEmbedViewHandle>) {
  const webView = useRef<WebView>(null);
  const [form, setForm] = useState<OpenForm>();
  /** When the view reloaded by itself after its content process died, in the last minute. */
  const recentReloads = useRef<number[]>([]);
  /** A form the page opened itself (its dialog): Android back closes it too. */
  const pageForm = useRef(false);
  /** The refresh() calls under way, each told of a widget.error that comes before its answer. */
  const refreshing = useRef(new Set<(error: { kind: string; message: string }) => void>());
  /**
   * Whether a page's form.opened was believed since the user last touched the view: one is believed per
   * gesture, so a page that sends form.opened in a loop cannot keep Android back for itself.
   */
  const formBelieved = useRef(false);
  // The newest props, read by the kernel's callbacks, which are made once.
  const latest = useRef(props);
  latest.current = props;
  /**
   * Without a `tags` prop (the page's selection, changed by ref.setTags), the last selection, the app's or
   * the user's in the page (tags.changed): the first selection of every new page session, so a reload or a
   * killed content process finds it again. With `tags`, that prop is the selection.
   */
  const selection = useRef(props.tags);
  /** The selection the page shows, as far as the view knows: what it sent last, or what the page said. */
  const shown = useRef<string[] | undefined>(undefined);
  /** Bumped when the page's selection changed, so a controlled `tags` that differs is selected again. */
  const [pageTagsChanged, setPageTagsChanged] = useState(0);
  /** The widget's language, from its widget.ready: the form Modal's close label speaks it. */
  const [widgetLocale, setWidgetLocale] = useState<string>();

  const openExternal = (url: string) => (latest.current.openExternal ?? Linking.openURL)(url);
  const widgetOrigin = originOf(props.source.uri);
  const allowedKey = [widgetOrigin, ...(props.allowedOrigins ?? [])].join(',');
  const allowed = useMemo(
    () => [...new Set([widgetOrigin, ...(props.allowedOrigins ?? [])].filter((origin): origin is string => !!origin))],
    [allowedKey],
  );
  const latestAllowed = useRef(allowed);
  latestAllowed.current = allowed;

  /**
   * The nonce of the marker the WebView injects at its next load start. react-native-webview takes its
   * injected scripts from the props of that moment, so each load's nonce is chosen before it starts: a
   * fresh one once this load's document has its marker (its page said hello, or it finished loading), so no
   * load shares the nonce of the one before (a frame that learned an old nonce speaks for no later page).
   * Never at the load start itself: iOS re-makes its document-start scripts when the prop changes, and the
   * document being loaded would get the next load's nonce.
   */
  const [markerNonce, setMarkerNonce] = useState(randomNonce);
  /** The marker nonce the WebView has been given (committed), which the next load carries. */
  const givenNonce = useRef(markerNonce);
  useLayoutEffect(() => {
    givenNonce.current = markerNonce;
  }, [markerNonce]);
  /** Whether this load's marker nonce was replaced for the next load. */
  const nonceRenewed = useRef(false);
  /** This load's document has its marker: the next load gets a nonce of its own. */
  const renewNonce = () => {
    if (nonceRenewed.current) return;
    nonceRenewed.current = true;
    setMarkerNonce(randomNonce());
  };
  /** Whether the hello of this load was answered with getToken: a getToken that comes or goes reloads the page. */
  const helloHadToken = useRef<boolean | undefined>(undefined);
  /** Tells the app when the widget page loaded and said no hello (a plain bundle by mistake, a script that threw). */
  const noHelloTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const heardHello = () => clearTimeout(noHelloTimer.current);

  const tell = (event: HubEmbedViewEvent) => {
    latest.current.onEvent?.(event);
    const callback = latest.current[EVENT_PROPS[event.name]] as ((params: unknown) => void) | undefined;
    callback?.(event.params);
  };

  /** Tokens form pages refused, and what replaced them (refused-tokens.ts). */
  const refusedTokens = useRef(new RefusedTokens());
  /** A new token in place of `previous`, which a form page refused: the app's getToken is told so. */
  const getToken = (request: { reason: 'unauthorized'; previous: string }) => {
    const { getToken } = latest.current;
    if (!getToken) throw new TypeError('no getToken');
    return getToken(request);
  };
  const withLiveToken = (url: string) => refusedTokens.current.liveUrl(url, getToken);
  /**
   * The Modal's form page refused its token: the form loads once more with a new one, and a second
   * refusal keeps the page's message (the next open asks for another token: nothing loops).
   */
  const formRefused = async (refused: OpenForm) => {
    refusedTokens.current.refuse(new URL(refused.url).searchParams.get('token') ?? '');
    if (refused.renewed) return;
    const url = await withLiveToken(refused.url).catch(() => refused.url);
    // Told twice (the 401 and the report), closed, or another form opened while the token came.
    setForm((open) =>
      open?.relayNonce === refused.relayNonce && url !== refused.url
        ? { ...open, url, relayNonce: randomNonce(), renewed: true }
        : open,
    );
  };

  /** Selects `tags` in the page (its newest session) and notes them as shown. */
  const select = (tags: string[]) => {
    shown.current = tags;
    return kernel.setTags(tags);
  };

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
          const url = refusedTokens.current.any
            ? await withLiveToken(request.url).catch(() => request.url)
            : request.url;
          if (custom) return custom({ ...request, url });
          setForm({ ...request, url, relayNonce: randomNonce() });
          return true;
        },
        openExternal,
      },
      onEvent(event) {
        if (event.name === 'form.opened') {
          const byPage = event.params.handledBy === 'page';
          if (!byPage || !formBelieved.current) pageForm.current = byPage;
          if (byPage) formBelieved.current = true;
        }
        if (event.name === 'form.closed') pageForm.current = false;
        if (event.name === 'tags.changed') {
          shown.current = event.params.tags;
          if (latest.current.tags === undefined) selection.current = event.params.tags;
        }
        if (event.name === 'widget.ready') setWidgetLocale(event.params.locale);
        if (event.name === 'widget.error') for (const hear of refreshing.current) hear(event.params);
        tell(event.name === 'form.closed' ? { name: event.name, params: { reason: 'page', ...event.params } } : event);
        // After the app's onTagsChanged (and the render it asked for): a controlled `tags` the app did not
        // change to the user's selection is selected again, as a controlled input keeps its value.
        if (event.name === 'tags.changed') setPageTagsChanged((count) => count + 1);
      },
      onAccepted(message) {
        if (message.kind !== 'req' || message.method !== 'bridge.hello') return;
        heardHello();
        helloHadToken.current = Boolean(latest.current.getToken);
        renewNonce();
        // The selection goes to each new page session as it says hello, before the page has its token and
        // loads anything: the first list the widget asks for is already the filtered one.
        const tags = latest.current.tags ?? selection.current;
        if (tags) queueMicrotask(() => void select(tags).catch(() => {}));
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

  // A controlled selection the app never updates undoes every chip the user taps: said once, in development.
  const uncontrolledTags = props.tags !== undefined && !props.onTagsChanged;
  useEffect(() => {
    if (uncontrolledTags && isDevelopment() && !warnedTags) {
      warnedTags = true;
      console.warn(TAGS_WITHOUT_ON_TAGS_CHANGED);
    }
  }, [uncontrolledTags]);

  const tagKey = props.tags && JSON.stringify(props.tags);
  useEffect(() => {
    if (!props.tags || sameTags(props.tags, shown.current) || !kernel.sessions.length) return;
    void select(props.tags).catch(() => {});
  }, [tagKey, pageTagsChanged]);

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
      refresh: async () => {
        // The page answers widget.refresh once its load is over, failed or not; a failure reaches the host
        // as widget.error before that answer, on the same channel.
        let failed: { kind: string; message: string } | undefined;
        const hear = (error: { kind: string; message: string }) => (failed ??= error);
        refreshing.current.add(hear);
        try {
          await kernel.refresh();
        } finally {
          refreshing.current.delete(hear);
        }
        if (failed)
          throw new BridgeError('E_INTERNAL', `refresh: the widget could not load (${failed.kind}): ${failed.message}`);
      },
      setTags: (tags) => {
        // A controlled view's selection is its prop; an imperative one would be undone at the next change.
        if (latest.current.tags !== undefined)
          return Promise.reject(
            new TypeError('setTags: this <HubEmbedView> has a tags prop, which is the selection: change the prop'),
          );
        selection.current = tags;
        return select(tags);
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
      // The page said a form opened; if no dialog was behind it (a page's own form.opened), this one press
      // finds that out and the next goes to the app.
      const noForm = () => (pageForm.current = false);
      void kernel.closeForm().then((closed) => closed || noForm(), noForm);
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

  /** A touch in the view (bubbling up from the WebView) is a user gesture: the page's next form.opened is believed. */
  const onTouchStart = () => void (formBelieved.current = false);

  // react-native-webview injects the marker at load start from the props of that moment, before this
  // event reaches the app: the load carries the nonce the WebView was last given.
  const onLoadStart = (event: WebViewNavigationEvent) => {
    // Android also reports a same-document navigation of the loaded page (pushState, a #hash) here, with
    // loading false: the same document, its sessions and its open dialog stay.
    if (event.nativeEvent.loading !== false) {
      kernel.reload({ nonce: givenNonce.current });
      nonceRenewed.current = false;
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
    renewNonce();
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
