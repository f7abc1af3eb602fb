// The plain builds' registration, which `hub-embed/define` (src/define.ts) and dist/hub-embed.iife.js
// (src/script-tag.ts) both import: every element registered (src/components/register.ts). Plain builds
// carry no bridge: <hub-embed bridge="auto"> runs as a web page, and says once per page, as it connects,
// that the bridge is in the WebView build. As it connects, not later: a page that set no token-endpoint (an
// app's page, all of whose tokens were to come from the host) never gets to hub-ready, and its developer
// must still read why.
import { NO_BRIDGE_BUILD, NO_BRIDGE_MS } from './core/bridge-wait.js';
import { useHostLinker } from './components/hub-embed/host.js';
import './components/register.js';
import { HubError } from './core/errors.js';

let told = false;

// As a fallback only: a page that also loads hub-embed/webview, in either order, keeps the bridge.
// Short, since every plain page carries it: the file a <script> page needs (a bundler's page imports hub-embed/webview).
useHostLinker((element) => {
  if (!told) console.warn(`hub-embed: ${NO_BRIDGE_BUILD}`);
  told = true;
  // A page with a token source of its own runs as a web page. One whose tokens were all to come from the
  // app shows its loading state as long as the app waits for its hello, then says what to check, in the
  // words of the app's no-bridge error.
  const own = () => element.tokenEndpoint || element.tokenProvider;
  if (own()) return undefined;
  return {
    ready: new Promise((resolve) => setTimeout(resolve, NO_BRIDGE_MS)),
    tokens() {
      if (own()) return undefined;
      throw new HubError('config', NO_BRIDGE_BUILD);
    },
    openForm: () => Promise.resolve(false),
    tell() {},
    close() {},
  };
}, true);
