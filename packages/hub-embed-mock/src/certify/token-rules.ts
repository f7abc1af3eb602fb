/**
 * The token route's rules (the spec's Authentication section and docs/server.md). The simulator sees
 * every exchange, so the grader knows which end user each token the route gives out is bound to.
 */
import { NotConfigured, RuleFailure, check, type Answer, type Rule } from './grading.js';
import { exchangesSeen, stringsIn, tokenOwner } from './observe.js';
import { brief, describeAnswer, probe, statusOf, type ProbeAnswer } from './probe.js';
import type { Simulator } from '../types.js';
import { originClasses } from './origin-classes.js';
import { impersonations, NOT_VERIFIED, type Forgery } from './session-forgeries.js';

/**
 * How long a backend may keep a token that replaced a refused one, even when told it was refused again
 * (docs/certify.md; hub-embed/server's token route holds it this long): a service refusing what it just
 * issued is not mended by another exchange. The grader's own figure, since it grades backends in any
 * language; a test holds it equal to the toolkit's.
 */
export const REFUSAL_HOLD_MS = 5000;

export interface SessionHeader {
  name: string;
  value: string;
}

export interface TokenRouteContext {
  hub: Simulator;
  tokenRoute: string;
  sessions: SessionHeader[];
  /** An origin the route allows (its page's origin), when the integrator configured Origin rules. */
  origin: string | undefined;
  /** Every answer the backend gave, for the rules graded over all answers. */
  answers: Answer[];
  /** Filled in as sessions are graded: each session's end user, as the simulator saw it. */
  users: (string | undefined)[];
  /** Sessions whose stale token (an earlier simulator's) was already asked to be replaced, and when (performance.now). */
  refreshed: Map<number, number>;
}

type Note = (line: string) => void;

const STRANGER_ORIGIN = 'https://certify-stranger.example';

async function ask(
  context: TokenRouteContext,
  note: Note,
  session: SessionHeader | undefined,
  body: unknown,
  extra: { headers?: Record<string, string>; query?: string } = {},
): Promise<{ answer: ProbeAnswer; token: string | undefined }> {
  const url = context.tokenRoute + (extra.query ?? '');
  const answer = await probe(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      // A browser sends its page's Origin on every POST; a route with allowed origins may require it.
      ...(context.origin ? { origin: context.origin } : {}),
      ...(session ? { [session.name]: session.value } : {}),
      ...extra.headers,
    },
    body: JSON.stringify(body),
    timeoutMs: 15_000,
  });
  context.answers.push({ ...answer, part: 'token-route' });
  const who = session ? `with ${session.name}: ${brief(session.value, 24)}` : 'without a session';
  const headers = Object.entries(extra.headers ?? {})
    .map(([name, value]) => ` ${name}: ${value}`)
    .join('');
  note(`POST ${url} ${who}${headers} ${JSON.stringify(body)} -> ${describeAnswer(answer)}`);
  let token: string | undefined;
  try {
    const parsed = JSON.parse(answer.body) as {
      access_token?: unknown;
      accessToken?: unknown;
      data?: { access_token?: unknown };
    };
    const value = parsed.access_token ?? parsed.accessToken ?? parsed.data?.access_token;
    if (typeof value === 'string' && value !== '') token = value;
  } catch {
    // no JSON: no token
  }
  return { answer, token };
}

/** A token answer for the session, and the user the service bound it to. */
async function tokenFor(
  context: TokenRouteContext,
  note: Note,
  index: number,
  body: unknown = {},
  extra: { headers?: Record<string, string>; query?: string } = {},
) {
  const session = context.sessions[index];
  check(session, `pass --session once per signed-in test user (${index + 1} needed)`);
  const first = await ask(context, note, session, body, extra);
  const answer = first.answer;
  let token = first.token;
  check(
    answer.status !== undefined && answer.status >= 200 && answer.status < 300,
    `answered ${statusOf(answer)}, not 2xx with a token`,
  );
  check(token, 'the answer carries no access_token');
  let owner = await tokenOwner(context.hub, token);
  note(`the simulator says the token belongs to ${owner ?? 'nobody: it did not issue it'}`);
  const earlier = owner === undefined ? earlierSimulatorToken(token) : undefined;
  if (earlier !== undefined && !context.refreshed.has(index)) {
    // What the widget does after the service refuses a token: ask once more, saying so.
    context.refreshed.set(index, performance.now());
    note(
      `that is a token of an earlier simulator (${earlier}), cached by the backend: asking again as the widget would`,
    );
    const again = await ask(context, note, session, { reason: 'unauthorized', previous: token }, extra);
    if (again.token !== undefined) {
      token = again.token;
      owner = await tokenOwner(context.hub, token);
      note(`the simulator says the new token belongs to ${owner ?? 'nobody: it did not issue it'}`);
    }
  }
  const stale = owner === undefined ? earlierSimulatorToken(token) : undefined;
  if (stale !== undefined)
    throw new RuleFailure(
      `${STALE_TOKENS} (${stale}). Restart your backend (or empty its token cache), then run certify again`,
    );
  check(owner, 'the token is not one the service issued (or it has expired)');
  return { token, owner };
}

export const STALE_TOKENS =
  'your backend answers with a token of an earlier simulator (an earlier certify run) that it cached, and {reason: "unauthorized"} did not replace it';

/**
 * When a token the service does not know is one a simulator issued (its claims' shape): who it was for
 * and when. A backend that outlives one certify run keeps the first simulator's tokens in its cache.
 */
export function earlierSimulatorToken(token: string): string | undefined {
  const [, payload] = token.split('.');
  if (payload === undefined) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (typeof claims.sub !== 'string' || typeof claims.jti !== 'string' || typeof claims.iat !== 'number')
      return undefined;
    if (!('developer_id' in claims)) return undefined;
    return `for ${brief(claims.sub, 40)}, issued ${new Date(claims.iat * 1000).toISOString()}`;
  } catch {
    return undefined;
  }
}

/** The query parameters JSONP routes read the callback's name from. */
const JSONP_PARAMS = ['callback', 'jsonp', 'cb'];
const JSONP_CALLBACK = 'certifyCallback';

/** The tokens this simulator issued (and who to) among the JWT-shaped strings in `text`. */
export async function tokensIn(hub: Simulator, text: string): Promise<string[]> {
  const out: string[] = [];
  for (const candidate of new Set(text.match(/[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g) ?? [])) {
    const owner = await tokenOwner(hub, candidate);
    if (owner !== undefined) out.push(owner);
  }
  return out;
}

/** Where a route might read the user from the request (the browser writes all of them). */
const USER_FIELDS = ['client_user_id', 'clientUserId', 'user', 'user_id', 'userId', 'uid', 'sub', 'account'];
const USER_HEADERS = ['x-user-id', 'x-client-user-id', 'x-uid', 'x-user'];

/**
 * Why token.origin-prefix-refused failed, from what the route did: whether it also gave a token to a page on
 * an origin unlike the allowed one (it let every origin in) or refused that one (it let in only origins that
 * begin with the allowed one).
 */
export function prefixLetIn(
  stranger: string,
  answer: Pick<ProbeAnswer, 'status' | 'error'>,
  allowed: string,
  unlikeGotToken: boolean,
): string {
  const got = `a page on ${stranger} got a token (${statusOf(answer)})`;
  return unlikeGotToken
    ? `${got}, and so did one on ${STRANGER_ORIGIN}: the route gave a token whatever Origin it was sent`
    : `${got}, while one on ${STRANGER_ORIGIN} got none: the route let in an origin that begins with ${allowed} and goes on`;
}

export const TOKEN_RULES: Rule<TokenRouteContext>[] = [
  {
    id: 'token.unauthenticated-refused',
    title: 'A call without a session is refused: no token',
    async run(context, note) {
      const before = exchangesSeen(context.hub).length;
      const { answer, token } = await ask(context, note, undefined, {});
      check(token === undefined, 'a token was given to a caller without a session');
      check(answer.status !== undefined && answer.status >= 400, `answered ${statusOf(answer)}, not an error status`);
      check(
        exchangesSeen(context.hub).length === before,
        'the route exchanged a token with the service for a caller without a session',
      );
    },
  },
  {
    id: 'token.bound-to-session-user',
    title: 'The token is bound to the session\u2019s user: two sessions, two users, every token issued by the service',
    async run(context, note) {
      check(context.sessions.length >= 2, 'pass two --session headers, of two different signed-in test users');
      for (let index = 0; index < context.sessions.length; index++) {
        const { owner } = await tokenFor(context, note, index);
        context.users[index] = owner;
        const again = await tokenFor(context, note, index);
        check(again.owner === owner, `the same session got tokens of two users (${owner}, ${again.owner})`);
      }
      check(
        new Set(context.users).size === context.users.length,
        `two sessions got tokens of the same user (${context.users.join(', ')})`,
      );
    },
  },
  {
    id: 'token.browser-cannot-choose-user',
    title: 'The browser cannot choose client_user_id: one sent in the body, the query or a header is ignored',
    async run(context, note) {
      const chosen = 'certify-chosen-by-browser';
      const body = Object.fromEntries(USER_FIELDS.map((field) => [field, chosen]));
      const query = `?${USER_FIELDS.map((field) => `${field}=${chosen}`).join('&')}`;
      const headers = Object.fromEntries(USER_HEADERS.map((name) => [name, chosen]));
      const { owner } = await tokenFor(context, note, 0, body, { query, headers });
      check(owner !== chosen, 'the token belongs to the client_user_id the browser sent');
      const signedIn = context.users[0] ?? (await tokenFor(context, note, 0)).owner;
      check(owner === signedIn, `the token belongs to ${owner}, not to the session's user ${signedIn}`);
    },
  },
  {
    id: 'token.unauthorized-gets-new-token',
    title:
      '{reason: "unauthorized", previous} gets a different token, of the session\u2019s user (another user\u2019s previous changes nothing)',
    async run(context, note) {
      const first = await tokenFor(context, note, 0);
      let second = await tokenFor(context, note, 0, { reason: 'unauthorized', previous: first.token });
      const replacedAt = context.refreshed.get(0);
      if (second.token === first.token && replacedAt !== undefined) {
        // This run already had the backend replace an earlier run's token. hub-embed/server keeps such a
        // replacement for REFUSAL_HOLD_MS even when told it was refused (a service refusing what it just
        // issued is not fixed by another exchange): ask again once that hold is over, as a page would.
        const wait = Math.max(0, replacedAt + REFUSAL_HOLD_MS + 500 - performance.now());
        note(
          `the same token came back: it replaced an earlier run's token ${Math.round((performance.now() - replacedAt) / 1000)} s ago, and a backend may hold a replacement ${REFUSAL_HOLD_MS / 1000} s; asking again in ${Math.round(wait)} ms`,
        );
        await new Promise((resolve) => setTimeout(resolve, wait));
        second = await tokenFor(context, note, 0, { reason: 'unauthorized', previous: first.token });
        check(
          second.token !== first.token,
          `the same token came back after the service refused it, also ${REFUSAL_HOLD_MS / 1000 + 0.5} s after it replaced an earlier run's token. A backend that holds a replacement longer fails here on a second run: restart it (or empty its token cache) before running certify again`,
        );
      }
      check(second.token !== first.token, 'the same token came back after the service refused it');
      check(second.owner === first.owner, `the new token belongs to ${second.owner}, not ${first.owner}`);
      // `previous` says which token failed, never whose token to make: another user's changes nothing.
      // (Graded when the two sessions are known to be two users; token.bound-to-session-user says if not.)
      const secondUser = context.users[1];
      if (secondUser === undefined || secondUser === first.owner) return;
      const other = await tokenFor(context, note, 1, { reason: 'unauthorized', previous: second.token });
      check(
        other.owner === secondUser,
        `the second session, sending the first one's token as previous, got a token of ${other.owner}, not ${secondUser}`,
      );
    },
  },
  {
    id: 'token.origin-rules',
    title:
      'With allowed origins configured, a call from another origin is refused and one from an allowed origin answered',
    async run(context, note) {
      if (context.origin === undefined)
        throw new NotConfigured('not configured: pass --origin with the origin your token route allows to grade it');
      const stranger = await ask(context, note, context.sessions[0], {}, { headers: { origin: STRANGER_ORIGIN } });
      check(stranger.token === undefined, `a page on ${STRANGER_ORIGIN} got a token`);
      check(
        stranger.answer.status === 403,
        `a call from ${STRANGER_ORIGIN} was answered ${statusOf(stranger.answer)}, not 403`,
      );
      await tokenFor(context, note, 0, {}, { headers: { origin: context.origin } });
    },
  },
  {
    id: 'token.origin-prefix-refused',
    title:
      'An origin that extends an allowed one (<origin>.evil.example, <origin>@evil.example, another port, …) gets no token',
    async run(context, note) {
      if (context.origin === undefined)
        throw new NotConfigured('not configured: pass --origin with the origin your token route allows to grade it');
      // What the route does with an origin unlike the allowed one says which mistake a failure shows.
      const unlike = await ask(context, note, context.sessions[0], {}, { headers: { origin: STRANGER_ORIGIN } });
      for (const stranger of extendedOrigins(context.origin)) {
        const { answer, token } = await ask(context, note, context.sessions[0], {}, { headers: { origin: stranger } });
        check(token === undefined, prefixLetIn(stranger, answer, context.origin, unlike.token !== undefined));
        check(
          answer.status !== undefined && answer.status >= 400,
          `a call from ${stranger} was answered ${statusOf(answer)}, not an error status`,
        );
      }
    },
  },
  {
    id: 'token.origin-classes-refused',
    title:
      'Origins of every other class get no token: Origin: null, the allowed host as a suffix or under a subdomain, another scheme, another port',
    async run(context, note) {
      if (context.origin === undefined)
        throw new NotConfigured('not configured: pass --origin with the origin your token route allows to grade it');
      const given: string[] = [];
      for (const { origin, what } of originClasses(context.origin)) {
        const { answer, token } = await ask(context, note, context.sessions[0], {}, { headers: { origin } });
        if (token !== undefined || answer.status === undefined || answer.status < 400)
          given.push(
            `${what}: Origin ${origin} was answered ${statusOf(answer)}${token === undefined ? '' : ' with a token'}`,
          );
      }
      check(given.length === 0, `${given.join('; ')}. Compare the whole origin with the allowed ones, exactly`);
    },
  },
  {
    id: 'token.jsonp-refused',
    title:
      'A GET of the token route with a callback parameter (JSONP, what a <script> on any site sends with the user\u2019s cookies) gets no token as script',
    async run(context, note) {
      const session = context.sessions[0];
      check(session, 'pass --session once per signed-in test user (1 needed)');
      for (const param of JSONP_PARAMS) {
        const url = `${context.tokenRoute}${context.tokenRoute.includes('?') ? '&' : '?'}${param}=${JSONP_CALLBACK}`;
        // What a browser sends for <script src> from another site: no Origin, the fetch metadata of a script.
        const answer = await probe(url, {
          headers: {
            [session.name]: session.value,
            referer: `${STRANGER_ORIGIN}/`,
            'sec-fetch-dest': 'script',
            'sec-fetch-mode': 'no-cors',
            'sec-fetch-site': 'cross-site',
          },
          timeoutMs: 15_000,
        });
        context.answers.push({ ...answer, part: 'token-route' });
        note(`GET ${url} with ${session.name} -> ${describeAnswer(answer)}`);
        const script =
          answer.body.includes(`${JSONP_CALLBACK}(`) || /(java|ecma)script/i.test(answer.headers['content-type'] ?? '');
        const tokens = await tokensIn(context.hub, answer.body);
        check(
          !(script && tokens.length > 0),
          `answered ${statusOf(answer)} with script that hands ${JSONP_CALLBACK}() a token of ${tokens.join(', ')}: any site that loads it with <script src> reads the user's token. Answer the token only to POST, with Origin checked`,
        );
      }
    },
  },
  {
    id: 'token.tampered-session-refused',
    title:
      'A session the backend did not issue gets no token: one character changed, a JWT re-sent with alg "none", the user id inside it changed, one signed with a well-known secret',
    async run(context, note) {
      const session = context.sessions[0];
      check(session, 'pass --session once per signed-in test user (1 needed)');
      const user = context.users[0];
      const other = context.users[1] ?? 'certify-forged-user';
      const forged = [
        ...forgedSessions(session.value),
        ...(user === undefined ? [] : impersonations(session.value, user, other)),
      ];
      check(forged.length > 0, `found no credential to change in the session ${brief(session.value, 40)}`);
      for (const { value, what, shows } of forged) {
        const { answer, token } = await ask(context, note, { name: session.name, value }, {});
        if (token === undefined) continue;
        const owner = await tokenOwner(context.hub, token);
        throw new RuleFailure(
          `${what} got a token (${statusOf(answer)}) of ${owner ?? 'a user the service does not know'}: ${shows}`,
        );
      }
    },
  },
];

/**
 * Origins a route matching by prefix lets in: the allowed one with more text after it. Each is a page an
 * attacker can host (a host of their own under the name, another port) or a value a non-browser sends.
 */
export function extendedOrigins(origin: string): string[] {
  const out = [`${origin}.evil.example`, `${origin}@evil.example`, `${origin}-evil.example`, `${origin}evil.example`];
  const port = new URL(origin).port;
  if (port === '') out.push(`${origin}:8443`);
  else if (Number(`${port}0`) <= 65535) out.push(`${origin}0`);
  return out;
}

const CREDENTIAL = /[A-Za-z0-9_~+/-]+(?:\.[A-Za-z0-9_~+/-]*)*/g;

/** The same character class, another character: the value stays well formed, only its content changes. */
function otherChar(char: string): string | undefined {
  if (/[0-9]/.test(char)) return String((Number(char) + 1) % 10);
  if (/[a-y]|[A-Y]/.test(char)) return String.fromCharCode(char.charCodeAt(0) + 1);
  if (char === 'z') return 'a';
  if (char === 'Z') return 'A';
  return undefined;
}

/** `text` with the character at or after `at` (a letter or digit) changed. */
function changedAt(text: string, at: number): string | undefined {
  for (let index = at; index < text.length; index++) {
    const other = otherChar(text[index]!);
    if (other !== undefined) return text.slice(0, index) + other + text.slice(index + 1);
  }
  return undefined;
}

/**
 * Forgeries of a session header's value: its credential (the longest cookie value, bearer token or run of
 * token characters) changed by one character in its middle; for a JWT, one character in the middle of the
 * payload and of the signature (never the last character, whose low bits base64url may not use), and the
 * same claims re-sent with `alg: "none"` and no signature.
 */
export function forgedSessions(value: string): Forgery[] {
  const runs = [...value.matchAll(CREDENTIAL)].sort((one, other) => other[0].length - one[0].length);
  const run = runs[0];
  if (run === undefined) return [];
  const credential = run[0];
  const within = (changed: string) => value.slice(0, run.index) + changed + value.slice(run.index + credential.length);
  const out: Forgery[] = [];
  // Each is the user's own session changed without a secret: a token for it shows no check let it through.
  const add = (changed: string | undefined, what: string) => {
    if (changed !== undefined && changed !== credential)
      out.push({ value: within(changed), what, shows: NOT_VERIFIED });
  };
  const segments = credential.split('.');
  let header: Record<string, unknown> | undefined;
  try {
    const parsed = JSON.parse(Buffer.from(segments[0] ?? '', 'base64url').toString('utf8')) as unknown;
    if (segments.length === 3 && typeof parsed === 'object' && parsed !== null && 'alg' in parsed) header = parsed;
  } catch {
    // not a JWT
  }
  if (header === undefined) {
    add(changedAt(credential, Math.floor(credential.length / 2)), 'the session with one character changed');
    return out;
  }
  const [head = '', payload = '', signature = ''] = segments;
  add(
    `${head}.${changedAt(payload, Math.floor(payload.length / 2)) ?? payload}.${signature}`,
    'the session JWT with one character of its payload changed',
  );
  add(
    `${head}.${payload}.${changedAt(signature, Math.floor(signature.length / 2)) ?? signature}`,
    'the session JWT with one character of its signature changed',
  );
  for (const alg of ['none', 'None']) {
    const unsigned = Buffer.from(JSON.stringify({ ...header, alg })).toString('base64url');
    add(`${unsigned}.${payload}.`, `the session JWT re-sent with alg "${alg}" and no signature`);
  }
  return out;
}

/**
 * The ways a key is written into text without being hidden: as is, percent-encoded (every byte, or only
 * where needed), hex, and base64 or base64url at each of the three alignments it can have inside a longer
 * encoded blob (a token, a cookie, a "state" value). Each base64 form is the part of the encoding that only
 * the key's own bytes decide.
 */
export function keySpellings(apiKey: string): string[] {
  const bytes = Buffer.from(apiKey, 'utf8');
  const hex = bytes.toString('hex');
  const spellings = [apiKey, encodeURIComponent(apiKey), hex, hex.toUpperCase()];
  spellings.push([...bytes].map((byte) => `%${byte.toString(16).padStart(2, '0').toUpperCase()}`).join(''));
  for (let skip = 0; skip < 3; skip++) {
    const whole = bytes.subarray(skip, skip + Math.floor((bytes.length - skip) / 3) * 3);
    spellings.push(whole.toString('base64'), whole.toString('base64url'));
  }
  return [...new Set(spellings)];
}

/** Percent-escapes and JSON's \u escapes undone where they are well formed: a key written so is found too. */
function decoded(text: string): string[] {
  const out = [text];
  out.push(
    text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    }),
  );
  try {
    out.push(stringsIn(JSON.parse(text)).join('\n'));
  } catch {
    // not JSON
  }
  return out;
}

/** Graded last, over every answer of both parts: run after the other rules. */
export function apiKeyRule(apiKey: string): Rule<{ answers: Answer[] }> {
  const spellings = keySpellings(apiKey);
  return {
    id: 'api-key-never-answered',
    title: 'The API key appears in no answer and no header the backend sent, in no encoding',
    run(context, note) {
      note(
        `searched ${context.answers.length} answers (headers and bodies) for the key as is, percent-encoded, hex, and base64 or base64url at any alignment`,
      );
      for (const answer of context.answers) {
        const texts = [...decoded(JSON.stringify(answer.headers)), ...decoded(answer.body)];
        const found = spellings.find((spelling) => texts.some((text) => text.includes(spelling)));
        check(
          found === undefined,
          `an answer (${statusOf(answer)}) carries the API key${found === apiKey ? '' : ` (written ${JSON.stringify(found)})`}: ${describeAnswer(answer).replaceAll(found ?? '', '<API key>')}`,
        );
      }
      return Promise.resolve();
    },
  };
}
