/** The host's requests to the page: an id each, the wait for the page's answer, timeouts, failing them all at once. */
import { BridgeError } from '../bridge/protocol.js';
import type { BridgeErrorCode, BridgeMessage } from '../bridge/protocol.js';

interface Waiting {
  resolve(result: unknown): void;
  reject(error: BridgeError): void;
  sid: string;
}

/** `send` delivers one message (without its envelope) to the page. */
export function createRequestsToPage(send: (message: Partial<BridgeMessage>) => void) {
  let counter = 0;
  /** Host-to-page requests waiting for the page's answer. */
  const waiting = new Map<string, Waiting>();

  return {
    /** Asks page session `sid`; fails E_TIMEOUT after `timeoutMs` (0: never). */
    ask(sid: string, method: string, params: unknown, timeoutMs: number): Promise<unknown> {
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
        waiting.set(id, { resolve: settle(resolve), reject: settle(fail), sid });
        if (timeoutMs > 0)
          timer = setTimeout(
            () => waiting.get(id)?.reject(new BridgeError('E_TIMEOUT', `${method} timed out`)),
            timeoutMs,
          );
        send({ sid, id, kind: 'req', method, params });
      });
    },
    /** Settles the request a `res` answers; false when no request of that session has its id. */
    settle(answer: BridgeMessage): boolean {
      const call = waiting.get(answer.id);
      if (!call || call.sid !== answer.sid) return false;
      waiting.delete(answer.id);
      if (answer.ok === true) call.resolve(answer.result);
      else call.reject(new BridgeError(answer.error!.code, answer.error!.message));
      return true;
    },
    /** Fails every request still waiting (a reload, close()). */
    failAll(code: BridgeErrorCode, message: string): void {
      for (const call of [...waiting.values()]) call.reject(new BridgeError(code, message));
    },
  };
}
