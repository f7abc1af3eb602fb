// Plugs the WebView bridge into <hub-embed>. A module of its own so that it runs before define.ts
// registers (and so upgrades) any element already in the page.
import { enableBridge } from './host-link.js';

enableBridge();
