import type { WrongBackend } from './harness.js';

/**
 * The 32-bit string hashes a cache keyed by `hash(userId)` is filed under, each written as its usual
 * snippet spells it (not taken from certify, so the corpus checks the grader's collisions, hash by hash).
 */
const HASHES: Record<string, (text: string) => number> = {
  // Java's String.hashCode, as `userId.hashCode()` files it.
  'Java String.hashCode': (text) => {
    let hash = 0;
    for (let i = 0; i < text.length; i++) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0;
    return hash;
  },
  djb2: (text) => {
    let hash = 5381;
    for (let i = 0; i < text.length; i++) hash = ((hash << 5) + hash + text.charCodeAt(i)) >>> 0;
    return hash;
  },
  'djb2 (xor)': (text) => {
    let hash = 5381;
    for (let i = 0; i < text.length; i++) hash = (((hash << 5) + hash) ^ text.charCodeAt(i)) >>> 0;
    return hash;
  },
  sdbm: (text) => {
    let hash = 0;
    for (let i = 0; i < text.length; i++) hash = (text.charCodeAt(i) + (hash << 6) + (hash << 16) - hash) >>> 0;
    return hash;
  },
  'FNV-1': (text) => {
    let hash = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) hash = (Math.imul(hash, 0x01000193) ^ text.charCodeAt(i)) >>> 0;
    return hash;
  },
  'FNV-1a': (text) => {
    let hash = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
    return hash;
  },
};

/** A token cache filed under a 32-bit hash of the user id: under Java's, "Aa" and "BB" share a token. */
export const backends: WrongBackend[] = Object.entries(HASHES).map(([name, hash]) => ({
  mistake: `a token cache keyed by a 32-bit hash of the user id (${name}): two users share a token`,
  fails: ['receiver.colliding-users-own-tokens'],
  parts: { cacheKey: (user: string) => String(hash(user)) },
}));
