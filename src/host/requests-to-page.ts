/** The host's requests to the page: an id each, the wait for the page's answer, timeouts, failing them all at once. */
import { BridgeError } from '../bridge/protocol.js';
import type { BridgeErrorCode, BridgeMessage } from '../bridge/protocol.js';

interface Waiting {
  resolve(result: unknown): void;
  reject(error: BridgeError): void;
  /** The page session asked; undefined while the request waits for a page to say hello. */
  sid?: string;
  /** Sends the request to page session `sid` (once a page said hello, for a request made before). */
  send(sid: string): void;
}

/** `send` delivers one message (without its envelope) to the page. */
export function createRequestsToPage(send: (message: Partial<BridgeMessage>) => void) {
  let counter = 0;
  /** Host-to-page requests waiting for the page's answer, or for a page to ask. */
  const waiting = new Map<string, Waiting>();

  return {
    /**
     * Asks page session `sid`; fails E_TIMEOUT after `timeoutMs` (0: never). Without a `sid` (no page said
     * hello yet) the request waits for the first session to say one, within the same `timeoutMs`: an app
     * that calls refresh() right after mount gets the page's answer, not a refusal.
     */
    ask(sid: string | undefined, method: string, params: unknown, timeoutMs: number): Promise<unknown> {
      return new Promise<unknown>((resolve, fail) => {
        const id = `h${++counter}`;
        let timer: ReturnType<typeof setTimeout> | undefined;
        const settle =
          <A>(then: (arg: A) => void) =>
          (arg: A) => {
            clearTimeout(timer);
            waiting.delete(id);
            then(arg);
          };
        const call: Waiting = {
          resolve: settle(resolve),
          reject: settle(fail),
          send(to) {
            call.sid = to;
            send({ sid: to, id, kind: 'req', method, params });
          },
        };
        waiting.set(id, call);
        if (timeoutMs > 0)
          timer = setTimeout(() => {
            const what = call.sid ? `${method} timed out` : `${method} timed out: no widget page said hello`;
            waiting.get(id)?.reject(new BridgeError('E_TIMEOUT', what));
          }, timeoutMs);
        if (sid) call.send(sid);
      });
    },
    /** A page session said hello (and has its answer): the requests made before any page did go to it. */
    helloFrom(sid: string): void {
      for (const call of [...waiting.values()]) if (!call.sid) call.send(sid);
    },
    /** Settles the request a `res` answers; false when no request of that session has its id. */
    settle(answer: BridgeMessage): boolean {
      const call = waiting.get(answer.id);
      if (!call || !call.sid || call.sid !== answer.sid) return false;
      waiting.delete(answer.id);
      if (answer.ok === true) call.resolve(answer.result);
      else call.reject(new BridgeError(answer.error!.code, answer.error!.message));
      return true;
    },
    /**
     * Fails every request sent to a page (a reload: that page is gone), and with `all` also those still
     * waiting for a hello (close()).
     */
    failAll(code: BridgeErrorCode, message: string, { all = false } = {}): void {
      for (const call of [...waiting.values()]) if (all || call.sid) call.reject(new BridgeError(code, message));
    },
  };
}
