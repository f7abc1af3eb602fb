// The screen around the DOM component of HubDomWidget.tsx, on the web: its token comes from the app's own
// server route with the user's cookie (hubTokenFrom of hub-token.ts, as WebScreen.tsx's); its addresses are
// the build's. A native action runs in the app, not in the DOM component's WebView: on iOS and Android
// give hubTokenFrom the app's bearer session too, as App.tsx does.
// #region dom-screen
import { useState } from 'react';
import { Text, View } from 'react-native';
import HubDomWidget from './HubDomWidget';
import { hubTokenFrom } from './hub-token';

const getToken = hubTokenFrom('/api/hub-token');

export default function DomScreen() {
  const [heard, setHeard] = useState<string[]>([]);
  return (
    <View style={{ flex: 1 }}>
      <Text testID="heard">{heard.join(' ')}</Text>
      <HubDomWidget
        baseUrl={process.env.EXPO_PUBLIC_HUB_BASE_URL ?? ''}
        formUrl={process.env.EXPO_PUBLIC_HUB_FORM_URL ?? ''}
        getToken={getToken}
        hear={async (what) => setHeard((before) => [...before, what])}
        dom={{ style: { flex: 1 } }}
      />
    </View>
  );
}
// #endregion dom-screen
