/** What the page sends: ids, each message's envelope within the size a native channel carries, and posts that may fail. */
import { BridgeError, MAX_MESSAGE_CHARS, envelope } from './protocol.js';
import type { BridgeMessage } from './protocol.js';

/**
 * Session ids and message ids: random, so nothing from an earlier page or another widget can collide.
 * They need to be unique, not secret: any script of the page sees them, and what tells the page's own
 * messages apart is the host's nonce (and, for a parent frame, the origin), never an id. Math.random's
 * ~52 bits are plenty for that, and it exists in every WebView, secure context or not.
 */
export const randomId = () => Math.random().toString(36).slice(2);

/**
 * The message of session `sid` as sent, with the marker's `nonce`; throws for one too large (or not
 * JSON-able, e.g. circular params), before it reaches a native channel that would truncate it.
 */
export function wire(sid: string, nonce: string | undefined, message: Partial<BridgeMessage>): string {
  const json = envelope({ sid, ...message }, nonce);
  if (json.length > MAX_MESSAGE_CHARS) throw new BridgeError('E_UNSUPPORTED', 'message too large');
  return json;
}

/** Whether `work` ran without throwing. */
export function succeeds(work: () => unknown): boolean {
  try {
    work();
    return true;
  } catch {
    return false;
  }
}
