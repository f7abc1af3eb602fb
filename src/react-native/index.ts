/**
 * `hub-embed/react-native`: <HubEmbedView>, the widget in a react-native-webview WebView with the host
 * side of the bridge done (hub-embed/host). react, react-native and react-native-webview are the app's
 * (optional peer dependencies); none of them reaches the page bundles.
 */
export { HubEmbedView } from './hub-embed-view.js';
export { EVENT_PROPS } from './view-props.js';
export type {
  FormClosed,
  FormCloseReason,
  HubEmbedViewEvent,
  HubEmbedViewHandle,
  HubEmbedViewProps,
} from './view-props.js';
