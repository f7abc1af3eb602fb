/**
 * <HubEmbedView>: the widget page in a react-native-webview WebView, with the host side of the bridge
 * done. It is a shell around the host kernel (src/host/kernel.ts), whose state and handlers live in its hook
 * (use-hub-embed-view.ts, as react-native-webview keeps useWebViewLogic apart from its views): this file
 * renders the WebView and the form Modal with them. The default native form is form-modal.ts.
 *
 * Written with createElement rather than JSX, so that it builds and runs from the same TypeScript
 * toolchain as the rest of the package.
 */
import { createElement, forwardRef, type ForwardedRef } from 'react';
import { StyleSheet, View } from 'react-native';
import { WebView } from 'react-native-webview';
import { BRIDGE_VERSION } from '../bridge/protocol.js';
import { markerScript } from '../host/page-scripts.js';
import { FormModal } from './form-modal.js';
import { useHubEmbedView } from './use-hub-embed-view.js';
import type { HubEmbedViewHandle, HubEmbedViewProps } from './view-props.js';

export { NO_HELLO_MS, RELOADS_PER_MINUTE, TAGS_WITHOUT_ON_TAGS_CHANGED, noHelloMessage } from './view-rules.js';

function HubEmbedViewWithRef(props: HubEmbedViewProps, ref: ForwardedRef<HubEmbedViewHandle>) {
  const view = useHubEmbedView(props, ref);
  const { extra, backgroundColor, widgetOrigin, form } = view;
  return createElement(
    View,
    { style: [styles.fill, { backgroundColor }, props.style], onTouchStart: view.onTouchStart },
    createElement(WebView, {
      ...extra,
      style: [{ backgroundColor }, extra.style],
      ref: view.webView,
      source: props.source,
      // Every URL through the component's own decision: with the default whitelist, react-native-webview
      // would hand tel:, intent:, custom schemes straight to Linking.openURL, past openExternal.
      originWhitelist: ['*'],
      // The marker, with this load's nonce, reaches the main frame only (both platforms, forced here), and
      // sets itself only in a document of the widget page's origin: another allowed site loaded at the top
      // never learns it. Android may run it after the page's first scripts; the injected object, which
      // every frame can read there, tells the page only to wait for it.
      injectedJavaScriptBeforeContentLoaded:
        widgetOrigin &&
        markerScript({ transport: 'react-native', v: BRIDGE_VERSION, nonce: view.markerNonce }, widgetOrigin),
      injectedJavaScriptBeforeContentLoadedForMainFrameOnly: true,
      injectedJavaScriptForMainFrameOnly: true,
      injectedJavaScriptObject: { hubEmbedMarker: true },
      onLoadStart: view.onLoadStart,
      onLoad: view.onLoad,
      onMessage: view.onMessage,
      onShouldStartLoadWithRequest: view.onShouldStartLoadWithRequest,
      setSupportMultipleWindows: true,
      onOpenWindow: view.onOpenWindow,
      onRenderProcessGone: (event) => {
        view.onProcessGone();
        extra.onRenderProcessGone?.(event);
      },
      onContentProcessDidTerminate: (event) => {
        view.onProcessGone();
        extra.onContentProcessDidTerminate?.(event);
      },
    }),
    createElement(FormModal, {
      form,
      closeLabel: props.closeLabel,
      widgetLocale: view.widgetLocale,
      backgroundColor,
      style: props.formStyle,
      formOrigins: view.formOrigins,
      webViewProps: props.formWebViewProps,
      decideNavigation: view.decideNavigation,
      onOpenWindow: view.onOpenWindow,
      onClose: view.closeNativeForm,
      onMessage: view.onFormMessage,
      onRefused: view.onFormRefused,
      onRejected: view.onRejected,
    }),
  );
}

const styles = StyleSheet.create({ fill: { flex: 1 } });

/** The widget in a WebView, with the bridge's host side, forms in a native Modal and links to the browser. */
export const HubEmbedView = forwardRef(HubEmbedViewWithRef);
HubEmbedView.displayName = 'HubEmbedView';
