/**
 * The public face of <HubEmbedView>: its props, its ref, and the events it tells the app, each event of
 * the bridge's one event map with its callback prop. The component itself is hub-embed-view.ts.
 */
import type { StyleProp, ViewStyle } from 'react-native';
import type { WebViewProps } from 'react-native-webview';
import type { PageToHostEvents } from '../bridge/methods.js';
import type { HostHandlers } from '../host/types.js';

/** The callback prop for each event of the one event map, so a new event cannot be forgotten here. */
export const EVENT_PROPS = {
  'widget.ready': 'onReady',
  'table.selected': 'onTableSelected',
  'tags.changed': 'onTagsChanged',
  'form.opened': 'onFormOpened',
  'form.closed': 'onFormClosed',
  'widget.error': 'onWidgetError',
  'form.message': 'onFormMessage',
} as const satisfies Record<keyof PageToHostEvents, string>;

/**
 * How a form closed: `page` in the widget page's own dialog (as the page tells it), and for the native
 * Modal `button` (its close control), `back` (Android back), `app` (the ref's closeForm()).
 */
export type FormCloseReason = 'page' | 'button' | 'back' | 'app';

/** `form.closed` as the app hears it: from the page's dialog or the native Modal, always with a reason. */
export type FormClosed = PageToHostEvents['form.closed'] & { reason: FormCloseReason };

type EventParams = Omit<PageToHostEvents, 'form.closed'> & { 'form.closed': FormClosed };
type EventProps = {
  [E in keyof typeof EVENT_PROPS as (typeof EVENT_PROPS)[E]]?: (params: EventParams[E]) => void;
};

/** One event as `onEvent` hears it: the page's, and `form.closed` of the native Modal too. */
export type HubEmbedViewEvent = {
  [E in keyof EventParams]: { name: E; params: EventParams[E] };
}[keyof EventParams];

/** Tells the app of `event`: `onEvent` first, then the event's own callback, on iOS, Android and the web alike. */
export function tellApp(props: HubEmbedViewProps, event: HubEmbedViewEvent): void {
  props.onEvent?.(event);
  const callback = props[EVENT_PROPS[event.name]] as ((params: unknown) => void) | undefined;
  callback?.(event.params);
}

/**
 * WebView props the component decides: what the page may be, which frames learn the nonce, where URLs
 * go. The type refuses them in `webViewProps`; the notification handlers there are called after the
 * component's own.
 */
type OwnedWebViewProps =
  | 'source'
  | 'ref'
  | 'originWhitelist'
  | 'onShouldStartLoadWithRequest'
  | 'onOpenWindow'
  | 'setSupportMultipleWindows'
  | 'injectedJavaScriptBeforeContentLoaded'
  | 'injectedJavaScriptBeforeContentLoadedForMainFrameOnly'
  | 'injectedJavaScriptForMainFrameOnly'
  | 'injectedJavaScriptObject'
  | 'injectedJavaScript'
  | 'javaScriptEnabled';

/**
 * What the web has in place of the widget page (react-native-web, Expo's web target): `<hub-embed>` renders
 * in the app's own page, so the settings the widget page's element carries come from here.
 */
export interface HubEmbedViewWebProps {
  /** The service's API root or address: the widget page's `base-url`. */
  baseUrl: string;
  /** The form site's `{form_url}`: the widget page's `form-url`. */
  formUrl: string;
  /** Your token route, for a web app without `getToken`: the widget page's `token-endpoint`. */
  tokenEndpoint?: string;
}

export interface HubEmbedViewProps extends EventProps {
  /**
   * The widget page: a page of yours with `<hub-embed bridge="auto">` and the WebView bundle. On the web
   * there is no WebView: nothing loads from it, and `web` gives the element its settings instead.
   */
  source: { uri: string };
  /** On the web (react-native-web, Expo's web target): the element's settings. iOS and Android ignore it. */
  web?: HubEmbedViewWebProps;
  /** The signed-in user's token from your server ({access_token, expires_in}); the page asks for no other. */
  getToken?: HostHandlers['getToken'];
  /**
   * The selected tags; a change selects them in the widget. A selection the user makes in the page
   * (`onTagsChanged`) replaces them as the one selected again after a reload.
   */
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
  onEvent?: (event: HubEmbedViewEvent) => void;
  /** A bridge message that was dropped, and why: for your logs. */
  onRejected?: (reason: string) => void;
  /** Told to the page in the handshake. */
  appVersion?: string;
  style?: StyleProp<ViewStyle>;
  /** Style of the form Modal's container (a safe-area view: the notch, bars and home indicator stay clear). */
  formStyle?: StyleProp<ViewStyle>;
  /**
   * Label of the form Modal's close control. Default: the widget's own word in the widget's language
   * ('Close', '关闭'), as the page says it in `widget.ready`.
   */
  closeLabel?: string;
  /**
   * The WebViews' background before the page paints, so the screen does not flash white. Default: the
   * widget's own background for the system's color scheme (#ffffff light, #0d1117 dark); set it when the
   * page sets `theme` or `--hub-color-bg`.
   */
  backgroundColor?: string;
  /**
   * Origins besides the form's own that may load in the form Modal's top frame: a payment provider's pages
   * and the `return_url` trip back. Exact origins only. Other sites and apps' schemes (`alipays:`,
   * `weixin:`) go to `openExternal`.
   */
  formOrigins?: string[];
  /**
   * More props of the form Modal's WebView: camera and file upload (`mediaCapturePermissionGrantType`,
   * `allowsInlineMediaPlayback`, …), `renderLoading`. The props the component decides are refused by the
   * type (and replaced at run time); `onMessage` there is called after the component's own.
   */
  formWebViewProps?: Omit<WebViewProps, OwnedWebViewProps>;
  /**
   * More WebView props (`testID`, `startInLoadingState`, `renderLoading`, `renderError`, …). The props
   * the component decides are refused by the type; handlers it also uses (`onLoadStart`, `onMessage`,
   * `onRenderProcessGone`, `onContentProcessDidTerminate`, …) are called after its own.
   */
  webViewProps?: Omit<WebViewProps, OwnedWebViewProps>;
}

/** What a ref to <HubEmbedView> can do. */
export interface HubEmbedViewHandle {
  /** Loads the widget's tags and tables again; rejects (E_INTERNAL, the widget's error) when that fails. */
  refresh(): Promise<void>;
  /** Selects tags in the widget. */
  setTags(tags: string[]): Promise<void>;
  /** Closes an open form, native or in the page; resolves whether one was open. */
  closeForm(): Promise<boolean>;
  /** Loads the widget page again (a new page session; the last selection is selected again). */
  reload(): void;
}
