// The plain builds' registration, which `hub-embed/define` (src/define.ts) and dist/hub-embed.iife.js
// (src/script-tag.ts) both import: every element registered (src/components/register.ts). Plain builds
// carry no bridge: <hub-embed bridge="auto"> runs as a web page, and says once per page, as it connects,
// that the bridge is in the WebView build. As it connects, not later: a page that set no token-endpoint (an
// app's page, all of whose tokens were to come from the host) never gets to hub-ready, and its developer
// must still read why.
import { NO_BRIDGE_BUILD } from './core/bridge-wait.js';
import { useHostLinker } from './components/hub-embed/host.js';
import './components/register.js';
import { HubError } from './core/errors.js';

let told = false;

// No host can answer in this build, so nothing is waited for: the page's own token source is used, or the
// notice is the setup error at once (the WebView build waits for a late app; this one has none to wait for).
useHostLinker((element) => {
  if (!told) console.warn(`hub-embed: ${NO_BRIDGE_BUILD}`);
  told = true;
  return {
    ready: Promise.resolve(),
    tokens() {
      if (element.tokenEndpoint || element.tokenProvider) return undefined;
      throw new HubError('config', NO_BRIDGE_BUILD);
    },
    openForm: () => Promise.resolve(false),
    tell() {},
    close() {},
  };
}, true);
