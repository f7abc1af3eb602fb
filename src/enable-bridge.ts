// Plugs the WebView bridge into <hub-embed>. A module of its own so that it runs before define.ts
// registers (and so upgrades) any element already in the page.
import { connectBridge } from './bridge/bridge.js';
import { enableBridge } from './components/hub-embed/hub-embed.js';

enableBridge(connectBridge);
