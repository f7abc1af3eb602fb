// How long a page with bridge="auto" waits for its app, and what it says when the app never spoke: in the
// words the app hears too. The plain build shows it on the page (src/define-plain.ts); <HubEmbedView> puts it in
// its no-bridge error (src/react-native). A leaf: what imports it takes only what it uses.

/**
 * How long a bridge page shows its loading state while its app is late, before it says what to check;
 * <HubEmbedView> waits as long for the page's hello before its no-bridge error.
 */
export const NO_BRIDGE_MS = 5000;

/** What a page with bridge="auto" in the plain build (no bridge in it) says. */
export const NO_BRIDGE_BUILD = 'bridge="auto" needs the WebView build, hub-embed-webview.iife.js.';
