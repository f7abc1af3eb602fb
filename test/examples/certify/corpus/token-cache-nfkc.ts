import type { WrongBackend } from './harness.js';

/** The token cache keyed by the id in Unicode NFKC, "to be safe": a fullwidth letter names the same user. */
export const backend: WrongBackend = {
  mistake: 'a token cache keyed by the NFKC-normalised id: "ａlice" and "alice" share a token',
  fails: ['receiver.colliding-users-own-tokens'],
  parts: { cacheKey: (user) => user.normalize('NFKC') },
};
