// Entry of the WebView build (`hub-embed/webview`, dist/hub-embed-webview.iife.js): everything
// src/components/register.ts registers and exposes, plus the bridge behind <hub-embed bridge="auto">.
import './webview/enable-bridge.js';

export * from './components/register.js';
export { connectBridge } from './bridge/bridge.js';
