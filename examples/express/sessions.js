// @ts-check
// A cookie session: the browser holds only a random id; which user it belongs to stays on the server.
// In your app this is your framework's session (express-session, your auth provider, ...).
// Web Crypto only (no node:crypto), so the Hono example (examples/hono) uses it on every runtime.

/** The example's own users. The page picks one by `id`; only the server knows the client_user_id. */
export const USERS = /** @type {const} */ ([
  { id: 'alice', name: 'Alice', clientUserId: 'user-alice', openingCents: 2000 },
  { id: 'bob', name: 'Bob', clientUserId: 'user-bob', openingCents: 0 },
]);

/** @typedef {(typeof USERS)[number]} User */

const COOKIE = 'example_session';
/** Sessions kept in all. Past this, sign-in is refused: evicting someone else's would sign them out. */
const MAX_SESSIONS = 10_000;
/** Sessions one client address keeps; its next sign-in ends its own oldest, nobody else's. */
const MAX_SESSIONS_PER_CLIENT = 20;
/** A session older than this is over; the oldest are dropped first when the store is full. */
const SESSION_LIFETIME_MS = 24 * 3600_000;

/** 32 random bytes as base64url: 43 characters. */
function randomId() {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}

/** Sign-in refused because the store is full of live sessions; answer 503. */
export class SessionsFullError extends Error {}

/**
 * @typedef {object} Session
 * @property {User} user
 * @property {string} client the address that signed in
 * @property {number} createdAt ms since the epoch
 */

/** @param {{ now?: () => number, maxSessions?: number, maxPerClient?: number }} [options] */
export function createSessions(options = {}) {
  const { now = Date.now, maxSessions = MAX_SESSIONS, maxPerClient = MAX_SESSIONS_PER_CLIENT } = options;
  /** @type {Map<string, Session>} oldest first */
  const sessions = new Map();
  /** @type {Map<string, string[]>} each client's session ids, oldest first */
  const byClient = new Map();

  /** @param {string} id */
  const end = (id) => {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    const ids = byClient.get(session.client) ?? [];
    ids.splice(ids.indexOf(id), 1);
    if (ids.length === 0) byClient.delete(session.client);
  };

  /** Drops expired sessions, oldest first (the Map keeps insertion order, which is age order). */
  const dropExpired = () => {
    for (const [id, session] of sessions) {
      if (now() - session.createdAt < SESSION_LIFETIME_MS) break;
      end(id);
    }
  };

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
      const session = id === undefined ? undefined : sessions.get(id);
      if (!session || now() - session.createdAt >= SESSION_LIFETIME_MS) return undefined;
      return session.user;
    },
    /**
     * Starts a session for one of USERS; returns the Set-Cookie value. One client signing in again and
     * again only ends its own oldest sessions; a full store refuses (SessionsFullError) rather than
     * signing out someone else.
     * @param {User} user @param {string} client the request's socket address
     */
    signIn(user, client) {
      const own = byClient.get(client) ?? [];
      if (own.length >= maxPerClient) end(/** @type {string} */ (own[0]));
      if (sessions.size >= maxSessions) dropExpired();
      if (sessions.size >= maxSessions) throw new SessionsFullError('Too many people are signed in; try again later.');
      const id = randomId();
      sessions.set(id, { user, client, createdAt: now() });
      byClient.set(client, [...(byClient.get(client) ?? []), id]);
      return `${COOKIE}=${id}; Path=/; HttpOnly; SameSite=Lax`;
    },
    /** Ends the request's session; returns the Set-Cookie value that clears it. @param {string | null | undefined} cookieHeader */
    signOut(cookieHeader) {
      const id = idOf(cookieHeader);
      if (id !== undefined) end(id);
      return `${COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`;
    },
  };
}

/** @typedef {ReturnType<typeof createSessions>} Sessions */
