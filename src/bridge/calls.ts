/** Page → host calls, each from its start to its end: queued or posted, then its reply, timeout, abort or cancel. */
import { RESULTS } from './methods.js';
import { BridgeError, toBridgeError } from './protocol.js';
import type { BridgeErrorCode, BridgeMessage } from './protocol.js';
import { randomId, succeeds } from './sending.js';

/** An open call, as the host kernel keeps its own: how it ends, and whether the host has it. */
export interface Pending {
  /** Ends it with an error, or with a result that must have the method's shape. */
  end(error?: BridgeError, result?: unknown): void;
  /** Posted to the host, so it is not failed by a failed re-handshake. Never set for the hello. */
  sent: boolean;
}

/**
 * The calls of one bridge. `post` sends one message through the transport and throws for one it cannot
 * send; `receive` takes a reply that a post returned (a WKScriptMessageHandlerWithReply's, or WeChat's);
 * `ignore` is told of a reply for a call that is no longer open.
 */
export function createCalls(
  post: (message: Partial<BridgeMessage>) => unknown,
  receive: (reply: unknown) => void,
  ignore: (reason: string) => void,
) {
  /** Open calls by id, queued or sent. */
  const pending = new Map<string, Pending>();
  /** Calls and events held until the handshake, in the order they were made. */
  const queue = new Set<() => void>();

  /** Ends the open call `id` with the host's reply (or a failure); a reply for no open call is only reported. */
  function settle(id: string, error?: BridgeError, result?: unknown): void {
    const open = pending.get(id);
    if (open) open.end(error, result);
    else ignore('late reply');
  }

  /**
   * One call the bridge accepted: held in the queue while `waiting`, else posted now, and never posted when
   * `signal` is already aborted. It ends with its reply (a result of the method's shape), a failed post, its
   * timeout (`timeoutMs`, 0: none) or its signal; the last two tell the host to drop it.
   */
  function call(
    method: string,
    params: unknown,
    waiting: boolean,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const id = randomId();
      const done = (error?: BridgeError, result?: unknown) => {
        pending.delete(id);
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        // A queued call that ends early frees its place in the queue.
        queue.delete(run);
        const shape = !error && RESULTS.get(method);
        if (shape && !shape(result)) error = new BridgeError('E_INTERNAL', `${method}: bad result`);
        if (error) reject(error);
        else resolve(result);
      };
      const stop = (code: BridgeErrorCode, what: string) => {
        done(new BridgeError(code, `${method} ${what}`));
        // Tell the host so it can drop its work (a host that is gone has none); a reply that still comes
        // is ignored by id.
        if (open.sent) succeeds(() => post({ id, kind: 'cancel' }));
      };
      const timer = timeoutMs > 0 ? setTimeout(() => stop('E_TIMEOUT', 'timed out'), timeoutMs) : undefined;
      const onAbort = () => stop('E_CANCELLED', 'cancelled');
      const run = () => {
        // The hello has no timeout or signal, and fails with the handshake: it never counts as sent.
        open.sent = method !== 'bridge.hello';
        // A WKScriptMessageHandlerWithReply (or WeChat, answering for its host) replies through a promise;
        // the other transports return nothing. A post that throws (too large, host gone) fails the call.
        new Promise((resolve) => resolve(post({ id, kind: 'req', method, params }))).then(
          (reply) => {
            if (reply !== undefined && reply !== null) receive(reply);
          },
          (error: unknown) => settle(id, toBridgeError(error)),
        );
      };
      const open: Pending = { end: done, sent: false };
      signal?.addEventListener('abort', onAbort);
      pending.set(id, open);
      // An already-aborted signal ends the call here, before anything is sent.
      if (signal?.aborted) onAbort();
      else if (waiting) queue.add(run);
      else run();
    });
  }

  return { pending, queue, settle, call };
}
