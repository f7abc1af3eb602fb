import type { WrongBackend } from './harness.js';

/** A header the page's fetch sets (X-User-Id) believed over the session. */
export const backend: WrongBackend = {
  mistake: 'the token route takes the user id from an X-User-Id header',
  fails: ['token.browser-cannot-choose-user'],
  parts: {
    tokenUser: ({ req, sessionUser }) => {
      const header = req.headers['x-user-id'];
      return sessionUser === undefined ? undefined : typeof header === 'string' ? header : sessionUser;
    },
  },
};
