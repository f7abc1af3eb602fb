// The parts docs/server.md's node:http example calls "yours", in memory: sign-in by cookie (sessions that
// expire), a ledger that charges each event once and never past the balance, an inbox, and
// `GET /api/points` (the balance and the inbox's links, built by the spec's rule when shown, with the
// token the token route also hands out), which certify reads as its two test hooks.
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { buildNotificationLink } from 'hub-embed/core';
import { createMemoryTokenCache, createServerClient, type BillingEvent } from 'hub-embed/server';

const USERS: Record<string, { clientUserId: string; openingCents: number }> = {
  alice: { clientUserId: 'user-alice', openingCents: 2000 },
  bob: { clientUserId: 'user-bob', openingCents: 0 },
};
const COOKIE = 'session';
/** How long a sign-in lasts; the cookie says the same, and an expired session is dropped when met. */
const SESSION_MS = 8 * 60 * 60 * 1000;
const sessions = new Map<string, { userId: string; expiresAt: number }>();
const balances = new Map<string, number>();
/** Cents charged and not refunded per user: a refund gives back a charge, it never creates money. */
const charged = new Map<string, number>();
const eventKeys = new Set<string>();
const messages = new Map<string, { title: string; content: string; linkUrl: string }[]>();
const client = createServerClient({ apiKey: process.env.HUB_API_KEY ?? '', baseUrl: process.env.HUB_BASE_URL ?? '' });
/** The users' tokens, shared with the token route (server.ts passes it as its cache): one token per user. */
export const tokens = createMemoryTokenCache();
const exchanging = new Map<string, Promise<string>>();

function cookieOf(header: string | null | undefined): string | null {
  for (const part of (header ?? '').split(';')) {
    const [name, value] = part.trim().split('=');
    if (name !== COOKIE || value === undefined) continue;
    const session = sessions.get(value);
    if (session && session.expiresAt > Date.now()) return session.userId;
    sessions.delete(value);
  }
  return null;
}

/** Drops every expired session, so sign-ins that are never used again do not pile up. */
function dropExpiredSessions(): void {
  const now = Date.now();
  for (const [id, session] of sessions) if (session.expiresAt <= now) sessions.delete(id);
}

/** The user's token: the cached one while more than half its lifetime is left (the token route's rule), else one exchange. */
async function tokenFor(userId: string): Promise<string> {
  const cached = await tokens.get(userId);
  if (cached && cached.expiresAt - Date.now() > (cached.expiresAt - cached.issuedAt) / 2) return cached.accessToken;
  let pending = exchanging.get(userId);
  if (!pending) {
    pending = client
      .exchangeToken(userId)
      .then(({ accessToken, expiresIn }) => {
        const issuedAt = Date.now();
        tokens.set(userId, { accessToken, issuedAt, expiresAt: issuedAt + expiresIn * 1000 }, expiresIn * 500);
        return accessToken;
      })
      .finally(() => exchanging.delete(userId));
    exchanging.set(userId, pending);
  }
  return pending;
}

/** A notification's link, or null for one whose link_url is unsafe: one bad link spoils only itself. */
function linkOf(formUrl: string, linkUrl: string, accessToken: string): string | null {
  try {
    return buildNotificationLink(formUrl, linkUrl, accessToken);
  } catch {
    return null;
  }
}

export function sessionUserId(request: Request): string | null {
  return cookieOf(request.headers.get('cookie'));
}

const keyOf = (event: BillingEvent) => createHash('sha256').update(JSON.stringify(event.raw)).digest('base64url');

export const ledger = {
  /** Checks and charges in one step (no await between): two deducts cannot both see the same balance. */
  async tryDeduct(event: BillingEvent, signal: AbortSignal): Promise<boolean> {
    const key = keyOf(event);
    if (eventKeys.has(key)) return true;
    const balance = balances.get(event.clientUserId);
    if (signal.aborted || balance === undefined || balance < event.amountCents) return false;
    balances.set(event.clientUserId, balance - event.amountCents);
    charged.set(event.clientUserId, (charged.get(event.clientUserId) ?? 0) + event.amountCents);
    eventKeys.add(key);
    return true;
  },
  async refund(event: BillingEvent): Promise<void> {
    const key = keyOf(event);
    if (eventKeys.has(key)) return;
    const chargedCents = charged.get(event.clientUserId) ?? 0;
    if (event.amountCents > chargedCents) throw new Error('a refund of more than was charged');
    charged.set(event.clientUserId, chargedCents - event.amountCents);
    balances.set(event.clientUserId, (balances.get(event.clientUserId) ?? 0) + event.amountCents);
    eventKeys.add(key);
  },
};

export const inbox = {
  add(userId: string | null, notification: { title: string; content: string; linkUrl: string }): void {
    if (userId !== null) messages.set(userId, [...(messages.get(userId) ?? []), notification]);
  },
};

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
  res.end(JSON.stringify(body));
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of req) {
    body += String(chunk);
    if (body.length > 1024) throw new Error('a sign-in form over 1 KB');
  }
  return new URLSearchParams(body);
}

/** Sign-in (`POST /sign-in`, user=alice or bob) and the points API; a failure answers 500. */
export function app(req: IncomingMessage, res: ServerResponse): void {
  routes(req, res).catch(() => (res.headersSent ? res.destroy() : json(res, 500, { error: 'failed' })));
}

async function routes(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { pathname } = new URL(req.url ?? '/', 'http://localhost');
  if (req.method === 'POST' && pathname === '/sign-in') {
    const user = USERS[(await readForm(req)).get('user') ?? ''];
    if (!user) return json(res, 400, { error: 'user must be alice or bob' });
    if (!balances.has(user.clientUserId)) balances.set(user.clientUserId, user.openingCents);
    dropExpiredSessions();
    const id = randomBytes(24).toString('base64url');
    sessions.set(id, { userId: user.clientUserId, expiresAt: Date.now() + SESSION_MS });
    const cookie = `${COOKIE}=${id}; HttpOnly; SameSite=Lax; Path=/; Max-Age=${SESSION_MS / 1000}`;
    return json(res, 200, { ok: true }, { 'set-cookie': cookie });
  }
  const userId = cookieOf(req.headers.cookie);
  if (userId === null) return json(res, 401, { error: 'sign in first' });
  if (req.method === 'GET' && pathname === '/api/points') {
    const accessToken = await tokenFor(userId);
    const formUrl = process.env.HUB_FORM_URL ?? '';
    const links = (messages.get(userId) ?? []).map((message) => linkOf(formUrl, message.linkUrl, accessToken));
    return json(res, 200, { balance_cents: balances.get(userId) ?? 0, links });
  }
  json(res, 404, { error: 'not found' });
}
