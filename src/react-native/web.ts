/**
 * `hub-embed/react-native` on the web (the package's `browser` condition, which Expo's web target, Metro
 * for web and the bundlers of react-native-web apps pick): the same <HubEmbedView> and types as on iOS
 * and Android (index.ts), rendering the `<hub-embed>` element itself. react and react-native (react-native-web
 * under the app's alias) are the app's; react-native-webview is not needed on the web and not imported.
 */
import { version as reactVersion } from 'react';
import { requirePeer } from '../core/peer-floors.js';

requirePeer('hub-embed/react-native', 'react', reactVersion);

export { HubEmbedView } from './hub-embed-view.web.js';
export type {
  FormClosed,
  FormCloseReason,
  HubEmbedViewEvent,
  HubEmbedViewHandle,
  HubEmbedViewProps,
  HubEmbedViewWebProps,
} from './view-props.js';
