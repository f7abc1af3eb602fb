/** What the host puts into the page: the marker script, its per-load nonce, and the call that hands over a message. */
import { toScriptLiteral } from '../bridge/protocol.js';

/** `window.__hubEmbedReceive(<literal>)`, the literal escaped so no JSON can break out of the script. */
export function receiveScript(json: string): string {
  return `window.__hubEmbedReceive&&window.__hubEmbedReceive(${toScriptLiteral(json)});true;`;
}

/**
 * The script that sets `window.__HUB_EMBED_BRIDGE__` to `marker`, injected before the page's own scripts run.
 * With `origin`, it sets it only in a document of that origin: a WebView that injects into every top-level
 * page (react-native-webview) then tells the nonce to the widget page alone, not to another allowed site.
 */
export function markerScript(marker: Record<string, unknown>, origin?: string): string {
  // Parsed in the page from an escaped literal, so no value can end the script it is injected in.
  const set = `window.__HUB_EMBED_BRIDGE__=JSON.parse(${toScriptLiteral(JSON.stringify(marker))});`;
  return `${origin === undefined ? set : `if(location.origin===${toScriptLiteral(origin)})${set}`}true;`;
}

/**
 * 128 random bits as hex. React Native's Hermes has no `crypto` unless the app adds a polyfill; there
 * Math.random stands in, which still keeps other frames' messages out (they cannot read the marker),
 * the nonce's one job, since any script of the page itself can read it anyway.
 */
export function randomNonce(): string {
  const bytes = new Uint8Array(16);
  const crypto = (globalThis as { crypto?: Crypto }).crypto;
  if (crypto?.getRandomValues) crypto.getRandomValues(bytes);
  else for (let index = 0; index < bytes.length; index++) bytes[index] = Math.floor(Math.random() * 256);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
