import type { WrongBackend } from './harness.js';

/** Java's String.hashCode, as a cache keyed by `userId.hashCode()` files it. */
function javaHashCode(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0;
  return hash;
}

/** A token cache filed under a 32-bit hash of the user id: "Aa" and "BB" share a token. */
export const backend: WrongBackend = {
  mistake: 'a token cache keyed by a 32-bit hash of the user id (Aa and BB share a token)',
  fails: ['receiver.colliding-users-own-tokens'],
  parts: { cacheKey: (user) => String(javaHashCode(user)) },
};
