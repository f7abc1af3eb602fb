// A React Native screen with the widget: the app's own server gives the token (token-route.ts, called by
// hub-token.ts with the app's session), forms open in the component's native Modal, links out of the
// widget go to the system browser. Type-checked against react-native's and react-native-webview's type
// definitions (npm run typecheck) and run by test/native-hosts/react-native-example.test.ts against the real
// WebView bundle and the simulator; docs/react-native.md quotes it.
// #region screen
import { useRef, useState } from 'react';
import { Button, KeyboardAvoidingView } from 'react-native';
import { SafeAreaView } from 'react-native-safe-area-context';
import { HubEmbedView, type HubEmbedViewHandle } from 'hub-embed/react-native';
import { hubTokenFrom } from './hub-token';

export interface TablesScreenProps {
  /** Your page with `<hub-embed bridge="auto">` and dist/hub-embed-webview.iife.js, on your origin. */
  widgetPage: string;
  /** Your form site's `{form_url}` origin: forms of this origin open in the native Modal. */
  formOrigin: string;
  /** Your server's token route (token-route.ts). */
  tokenRoute: string;
  /** Your app's own session token, from its sign-in. */
  sessionToken: () => string;
}

export default function TablesScreen({ widgetPage, formOrigin, tokenRoute, sessionToken }: TablesScreenProps) {
  const hub = useRef<HubEmbedViewHandle>(null);
  const [tags, setTags] = useState<string[]>([]);
  return (
    // Edge to edge (Android 15 with targetSdk 35, every app on Android 16, every Expo SDK 54 app) the window
    // no longer resizes for the keyboard, so adjustResize does not keep the fields clear: the screen keeps
    // clear of the bars and the keyboard itself, by their insets (the safe area's; the keyboard's as padding).
    <SafeAreaView style={{ flex: 1 }} edges={['top', 'right', 'bottom', 'left']}>
      <KeyboardAvoidingView style={{ flex: 1 }} behavior="padding">
        {/* Works before the page is ready too: the call waits for it (E_TIMEOUT after 10 s). */}
        <Button
          title="Refresh"
          onPress={() => hub.current?.refresh().catch((error: Error) => console.warn('refresh failed:', error.message))}
        />
        <HubEmbedView
          ref={hub}
          source={{ uri: widgetPage }}
          allowedOrigins={[formOrigin]}
          getToken={hubTokenFrom(tokenRoute, sessionToken)}
          // Controlled, like a TextInput's value: the prop is the selection, and the user's pick comes back here.
          tags={tags}
          onTagsChanged={({ tags: picked }) => setTags(picked)}
          onReady={({ version }) => console.log('widget ready', version)}
          onTableSelected={({ shortCode, name }) => console.log('opening', shortCode, name)}
          // The form site sends no messages of its own: a payment reaches your server as billing_deduct.
          onFormClosed={({ shortCode, reason }) => console.log('form closed', shortCode, reason)}
          onWidgetError={({ kind, message }) => console.warn(kind, message)}
          onRejected={(reason) => console.warn('bridge message dropped:', reason)}
        />
        <Button title="Only HR" onPress={() => setTags(['HR'])} />
      </KeyboardAvoidingView>
    </SafeAreaView>
  );
}
// #endregion screen
