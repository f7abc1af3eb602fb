/** The checks on every value the page posts: a bounded string, a v1 message, of this page load and of a session. */
import { MAX_MESSAGE_CHARS, parseMessage } from '../bridge/protocol.js';
import type { BridgeMessage } from '../bridge/protocol.js';
import type { TransportName } from '../bridge/protocol.js';

/**
 * The longest session id kept. The page's are a dozen characters; the host keeps every session's id for
 * the load, so a page that said hello with megabyte ids would hold megabytes each.
 */
export const MAX_SID_CHARS = 64;

/** What a message must match to be for the current page load. */
export interface PageLoad {
  /** The load's nonce; false for a channel with none (`nonce: false`). */
  nonce: string | false;
  /** The page sessions that said hello during this load. */
  sessions: readonly string[];
  transport: TransportName;
}

/** The message, or why the raw value is dropped: the reason the kernel reports to `onRejected`. */
export function admit(raw: unknown, load: PageLoad): BridgeMessage | string {
  // A native channel hands over strings; anything else is not from the page's bridge.
  if (typeof raw !== 'string') return 'not a string';
  if (raw.length > MAX_MESSAGE_CHARS) return 'too large';
  const message = parseMessage(raw);
  if (typeof message === 'string') return message;
  if (message.sid.length > MAX_SID_CHARS) return 'malformed';
  return refusal(message, load) ?? message;
}

/** Why this message is dropped, or undefined when it is for this page load. */
function refusal(message: BridgeMessage, { nonce, sessions, transport }: PageLoad): string | undefined {
  if (nonce !== false && message.nonce !== nonce) return 'nonce';
  // WeChat answers the hello in the page, so its host learns sessions from the events themselves.
  if (message.kind === 'req' && message.method === 'bridge.hello') return undefined;
  if (transport === 'wechat') return undefined;
  return sessions.includes(message.sid) ? undefined : 'sid';
}
