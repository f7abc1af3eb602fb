// `hub-embed/define`: registers every element (src/components/register.ts), and exports nothing: each name
// has one home, the element classes `hub-embed`. Plain builds carry no bridge: with bridge="auto", the form
// half says once that the bridge is in the WebView build (no-bridge-notice.ts).
import './components/register.js';
