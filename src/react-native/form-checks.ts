/**
 * The native form's two checks: which URLs may fill the screen in the form Modal, and which messages of
 * the form WebView come from the form page itself.
 */
import { toScriptLiteral } from '../bridge/protocol.js';
import { isRecord } from '../core/http.js';
import { isLoopbackHost } from '../core/loopback.js';
import { originOf } from '../host/navigation.js';

/**
 * Whether the form Modal may show `url`: an https URL (or http on loopback) whose origin is one the app
 * allows (the widget page's and `allowedOrigins`). A `data:` page, a script URL or another site never
 * fills the screen under the app's name.
 */
export function isFormUrl(url: string, allowedOrigins: readonly string[]): boolean {
  const origin = typeof url === 'string' ? originOf(url) : undefined;
  if (!origin || !allowedOrigins.includes(origin)) return false;
  // Plain http only on a loopback host, where a development form site runs: the same rule as the widget's.
  return origin.startsWith('https://') || (origin.startsWith('http://') && isLoopbackHost(new URL(origin).hostname));
}

/**
 * Injected in the form WebView's main frame: what the form page posts to its parent (at the top of the
 * WebView, its parent is itself) goes to the app, marked with `nonce`, which no other frame can read.
 */
export function formRelayScript(nonce: string): string {
  return `(function () {
  var nonce = ${toScriptLiteral(nonce)};
  addEventListener('message', function (event) {
    if (event.source !== window || !window.ReactNativeWebView) return;
    var text;
    try { text = JSON.stringify({ hubEmbedForm: nonce, origin: event.origin, data: event.data }); } catch (error) { return; }
    window.ReactNativeWebView.postMessage(text);
  });
})();
true;`;
}

/** The form page's message in `raw` (as `{value}`), or undefined for anything the relay did not post. */
export function readFormMessage(
  raw: unknown,
  nonce: string,
  formOrigin: string | undefined,
): { value: unknown } | undefined {
  if (typeof raw !== 'string' || raw.length > 1024 * 1024) return undefined;
  let message: unknown;
  try {
    message = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (!isRecord(message) || message.hubEmbedForm !== nonce || message.origin !== formOrigin) return undefined;
  return { value: message.data };
}
