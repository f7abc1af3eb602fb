/**
 * Answers to the host's requests (widget.refresh, widget.setTags, form.close): the page's handlers, each
 * request's params checked before its handler runs, and a result or an error from the protocol's closed
 * set of codes. The page-side mirror of src/host/answers.ts; the bridge sends what this returns.
 */
import { HOST_REQUESTS } from './methods.js';
import type { Guard, HostToPageRequests } from './methods.js';
import { BridgeError, toBridgeError } from './protocol.js';
import type { BridgeMessage, MessageBody } from './protocol.js';

type Params<M extends keyof HostToPageRequests> = HostToPageRequests[M]['params'];
type Result<M extends keyof HostToPageRequests> = HostToPageRequests[M]['result'];

/** The page's handler of one host request. */
export type PageHandler<M extends keyof HostToPageRequests> = (params: Params<M>) => Result<M> | Promise<Result<M>>;

/** HOST_REQUESTS as a map from each method to the guard of its own params, so a method's guard and handler agree. */
const PARAMS: { [M in keyof HostToPageRequests]: Guard<Params<M>> } = HOST_REQUESTS;

/** A handler as the page keeps it: its params checked first, then the handler run; throws what the answer carries. */
type Runner = (params: unknown) => unknown;

export interface PageAnswers {
  /** The methods with a handler now, which the hello announces as the page's capabilities. */
  methods: () => string[];
  /** Sets the handler of `method`; the function returned removes it (unless another replaced it). */
  handle: <M extends keyof HostToPageRequests>(method: M, handler: PageHandler<M>) => () => void;
  /** Runs a host request to the body of its answer: `ok` and `result`, or `ok: false` and `error`. */
  answer: (request: BridgeMessage) => Promise<MessageBody>;
}

export function createPageAnswers(): PageAnswers {
  // A Map, so that a host asking for a method called `toString` finds nothing.
  const runners = new Map<string, Runner>();

  return {
    methods: () => [...runners.keys()],
    handle(method, handler) {
      const isParams = PARAMS[method];
      const runner: Runner = (params) => {
        if (!isParams(params)) throw new BridgeError('E_DENIED', `${method}: bad params`);
        return handler(params);
      };
      runners.set(method, runner);
      return () => {
        if (runners.get(method) === runner) runners.delete(method);
      };
    },
    async answer({ method, params }) {
      try {
        const runner = method === undefined ? undefined : runners.get(method);
        if (!runner) throw new BridgeError('E_NO_HANDLER', `${method}: no handler`);
        // A request that reads no params may come without them.
        const result = await runner(params === undefined ? {} : params);
        return { ok: true, result: result ?? null };
      } catch (error) {
        const { code, message } = toBridgeError(error);
        return { ok: false, error: { code, message } };
      }
    },
  };
}
