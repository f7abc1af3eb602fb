// Entry of dist/hub-embed-webview.iife.js, the WebView <script> bundle: hub-embed/webview's registration and
// bridge, and the `HubEmbed` global with the bridge's connect function.
import './webview.js';

export * from './script-global.js';
export { connectBridge } from './bridge/bridge.js';
// What the WeChat add-on takes from this bundle: the classic dist/hub-embed-wechat.js reads these names on
// the HubEmbed global (build/wechat-imports.ts).
export * from './bridge/wechat-imports.js';
