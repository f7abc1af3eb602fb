// Entry of the WebView build (`hub-embed/webview`, dist/hub-embed-webview.iife.js): everything
// register.ts registers and exposes, plus the bridge behind <hub-embed bridge="auto">.
import './enable-bridge.js';

export * from './register.js';
export { connectBridge } from './bridge/bridge.js';
