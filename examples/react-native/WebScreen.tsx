// The screen of an Expo app's web target: one <HubEmbedView> with the props an app shares between iOS,
// Android and the web, `source` for the WebView and `web` for the element (docs/react-native.md, "Web").
// The metro lane (test/metro/expo-web.ts) type-checks it beside App.tsx, exports it with
// `expo export --platform web` and drives it in Chromium. The service's addresses are the build's (Expo
// inlines EXPO_PUBLIC_ variables when it exports), never the page's: a base URL read from the address bar
// would send the user's token to whatever host a link names. The token comes from the app's own server
// route, with the user's session (a cookie on the web); the build holds no secret.
// #region web-screen
import { useState } from 'react';
import { Text, View } from 'react-native';
import { HubEmbedView } from 'hub-embed/react-native';
import { hubTokenFrom } from './hub-token';

const getToken = hubTokenFrom('/api/hub-token');

const web = {
  baseUrl: process.env.EXPO_PUBLIC_HUB_BASE_URL ?? '',
  formUrl: process.env.EXPO_PUBLIC_HUB_FORM_URL ?? '',
};

export default function WebScreen() {
  const [heard, setHeard] = useState<string[]>([]);
  const hear = (what: string) => setHeard((before) => [...before, what]);
  return (
    <View style={{ flex: 1 }}>
      <Text testID="heard">{heard.join(' ')}</Text>
      <HubEmbedView
        source={{ uri: 'https://app.example/hub-embed.html' }}
        web={web}
        getToken={getToken}
        onReady={({ locale }) => hear(`ready:${locale}`)}
        onTableSelected={({ shortCode }) => hear(`selected:${shortCode}`)}
        onFormOpened={({ shortCode, handledBy }) => hear(`opened:${shortCode}:${handledBy}`)}
        onWidgetError={({ kind, message }) => hear(`error:${kind}:${message}`)}
      />
    </View>
  );
}
// #endregion web-screen
