import type { WrongBackend } from './harness.js';

/** A token cache of one entry, whoever asks: the first user's token goes to everyone. */
export const backend: WrongBackend = {
  mistake: 'a token not bound to the session: the first cached token is given to every user',
  fails: ['token.bound-to-session-user'],
  parts: {
    tokenUser: ({ sessionUser }, tokens) =>
      sessionUser === undefined ? undefined : ([...tokens.byUser.keys()][0] ?? sessionUser),
  },
};
