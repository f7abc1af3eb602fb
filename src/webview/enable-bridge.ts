// Plugs the WebView bridge into <hub-embed>. A module of its own so that it runs before register.ts
// registers (and so upgrades) any element already in the page. Like every module that acts on import, it
// is listed in package.json "sideEffects": without that, bundlers drop it (test/shipped/tarball.test.ts).
import { enableBridge } from './host-link.js';

enableBridge();
