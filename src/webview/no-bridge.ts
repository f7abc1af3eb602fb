// The plain builds have no bridge: <hub-embed bridge="auto"> runs as a web page and says so, once per
// page. A module of its own so that the WebView bundle, which never needs it, does not carry it. Listed
// in package.json "sideEffects", or bundlers would drop it.
import { useHostLinker } from '../components/hub-embed/host.js';

let warned = false;

// As a fallback only: a page that also loads hub-embed/webview, in any order, keeps the bridge.
useHostLinker(() => {
  if (!warned)
    console.warn(
      'hub-embed: bridge="auto" needs the WebView build (hub-embed/webview or hub-embed-webview.iife.js); running as a web page.',
    );
  warned = true;
  return undefined;
}, true);
