import type { WrongBackend } from './harness.js';

/** The cached token always, even after the service refused it. */
export const backend: WrongBackend = {
  mistake: 'the token route ignores {reason: "unauthorized"} and answers the cached token',
  fails: ['token.unauthorized-gets-new-token'],
  parts: { fresh: () => false },
};
