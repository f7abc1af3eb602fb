// @ts-check
// A cookie session: the browser holds only a random id; which user it belongs to stays on the server.
// In your app this is your framework's session (express-session, your auth provider, ...).
import { randomBytes } from 'node:crypto';

/** The example's own users. The page picks one by `id`; only the server knows the client_user_id. */
export const USERS = /** @type {const} */ ([
  { id: 'alice', name: 'Alice', clientUserId: 'user-alice', openingCents: 2000 },
  { id: 'bob', name: 'Bob', clientUserId: 'user-bob', openingCents: 0 },
]);

/** @typedef {(typeof USERS)[number]} User */

const COOKIE = 'example_session';
const MAX_SESSIONS = 10_000;

export function createSessions() {
  /** @type {Map<string, User>} */
  const sessions = new Map();

  /** @param {string | null | undefined} cookieHeader */
  const idOf = (cookieHeader) => {
    for (const part of (cookieHeader ?? '').split(';')) {
      const [name, value] = part.trim().split('=');
      if (name === COOKIE && value && /^[A-Za-z0-9_-]{43}$/.test(value)) return value;
    }
    return undefined;
  };

  return {
    /** The signed-in user of a request's Cookie header, or undefined. @param {string | null | undefined} cookieHeader */
    userOf(cookieHeader) {
      const id = idOf(cookieHeader);
      return id === undefined ? undefined : sessions.get(id);
    },
    /** Starts a session for one of USERS; returns the Set-Cookie value. @param {User} user */
    signIn(user) {
      const id = randomBytes(32).toString('base64url');
      if (sessions.size >= MAX_SESSIONS) sessions.delete(/** @type {string} */ (sessions.keys().next().value));
      sessions.set(id, user);
      return `${COOKIE}=${id}; Path=/; HttpOnly; SameSite=Lax`;
    },
    /** Ends the request's session; returns the Set-Cookie value that clears it. @param {string | null | undefined} cookieHeader */
    signOut(cookieHeader) {
      const id = idOf(cookieHeader);
      if (id !== undefined) sessions.delete(id);
      return `${COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`;
    },
  };
}

/** @typedef {ReturnType<typeof createSessions>} Sessions */
