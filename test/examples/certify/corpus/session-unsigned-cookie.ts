import type { WrongBackend } from './harness.js';

/**
 * The session cookie is base64url JSON of the user, as cookie-session writes it with `signed: false`; the
 * user is looked up in the users table, so a garbled cookie names nobody and is refused.
 */
const USERS = new Set(['user-alice', 'user-bob']);
export const backend: WrongBackend = {
  mistake: 'the session read from an unsigned cookie (base64 JSON of the user)',
  fails: ['token.tampered-session-refused'],
  parts: {
    newSession: (user) => Buffer.from(JSON.stringify({ user })).toString('base64url'),
    sessionOf(value) {
      try {
        const { user } = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as { user?: unknown };
        return typeof user === 'string' && USERS.has(user) ? user : undefined;
      } catch {
        return undefined;
      }
    },
  },
};
