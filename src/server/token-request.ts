/** Reading a token request: a Request as plain input, and its small body within a size and a time bound. */
import type { TokenLoad, TokenReason } from '../core/token-source.js';
import { readBodyBytes } from './body.js';
import type { PlainInput } from './plain.js';
import { parseLoad } from './prefetch.js';
import { within } from './within.js';

/**
 * The one reason that changes what the handler does, in the widget's own word (core's TokenReason, which the
 * bridge's auth.getToken carries too): the service refused `previous`, so its cached copy goes.
 */
const REFUSED = 'unauthorized' satisfies TokenReason;

/** A Request as the handler reads it. */
export function webInput(request: Request): PlainInput {
  return {
    method: request.method,
    header: (name) => request.headers.get(name),
    request: () => request,
    // A resolveClientUserId that read the body itself leaves nothing to read.
    body: async (maxBytes) =>
      request.body === null || request.bodyUsed ? new Uint8Array(0) : readBodyBytes(request, maxBytes),
  };
}

/** The body holds the refused token and what the widget loads next, which are small; a bigger one is answered 413. */
export const MAX_TOKEN_REQUEST_BYTES = 8192;
export const TOO_LARGE = Symbol('body too large');
export const TOO_SLOW = Symbol('body too slow');

/** What the handler reads from the body: both parts optional, anything odd simply absent. */
export interface TokenRequestBody {
  /** The token the browser says the service refused (`previous`, as the browser's TokenContext names it). */
  previous?: string;
  /** What the widget loads next, for the prefetch (`load`, as in the browser's TokenContext). */
  load?: TokenLoad;
}

/**
 * `previous` from a `{reason: 'unauthorized', previous}` body and `load` (tags and limit); anything
 * else (or no body) is ignored. Reading stops at MAX_TOKEN_REQUEST_BYTES, so an endless upload costs 8 KB, not
 * whatever the client sends.
 */
export async function readTokenRequest(
  input: PlainInput,
  timeoutMs: number,
): Promise<TokenRequestBody | typeof TOO_LARGE | typeof TOO_SLOW> {
  let text: string;
  try {
    const bytes = await within(input.body(MAX_TOKEN_REQUEST_BYTES), timeoutMs, (): typeof TOO_SLOW => TOO_SLOW);
    if (bytes === TOO_SLOW) return TOO_SLOW;
    if (bytes === undefined) return TOO_LARGE;
    text = new TextDecoder().decode(bytes);
  } catch {
    return {};
  }
  return parseTokenRequest(text);
}

function parseTokenRequest(text: string): TokenRequestBody {
  let body: { reason?: unknown; previous?: unknown; load?: unknown } | null;
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return {};
  }
  const previous =
    body?.reason === REFUSED && typeof body.previous === 'string' && body.previous !== '' ? body.previous : undefined;
  return { previous, load: parseLoad(body?.load) };
}
