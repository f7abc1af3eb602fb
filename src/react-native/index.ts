/**
 * `hub-embed/react-native`: <HubEmbedView>, the widget in a react-native-webview WebView with the host
 * side of the bridge done (hub-embed/host). react, react-native and react-native-webview are the app's
 * (optional peer dependencies); none of them reaches the page bundles.
 */
import { version as reactVersion } from 'react';
import { Platform } from 'react-native';
// react-native-webview reports its version nowhere else; Metro, Expo and Jest read a package's JSON.
import webViewPackage from 'react-native-webview/package.json';
import { requirePeer } from '../core/peer-floors.js';

// The peers are optional of any version (an app that never imports this entry installs with its own);
// this entry says at once when the app's are older than it needs.
requirePeer('hub-embed/react-native', 'react', reactVersion);
const native = (Platform as { constants?: { reactNativeVersion?: { major: number; minor: number; patch: number } } })
  .constants?.reactNativeVersion;
requirePeer('hub-embed/react-native', 'react-native', native && `${native.major}.${native.minor}.${native.patch}`);
requirePeer('hub-embed/react-native', 'react-native-webview', (webViewPackage as { version?: string }).version);

export { HubEmbedView } from './hub-embed-view.js';
export type {
  FormClosed,
  FormCloseReason,
  HubEmbedViewEvent,
  HubEmbedViewHandle,
  HubEmbedViewProps,
  HubEmbedViewWebProps,
} from './view-props.js';
