// A React Native screen with the widget: the app's own server gives the token, forms open in the
// component's native Modal, links out of the widget go to the system browser. Type-checked in CI against
// the real react-native and react-native-webview type definitions (npm run typecheck); not run here.
import { useRef, useState } from 'react';
import { Button, View } from 'react-native';
import { HubEmbedView, type HubEmbedViewHandle } from 'hub-embed/react-native';

// Your API, signed in as the app's user. Its server exchanges its API key for the user's token
// (createTokenHandler in hub-embed/server); the key never reaches the app.
async function fetchHubToken(): Promise<{ access_token: string; expires_in: number }> {
  const response = await fetch('https://api.your-app.example/hub-token', { method: 'POST', credentials: 'include' });
  if (!response.ok) throw new Error(`token endpoint answered ${response.status}`);
  return response.json();
}

export default function TablesScreen() {
  const hub = useRef<HubEmbedViewHandle>(null);
  const [tags, setTags] = useState<string[]>([]);
  return (
    <View style={{ flex: 1 }}>
      <Button title="Refresh" onPress={() => void hub.current?.refresh()} />
      <HubEmbedView
        ref={hub}
        // Your page with <hub-embed bridge="auto"> and dist/hub-embed-webview.iife.js.
        source={{ uri: 'https://your-app.example/hub-embed.html' }}
        getToken={fetchHubToken}
        tags={tags}
        onReady={({ version }) => console.log('widget ready', version)}
        onTableSelected={({ shortCode, name }) => console.log('opening', shortCode, name)}
        onFormMessage={({ data }) => console.log('form says', data)}
        onWidgetError={({ kind, message }) => console.warn(kind, message)}
        onRejected={(reason) => console.warn('bridge message dropped:', reason)}
      />
      <Button title="Only HR" onPress={() => setTags(['HR'])} />
    </View>
  );
}
