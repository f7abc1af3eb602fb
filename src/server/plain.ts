/**
 * A handler in plain values, shaped by neither node:http nor the Web Request API: what it reads of a
 * request and the answer it gives. The token handler offers one beside its Web-standard form, so that toNodeListener can serve
 * it on node:http without building a Request (with its AbortController and body stream) and a Response
 * (with its body stream) for every call: those were most of its cost. No Node imports here: the token
 * handler also runs on other Web-standard runtimes.
 */

export interface PlainInput {
  /** Upper case. */
  readonly method: string;
  /** A header's value (name in lower case), or null. */
  header(name: string): string | null;
  /** The Request for callbacks written against one (the session lookup), made when first asked for. */
  request(): Request;
  /**
   * The body, read up to `maxBytes` (stopping there); undefined when it is longer, or declared longer.
   * Empty when there is none, or when a callback already read it.
   */
  body(maxBytes: number): Promise<Uint8Array | undefined>;
}

export interface PlainAnswer {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** The answer's text; null for no body. */
  body: string | null;
}

export type PlainHandler = (input: PlainInput) => Promise<PlainAnswer>;

/** Where a handler keeps its plain form, for toNodeListener to find. */
export const PLAIN_HANDLER = Symbol('hub-embed plain handler');

export function plainHandlerOf(handler: object): PlainHandler | undefined {
  return (handler as { [PLAIN_HANDLER]?: PlainHandler })[PLAIN_HANDLER];
}
