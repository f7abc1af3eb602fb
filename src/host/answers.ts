/** Answers to the page's requests: the hello, the app's methods, at most maxInFlight at once, each within timeoutMs. */
import type { HelloResult } from '../bridge/methods.js';
import { BRIDGE_VERSION, BridgeError, failure } from '../bridge/protocol.js';
import type { BridgeMessage } from '../bridge/protocol.js';
import { typedMethods } from './app-handlers.js';
import type { HostKernelOptions } from './types.js';

/**
 * The kernel's answerer: runs a page request to its answer (the `ok`, `result` or `error` of the reply),
 * by the app's typed handlers and `options.methods`. `timeoutMs` 0: no limit.
 */
export function createAnswerer(
  options: HostKernelOptions,
  timeoutMs: number,
): (request: BridgeMessage) => Promise<Partial<BridgeMessage>> {
  const { handlers = {} } = options;
  const maxInFlight = options.maxInFlight ?? 1000;
  const typed = typedMethods(handlers);
  const custom = options.methods ?? {};
  /** The handler of a method now: the app's own methods first, then its typed handlers (read each time). */
  const handlerOf = (method: string) =>
    Object.hasOwn(custom, method) ? custom[method] : Object.hasOwn(typed, method) ? typed[method] : undefined;
  const has = (method: string) => typeof handlerOf(method) === 'function';
  let inFlight = 0;

  function hello(request: BridgeMessage): unknown {
    const own = handlerOf('bridge.hello');
    if (own) return own(request.params, request);
    const names = new Set([...Object.keys(typed), ...Object.keys(custom)]);
    const capabilities = [...names].filter((method) => method !== 'bridge.hello' && has(method));
    return {
      v: BRIDGE_VERSION,
      platform: options.platform,
      ...(options.appVersion !== undefined && { appVersion: options.appVersion }),
      capabilities,
      config: {},
      ...options.hello,
    } satisfies HelloResult;
  }

  /** Runs a page request to its answer: a result, or an error from the protocol's closed set of codes. */
  return async function answer(request: BridgeMessage): Promise<Partial<BridgeMessage>> {
    const method = request.method!;
    try {
      let result: unknown;
      if (method === 'bridge.hello') result = await hello(request);
      else if (!has(method)) throw new BridgeError('E_NO_HANDLER', `the app handles no ${method}`);
      else if (inFlight >= maxInFlight) throw new BridgeError('E_UNSUPPORTED', 'too many requests at once');
      else {
        inFlight++;
        try {
          result = await settleWithin(
            Promise.resolve().then(() => handlerOf(method)!(request.params, request)),
            method,
            timeoutMs,
          );
        } finally {
          inFlight--;
        }
      }
      return { ok: true, result: result ?? null };
    } catch (error) {
      return failure(error);
    }
  };
}

function settleWithin<T>(work: Promise<T>, method: string, timeoutMs: number): Promise<T> {
  if (timeoutMs <= 0) return work;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new BridgeError('E_TIMEOUT', `the app did not answer ${method} in time`)), timeoutMs);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
