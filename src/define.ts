// Entry of the plain builds (`hub-embed/define`, dist/hub-embed.iife.js): every element registered
// (src/components/register.ts). They carry no bridge: <hub-embed bridge="auto"> runs as a web page, and says
// once per page, as it connects, that the bridge is in the WebView build. As it connects, not later: a page
// that set no token-endpoint (an app's page, all of whose tokens were to come from the host) never gets to
// hub-ready, and its developer must still read why.
import { useHostLinker } from './components/hub-embed/host.js';

let told = false;

// As a fallback only: a page that also loads hub-embed/webview, in either order, keeps the bridge.
useHostLinker(() => {
  if (!told)
    console.warn(
      'hub-embed: bridge="auto" needs the WebView build (hub-embed/webview or hub-embed-webview.iife.js); running as a web page.',
    );
  told = true;
  return undefined;
}, true);

export * from './components/register.js';
