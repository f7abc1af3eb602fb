/**
 * An end user's id becomes a cache key, a Redis key and a query parameter, all of which carry UTF-8. A
 * string with a lone surrogate has no UTF-8 spelling: encoders write U+FFFD in its place, so
 * "alice\uD800" and "alice\uFFFD" would share one key and one user would get the other's token. Such
 * ids are refused wherever they enter, never stored.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isWellFormedId(id: string): boolean {
  return !LONE_SURROGATE.test(id);
}

export const ILL_FORMED_ID =
  'clientUserId is not well-formed UTF-16 (it has a lone surrogate), so it has no UTF-8 spelling and would share a key with another id; fix the session lookup that made it.';
