// `hub-embed/webview`: everything hub-embed/define registers, plus the bridge behind <hub-embed bridge="auto">.
// It exports nothing; the bridge's page side is `hub-embed/bridge`.
import './webview/enable-bridge.js';
import './components/register.js';
