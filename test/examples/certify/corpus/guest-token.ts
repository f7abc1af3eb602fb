import type { WrongBackend } from './harness.js';

/** Visitors get a "guest" token so the widget shows something. */
export const backend: WrongBackend = {
  mistake: 'a caller without a session gets a guest token',
  fails: ['token.unauthenticated-refused'],
  parts: { tokenUser: ({ sessionUser }) => sessionUser ?? 'guest' },
};
