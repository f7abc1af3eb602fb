/**
 * The token route's rules (the spec's Authentication section and docs/server.md). The simulator sees
 * every exchange, so the grader knows which end user each token the route gives out is bound to.
 */
import { NotConfigured, check, type Rule } from './grading.js';
import { exchangesSeen, tokenOwner } from './observe.js';
import { brief, describeAnswer, probe, statusOf, type ProbeAnswer } from './probe.js';
import type { Simulator } from '../types.js';

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
  /** Every answer the backend gave, for the API-key rule. */
  answers: ProbeAnswer[];
  /** Filled in as sessions are graded: each session's end user, as the simulator saw it. */
  users: (string | undefined)[];
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
  context.answers.push(answer);
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
async function tokenFor(context: TokenRouteContext, note: Note, index: number, body: unknown = {}, extra = {}) {
  const session = context.sessions[index];
  check(session, `pass --session once per signed-in test user (${index + 1} needed)`);
  const { answer, token } = await ask(context, note, session, body, extra);
  check(
    answer.status !== undefined && answer.status >= 200 && answer.status < 300,
    `answered ${statusOf(answer)}, not 2xx with a token`,
  );
  check(token, 'the answer carries no access_token');
  const owner = await tokenOwner(context.hub, token);
  note(`the simulator says the token belongs to ${owner ?? 'nobody: it did not issue it'}`);
  check(owner, 'the token is not one the service issued (or it has expired)');
  return { token, owner };
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
    title: 'The browser cannot choose client_user_id: one sent in the body or the query is ignored',
    async run(context, note) {
      const chosen = 'certify-chosen-by-browser';
      const body = { client_user_id: chosen, clientUserId: chosen, user: chosen, user_id: chosen };
      const { owner } = await tokenFor(context, note, 0, body, { query: `?client_user_id=${chosen}&user=${chosen}` });
      check(owner !== chosen, 'the token belongs to the client_user_id the browser sent');
      const signedIn = context.users[0] ?? (await tokenFor(context, note, 0)).owner;
      check(owner === signedIn, `the token belongs to ${owner}, not to the session's user ${signedIn}`);
    },
  },
  {
    id: 'token.unauthorized-gets-new-token',
    title: '{reason: "unauthorized", previous} gets a different token, of the same user',
    async run(context, note) {
      const first = await tokenFor(context, note, 0);
      const second = await tokenFor(context, note, 0, { reason: 'unauthorized', previous: first.token });
      check(second.token !== first.token, 'the same token came back after the service refused it');
      check(second.owner === first.owner, `the new token belongs to ${second.owner}, not ${first.owner}`);
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
];

/** Graded last, over every answer of both parts: run after the other rules. */
export function apiKeyRule(apiKey: string): Rule<{ answers: ProbeAnswer[] }> {
  const spellings = [apiKey, encodeURIComponent(apiKey), Buffer.from(apiKey).toString('base64')];
  return {
    id: 'api-key-never-answered',
    title: 'The API key appears in no answer and no header the backend sent',
    run(context, note) {
      note(`searched ${context.answers.length} answers (headers and bodies) for the key, URL-encoded and base64`);
      for (const answer of context.answers) {
        const text = `${JSON.stringify(answer.headers)}\n${answer.body}`;
        const found = spellings.find((spelling) => text.includes(spelling));
        check(
          found === undefined,
          `an answer (${statusOf(answer)}) carries the API key: ${describeAnswer(answer).replaceAll(found ?? '', '<API key>')}`,
        );
      }
      return Promise.resolve();
    },
  };
}
