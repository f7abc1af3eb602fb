// An Expo DOM component (docs/react-native.md, "Expo DOM components"): a web page of its own in a WebView on
// iOS and Android, the page itself on the web. The element goes in as on any React 19 page, not
// <HubEmbedView>: the file registers it, and the app hands in the token and hears the events through native
// actions (async function props). The metro lane (test/metro/expo-web.ts) exports it for the web with
// DomScreen.tsx and drives it in Chromium.
// #region dom-widget
'use dom';

import 'hub-embed/define';
import type {} from 'hub-embed/react';

interface HubDomWidgetProps {
  /** The service's addresses, from the app's build (EXPO_PUBLIC_ variables), never from a link. */
  baseUrl: string;
  formUrl: string;
  /** A native action: the app's token for the signed-in user (why it is asked, and the token it replaces). */
  getToken: (request: {
    reason: 'initial' | 'expiring' | 'unauthorized';
    previous?: string;
  }) => Promise<{ access_token: string; expires_in: number }>;
  /** A native action: what the widget did, for the app to act on. */
  hear: (what: string) => Promise<void>;
  /** Expo's `DOMProps` (expo/dom): on iOS and Android, the props of the WebView the component runs in. */
  dom?: object;
}

export default function HubDomWidget({ baseUrl, formUrl, getToken, hear }: HubDomWidgetProps) {
  return (
    <hub-embed
      base-url={baseUrl}
      form-url={formUrl}
      tokenProvider={({ reason, previous }) => getToken({ reason, previous })}
      onhub-ready={(event) => void hear(`ready:${event.detail.matching}`)}
      onhub-form-open={(event) => void hear(`opened:${event.detail.shortCode}`)}
      style={{ display: 'block', height: '100vh' }}
    />
  );
}
// #endregion dom-widget
