/** Which inbound messages a bridge takes: its nonce and session checks, and each host request once. */
import type { BridgeMessage } from './protocol.js';

/** Whether `message` is the host's announcement that it (re)initialised (`bridge.ready`). */
export const announces = (message: BridgeMessage) => message.kind === 'evt' && message.method === 'bridge.ready';

/**
 * Why the bridge of session `sid` that speaks with `nonce` drops `message`, or undefined when it takes it:
 * a nonce other than the bridge's drops any message, the announcement included; the announcement
 * concerns every session; every other message must be of the bridge's own session.
 */
export function dropReason(
  message: BridgeMessage,
  sid: string,
  nonce: string | undefined,
): 'nonce' | 'sid' | undefined {
  return nonce && message.nonce !== nonce ? 'nonce' : announces(message) || message.sid === sid ? undefined : 'sid';
}

/**
 * A filter of the host's request ids: true the first time of each id, so that a duplicate is not answered
 * twice. It forgets every id once it holds more than 200, so a long-lived page does not grow; duplicates
 * only arrive back to back.
 */
export function onceById(): (id: string) => boolean {
  const seen = new Set<string>();
  return (id) => {
    if (seen.has(id)) return false;
    if (seen.size > 200) seen.clear();
    seen.add(id);
    return true;
  };
}
