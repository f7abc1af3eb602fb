import type { WrongBackend } from './harness.js';

/** Visitors get a "guest" token so the widget shows something. */
export const backend: WrongBackend = {
  mistake: 'a caller without a session gets a guest token',
  // A session changed by one character is no session: a guest token too.
  fails: ['token.unauthenticated-refused', 'token.tampered-session-refused'],
  parts: { tokenUser: ({ sessionUser }) => sessionUser ?? 'guest' },
};
