import type { WrongBackend } from './harness.js';

/** "Let the page say whom it is for": a userId in the body wins over the session. */
export const backend: WrongBackend = {
  mistake: 'the token route takes the user id from the request body',
  fails: ['token.browser-cannot-choose-user'],
  parts: {
    tokenUser: ({ body, sessionUser }) =>
      sessionUser === undefined ? undefined : typeof body.userId === 'string' ? body.userId : sessionUser,
  },
};
