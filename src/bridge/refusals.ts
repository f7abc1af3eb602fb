/** Why a call or event cannot go now: a closed bridge, no host, a full queue, too many open calls. */
import type { State } from './bridge-types.js';
import { BridgeError } from './protocol.js';

export const NO_HOST = 'no host';

/** Why a call or event cannot go now; `waiting`: it would have to queue, behind `queued` others. */
export function refusal(state: State, waiting: boolean, queued: number, queueLimit: number): BridgeError | undefined {
  return state === 'closed'
    ? new BridgeError('E_CANCELLED', 'bridge closed')
    : state === 'none'
      ? new BridgeError('E_UNSUPPORTED', NO_HOST)
      : waiting && queued >= queueLimit
        ? new BridgeError('E_UNSUPPORTED', 'queue full')
        : undefined;
}

/**
 * Why a call of `method` cannot be opened beside `open` open calls: `pendingLimit` of them are open
 * already. The hello never counts: the handshake must not fail for the calls that wait for it.
 */
export function tooManyCalls(method: string, open: number, pendingLimit: number): BridgeError | undefined {
  return open >= pendingLimit && method !== 'bridge.hello'
    ? new BridgeError('E_UNSUPPORTED', 'too many pending calls')
    : undefined;
}
