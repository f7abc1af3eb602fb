// `hub-embed/define`, the plain builds' registration (dist/hub-embed.iife.js imports it too): every element
// registered (src/components/register.ts), and no exports: each name has one home, the element classes
// `hub-embed`. Plain builds carry no bridge: <hub-embed bridge="auto"> runs as a web page, and says once per
// page, as it connects, that the bridge is in the WebView build. As it connects, not later: a page that set
// no token-endpoint (an app's page, all of whose tokens were to come from the host) never gets to hub-ready,
// and its developer must still read why.
import { useHostLinker } from './components/hub-embed/host.js';
import './components/register.js';

let told = false;

// As a fallback only: a page that also loads hub-embed/webview, in either order, keeps the bridge.
// Short, since every plain page carries it: the file a <script> page needs (a bundler's page imports hub-embed/webview).
useHostLinker(() => {
  if (!told) console.warn('hub-embed: bridge="auto" needs the WebView build, hub-embed-webview.iife.js.');
  told = true;
  return undefined;
}, true);
