/** `hub-embed/bridge`: the page side of the WebView bridge and its protocol. The mock host is in `hub-embed/host`. */
export * from './runtime.js';
