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

/**
 * Over HTTPS the session cookie is `__Host-example_session`: the prefix makes browsers refuse it unless it
 * is `Secure`, has `Path=/` and no `Domain`, so a page on a sibling subdomain can neither set it for this
 * host nor plant one on a narrower path. The prefix needs `Secure`, which a plain-HTTP page cannot set
 * (Safari refuses it even on localhost), so local development over http:// uses the unprefixed name:
 * that is the documented local exception (examples/express/README.md), and there a request that carries
 * the cookie twice is refused (below) instead of trusting either copy.
 */
const SECURE_COOKIE = '__Host-example_session';
const LOCAL_COOKIE = 'example_session';
/** Sessions kept in all. Past this, sign-in is refused: evicting someone else's would sign them out. */
const MAX_SESSIONS = 10_000;
/**
 * Sessions one user keeps; their next sign-in ends their own oldest, nobody else's. Per user, not per
 * client address: behind a proxy or a tunnel every sign-in comes from the same address.
 */
const MAX_SESSIONS_PER_USER = 20;
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
 * What a request with the session cookie twice is answered: one copy was planted by another page
 * (a sibling origin can set a cookie for this host on a narrower path), and either could be the
 * attacker's. The answer's Set-Cookie headers (`clear()`) remove both.
 */
export const TWO_SESSION_COOKIES =
  'This request carries two session cookies, so it is refused: one was set by another site. Both are cleared now; sign in again.';

/**
 * @typedef {object} Session
 * @property {User} user
 * @property {number} createdAt ms since the epoch
 */

/**
 * @param {{ secure?: boolean, now?: () => number, maxSessions?: number, maxPerUser?: number }} [options]
 *   `secure`: the app is served over HTTPS (its public origin starts with https:); default false.
 */
export function createSessions(options = {}) {
  const { secure = false, now = Date.now, maxSessions = MAX_SESSIONS, maxPerUser = MAX_SESSIONS_PER_USER } = options;
  const name = secure ? SECURE_COOKIE : LOCAL_COOKIE;
  const attributes = `Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
  /** @type {Map<string, Session>} oldest first */
  const sessions = new Map();
  /** @type {Map<string, string[]>} each user's session ids, oldest first */
  const byUser = new Map();

  /** @param {string} id */
  const end = (id) => {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    const ids = byUser.get(session.user.id) ?? [];
    ids.splice(ids.indexOf(id), 1);
    if (ids.length === 0) byUser.delete(session.user.id);
  };

  /** Drops expired sessions, oldest first (the Map keeps insertion order, which is age order). */
  const dropExpired = () => {
    for (const [id, session] of sessions) {
      if (now() - session.createdAt < SESSION_LIFETIME_MS) break;
      end(id);
    }
  };

  /**
   * Every value of this app's session cookie in a Cookie header, well-formed or not: a browser sends one
   * per path it was set on, so more than one means one was planted.
   * @param {string | null | undefined} cookieHeader
   */
  const valuesOf = (cookieHeader) =>
    (cookieHeader ?? '')
      .split(';')
      .map((part) => part.trim().split('='))
      .filter(([cookie]) => cookie === name)
      .map(([, value]) => value ?? '');

  /** @param {string} path */
  const cleared = (path) => `${name}=; Path=${path}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}; Max-Age=0`;

  /**
   * The Set-Cookie values that remove the session cookie from every path a copy of it can sit on for
   * this request: `/`, `/api` and each folder above the request's path (a cookie set on `/api` is sent
   * to `/api/token`). A `__Host-` cookie can only sit on `/`.
   * @param {string} [requestPath]
   */
  const clear = (requestPath = '/') => {
    if (secure) return [cleared('/')];
    const paths = new Set(['/', '/api', '/api/']);
    // Only a plain path: anything else (a `;` that would add a cookie attribute) adds no path.
    const folders = /^\/[\w\-./~%]*$/.test(requestPath) ? requestPath.split('/').filter(Boolean) : [];
    for (let depth = 1; depth <= folders.length; depth++) {
      const path = `/${folders.slice(0, depth).join('/')}`;
      paths.add(path).add(`${path}/`);
    }
    return [...paths].map(cleared);
  };

  return {
    /**
     * The signed-in user of a request's Cookie header, or undefined: also when the header carries the
     * session cookie twice (see `ambiguous`).
     * @param {string | null | undefined} cookieHeader
     */
    userOf(cookieHeader) {
      const values = valuesOf(cookieHeader);
      const id = values.length === 1 && /^[A-Za-z0-9_-]{43}$/.test(values[0] ?? '') ? values[0] : undefined;
      const session = id === undefined ? undefined : sessions.get(id);
      if (!session || now() - session.createdAt >= SESSION_LIFETIME_MS) return undefined;
      return session.user;
    },
    /**
     * Whether a request carries the session cookie more than once: refuse it (400, TWO_SESSION_COOKIES)
     * with the Set-Cookie values of `clear()`, before any route reads the session.
     * @param {string | null | undefined} cookieHeader
     */
    ambiguous(cookieHeader) {
      return valuesOf(cookieHeader).length > 1;
    },
    clear,
    /**
     * Starts a session for one of USERS; returns the Set-Cookie value. A user signing in again and again
     * only ends their own oldest sessions; a full store refuses (SessionsFullError) rather than signing
     * out someone else.
     * @param {User} user
     */
    signIn(user) {
      const own = byUser.get(user.id) ?? [];
      if (own.length >= maxPerUser) end(/** @type {string} */ (own[0]));
      if (sessions.size >= maxSessions) dropExpired();
      if (sessions.size >= maxSessions) throw new SessionsFullError('Too many people are signed in; try again later.');
      const id = randomId();
      sessions.set(id, { user, createdAt: now() });
      byUser.set(user.id, [...(byUser.get(user.id) ?? []), id]);
      return `${name}=${id}; ${attributes}`;
    },
    /**
     * Ends every session the request names (a planted one included) and returns the Set-Cookie values
     * that clear the cookie from every path this app uses.
     * @param {string | null | undefined} cookieHeader
     */
    signOut(cookieHeader) {
      for (const id of valuesOf(cookieHeader)) end(id);
      return clear('/');
    },
  };
}

/** @typedef {ReturnType<typeof createSessions>} Sessions */
