/**
 * The page's answers to the host's requests (host → page), as src/host/answers.ts answers the page's: each
 * by the page's handler for its method, its params checked against the method's shape first.
 */
import { HOST_REQUESTS } from './methods.js';
import { BridgeError, failure } from './protocol.js';
import type { BridgeMessage } from './protocol.js';

/** A handler as the bridge keeps it: called only with params of its method's shape (HOST_REQUESTS). */
export type PageHandler = (params: never) => unknown;

/** Runs a host request to its answer: the `ok` and `result`, or `error`, of the reply. Never rejects. */
export async function answerHost(
  handlers: ReadonlyMap<string, PageHandler>,
  { method, params }: BridgeMessage,
): Promise<Partial<BridgeMessage>> {
  try {
    const handler = handlers.get(method!);
    const shape = HOST_REQUESTS.get(method!);
    if (!handler || !shape) throw new BridgeError('E_NO_HANDLER', `${String(method)}: no handler`);
    if (!shape(params)) throw new BridgeError('E_DENIED', `${String(method)}: bad params`);
    // The shape above is the handler's params type (HOST_REQUESTS mirrors HostToPageRequests).
    const result: unknown = await handler((params ?? {}) as never);
    return { ok: true, result: result ?? null };
  } catch (error) {
    return failure(error);
  }
}
