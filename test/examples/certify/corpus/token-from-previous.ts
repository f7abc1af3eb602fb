import type { WrongBackend } from './harness.js';

/** A refresh for whoever `previous` belonged to: any user holding another's token gets fresh ones of theirs. */
export const backend: WrongBackend = {
  mistake: 'a refreshed token is bound to the previous token\u2019s user, not the session\u2019s',
  fails: ['token.unauthorized-gets-new-token'],
  parts: {
    tokenUser: ({ body, sessionUser }, tokens) =>
      sessionUser === undefined
        ? undefined
        : ((typeof body.previous === 'string' ? tokens.ownerOf.get(body.previous) : undefined) ?? sessionUser),
  },
};
