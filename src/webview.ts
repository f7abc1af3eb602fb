// Entry of the WebView build (`hub-embed/webview`, dist/hub-embed-webview.iife.js): everything
// src/components/register.ts registers and exposes, plus the bridge behind <hub-embed bridge="auto">.
import './webview/enable-bridge.js';

export * from './components/register.js';
export { connectBridge } from './bridge/bridge.js';
// What the WeChat add-on takes from this bundle: the classic dist/hub-embed-wechat.js reads these names on
// the HubEmbed global (vite.config.ts, wechatLink).
export * from './bridge/wechat-link.js';
