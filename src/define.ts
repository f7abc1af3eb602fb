// Entry of the plain builds (`hub-embed/define`, dist/hub-embed.iife.js): every element registered
// (src/components/register.ts), and bridge="auto" saying once that the bridge is in the WebView build.
import './webview/no-bridge.js';

export * from './components/register.js';
