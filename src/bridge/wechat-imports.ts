// What the WeChat add-on (src/bridge/wechat.ts, src/webview/enable-wechat.ts) takes from the WebView bridge,
// and the only module outside the add-on that it imports at run time. In the ES build it is an ordinary
// module. The classic add-on script (dist/hub-embed-wechat.js, vite.config.ts) cannot import: there each
// name resolves to the same name on the `HubEmbed` global of dist/hub-embed-webview.iife.js (src/webview.ts
// exports them), and the add-on's build refuses any other import that leaves the add-on.
//
// Shared, not copied: the transport registry is the bridge's own, and the add-on's errors are the bridge's
// BridgeError, which toBridgeError passes on as they are (`instanceof BridgeError`).
export { BridgeError } from './protocol.js';
export { addTransport } from './transports.js';
