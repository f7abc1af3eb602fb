import type { WrongBackend } from './harness.js';

/** The token cache keyed by the lower-cased id (a case-insensitive column or collation does the same). */
export const backend: WrongBackend = {
  mistake: 'a token cache keyed case-insensitively: "Ab" and "aB" share a token',
  fails: ['receiver.colliding-users-own-tokens'],
  parts: { cacheKey: (user) => user.toLowerCase() },
};
