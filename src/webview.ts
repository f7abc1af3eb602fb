// Entry of the WebView build (`hub-embed/webview`, dist/hub-embed-webview.iife.js): everything
// define.ts registers and exposes, plus the bridge behind <hub-embed bridge="auto">.
import './enable-bridge.js';

export * from './define.js';
export { connectBridge } from './bridge/bridge.js';
