// The demo's "developer backend": what an integrator runs on its own server. It holds the API key,
// decides the end user from its own session cookie, keeps the wallet that pays for paid actions, and
// receives webhooks.
import { readJsonBody, type BodyProblem } from '../src/server/body.js';
import {
  createServerClient,
  createTokenHandler,
  createWebhookHandler,
  formatCentsAsYuan,
  type WebhookEvent,
} from '../src/server/index.js';
import { HubError } from '../src/core/index.js';

export interface DemoUser {
  id: string;
  name: string;
  clientUserId: string;
}

/** The demo's own accounts. The browser picks one by `id`; only this backend knows the client_user_id. */
export const DEMO_USERS: readonly DemoUser[] = [
  { id: 'alice', name: 'Alice', clientUserId: 'user-alice' },
  { id: 'bob', name: 'Bob', clientUserId: 'user-bob' },
  { id: 'carol', name: 'Carol 陈', clientUserId: 'user-carol' },
];

const COOKIE = 'hub_demo_user';
/**
 * Each demo user starts with this much in the developer's own wallet (what billing_deduct draws on): the
 * price of the dearest form in the simulator's catalogue (¥50.00), so the first Pay a newcomer presses is
 * paid whichever form it is, and a second dear one runs the wallet dry: the decline and Top up come next.
 */
export const WALLET_START_CENTS = 5_000;
/** One top-up moves at most this much: the demo has no payment provider to say otherwise. */
const TOP_UP_MAX_CENTS = 1_000_000;
/** Every JSON body the browser sends here is a few dozen bytes. */
const MAX_BROWSER_BODY_BYTES = 4096;

export interface DemoEvent {
  id: number;
  at: string;
  event: string;
  user: string | null;
  summary: string;
  outcome?: 'ok' | 'declined' | 'refunded' | 'refused';
}

export interface DemoBackendOptions {
  apiKey: string;
  baseUrl: string;
  formUrl: string;
  /**
   * The origins the demo pages are served from (e.g. "http://127.0.0.1:5173"). Browser POSTs from any
   * other origin, or with no Origin, are refused: the session cookie alone must not move anything.
   */
  origins: readonly string[];
  fetch?: typeof fetch;
  /** Source addresses allowed to deliver webhooks. Default: loopback. */
  allowIps?: readonly string[];
}

export interface DemoBackend {
  /** Answers the backend's routes (/api/*, /webhooks/*); undefined for anything else. */
  handle(request: Request, remoteAddress: string | undefined): Promise<Response | undefined>;
  readonly events: readonly DemoEvent[];
  /** The user's wallet in cents; undefined for anyone who is not a demo user. */
  wallet(clientUserId: string): number | undefined;
}

/** A refund the demo ledger will not make; the webhook handler answers it 500 ("Refund failed."). */
class RefundRefused extends Error {}

/** One demo user's account in the developer's own ledger. */
interface Wallet {
  balanceCents: number;
  /** Charged through billing_deduct and not refunded yet: the most a refund may give back. */
  refundableCents: number;
}

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

const yuan = (cents: number) => `¥${formatCentsAsYuan(cents)}`;

/** The demo user the request's session cookie names, if any. */
export function demoUserOf(request: Request): DemoUser | undefined {
  const cookie = request.headers.get('cookie') ?? '';
  const id = /(?:^|;\s*)hub_demo_user=([a-z]+)(?:;|$)/.exec(cookie)?.[1];
  return DEMO_USERS.find((user) => user.id === id);
}

function isJson(request: Request): boolean {
  const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  return type === 'application/json';
}

const BODY_ANSWERS: Record<BodyProblem, [number, string]> = {
  'too-large': [413, `The body is larger than ${MAX_BROWSER_BODY_BYTES} bytes.`],
  'too-slow': [408, 'The body took longer than 10 s to arrive.'],
  'bad-encoding': [400, 'The body is not UTF-8.'],
  'bad-json': [400, 'The body is not valid JSON.'],
};

/** The body as a JSON object, read no further than MAX_BROWSER_BODY_BYTES; otherwise the answer to give. */
async function readObject(request: Request): Promise<Record<string, unknown> | Response> {
  const read = await readJsonBody(request, MAX_BROWSER_BODY_BYTES, 10_000);
  if (!read.ok) {
    const [status, error] = BODY_ANSWERS[read.problem];
    return json({ error }, status);
  }
  const value = read.value;
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : json({ error: 'The body must be a JSON object.' }, 400);
}

export function createDemoBackend(options: DemoBackendOptions): DemoBackend {
  const origins = new Set(options.origins.map((origin) => new URL(origin).origin));
  const client = createServerClient({
    apiKey: options.apiKey,
    baseUrl: options.baseUrl,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  // Only the demo's own users have a wallet; a webhook naming anyone else finds none and moves nothing.
  const wallets = new Map<string, Wallet>(
    DEMO_USERS.map((user) => [user.clientUserId, { balanceCents: WALLET_START_CENTS, refundableCents: 0 }]),
  );
  const events: DemoEvent[] = [];
  let lastEventId = 0;

  function record(event: WebhookEvent, summary: string, outcome?: DemoEvent['outcome']): void {
    events.push({
      id: ++lastEventId,
      at: new Date().toISOString(),
      event: event.event,
      user: event.clientUserId,
      summary,
      ...(outcome ? { outcome } : {}),
    });
    if (events.length > 200) events.shift();
  }

  const tokenHandler = createTokenHandler({
    client,
    allowedOrigins: [...origins],
    resolveClientUserId: (request) => demoUserOf(request)?.clientUserId ?? null,
  });

  const webhookHandler = createWebhookHandler({
    allowIps: options.allowIps ?? ['127.0.0.1', '::1'],
    onNotification: (event) => record(event, `${event.notification.title}: ${event.notification.content}`),
    onBillingDeduct: (event) => {
      const price = `${yuan(event.amountCents)} (${event.amountCents.toLocaleString('en-US')} points)`;
      const wallet = wallets.get(event.clientUserId ?? '');
      if (!wallet) {
        record(event, `${price} declined: unknown user, no wallet`, 'declined');
        return false;
      }
      if (wallet.balanceCents < event.amountCents) {
        record(event, `${price} declined: the wallet has ${yuan(wallet.balanceCents)}; top it up`, 'declined');
        return false;
      }
      wallet.balanceCents -= event.amountCents;
      wallet.refundableCents += event.amountCents;
      record(
        event,
        `${price} paid from the wallet, which has ${yuan(wallet.balanceCents)} left · ${event.reason}`,
        'ok',
      );
      return true;
    },
    onBillingRefund: (event) => {
      const amount = yuan(event.amountCents);
      const wallet = wallets.get(event.clientUserId ?? '');
      const refuse = (why: string) => {
        record(event, `${amount} · refused: ${why}`, 'refused');
        // Thrown, so the service is answered non-2xx: a 200 would tell it the money went back.
        throw new RefundRefused(why);
      };
      if (!wallet) return refuse('unknown user, no wallet');
      // A refund gives back a charge; more than was charged and not yet refunded would create money.
      if (event.amountCents > wallet.refundableCents)
        return refuse(`only ${yuan(wallet.refundableCents)} was charged and not yet refunded`);
      wallet.balanceCents += event.amountCents;
      wallet.refundableCents -= event.amountCents;
      record(event, `${amount} back to the wallet · ${event.reason}`, 'refunded');
    },
    // A refused refund is already in the demo's event list; anything else is a real failure.
    onError: (error) => {
      if (!(error instanceof RefundRefused)) console.error(error);
    },
    onUnknownEvent: (event) => record(event, 'unknown event'),
  });

  async function points(request: Request, user: DemoUser): Promise<Response> {
    const page = Math.max(1, Math.min(1000, Number(new URL(request.url).searchParams.get('page')) || 1));
    const walletCents = wallets.get(user.clientUserId)!.balanceCents;
    try {
      const [balance, logs] = await Promise.all([
        client.balance(user.clientUserId),
        client.logs(user.clientUserId, { page, pageSize: 5 }),
      ]);
      return json({ user: user.name, walletCents, service: { balanceCents: balance.balanceCents, logs } });
    } catch (error) {
      // The service learns of a user at the first token exchange; until then it answers 404 for them.
      if (error instanceof HubError && error.status === 404)
        return json({ user: user.name, walletCents, service: null });
      throw error;
    }
  }

  /** Tops up the wallet that pays for paid actions. A real app does this after its payment provider says paid. */
  async function topUp(request: Request, user: DemoUser): Promise<Response> {
    const body = await readObject(request);
    if (body instanceof Response) return body;
    const amountCents = body.amount_cents;
    if (
      typeof amountCents !== 'number' ||
      !Number.isSafeInteger(amountCents) ||
      amountCents <= 0 ||
      amountCents > TOP_UP_MAX_CENTS
    ) {
      return json({ error: `amount_cents must be a whole number of cents from 1 to ${TOP_UP_MAX_CENTS}.` }, 400);
    }
    const wallet = wallets.get(user.clientUserId)!;
    wallet.balanceCents += amountCents;
    return json({ amountCents, walletCents: wallet.balanceCents });
  }

  async function signIn(request: Request): Promise<Response> {
    const body = await readObject(request);
    if (body instanceof Response) return body;
    const picked = DEMO_USERS.find((candidate) => candidate.id === body.user);
    if (!picked) return json({ error: `user must be one of ${DEMO_USERS.map((u) => u.id).join(', ')}.` }, 400);
    return json({ user: { id: picked.id, name: picked.name } }, 200, {
      'set-cookie': `${COOKIE}=${picked.id}; Path=/; HttpOnly; SameSite=Strict`,
    });
  }

  /**
   * Every browser POST: from a demo page (a cookie rides along on cross-site requests too), as JSON (which
   * a page on another site cannot send without a preflight this backend never answers), read within
   * its bound. The token handler reads a copy of what was read here.
   */
  async function browserPost(request: Request, path: string): Promise<Response> {
    const origin = request.headers.get('origin');
    if (origin === null || !origins.has(origin))
      return json({ error: 'Cross-site request refused: send it from the demo page.' }, 403);
    if (!isJson(request)) return json({ error: 'Send the body as application/json.' }, 415);
    if (path === '/api/session') return signIn(request);
    const user = demoUserOf(request);
    if (!user) return json({ error: 'Sign in first: pick a demo user.' }, 401);
    switch (path) {
      case '/api/hub-token': {
        const body = await readObject(request);
        if (body instanceof Response) return body;
        const headers = new Headers(request.headers);
        headers.delete('content-length'); // the copy's body is the re-serialized object, not the bytes sent
        return tokenHandler(new Request(request.url, { method: 'POST', headers, body: JSON.stringify(body) }));
      }
      case '/api/points/recharge':
        return topUp(request, user);
      default:
        return json({ error: 'Not found.' }, 404);
    }
  }

  async function route(
    request: Request,
    path: string,
    remoteAddress: string | undefined,
  ): Promise<Response | undefined> {
    if (path === '/webhooks/hub' && request.method === 'POST') return webhookHandler(request, { remoteAddress });
    if (!path.startsWith('/api/'))
      return path.startsWith('/webhooks/') ? json({ error: 'Not found.' }, 404) : undefined;
    if (request.method === 'POST') return browserPost(request, path);
    if (request.method !== 'GET') return json({ error: 'Use GET or POST.' }, 405, { allow: 'GET, POST' });
    const user = demoUserOf(request);
    switch (path) {
      case '/api/session':
        return json({
          user: user ? { id: user.id, name: user.name } : null,
          users: DEMO_USERS.map(({ id, name }) => ({ id, name })),
          formUrl: options.formUrl,
        });
      case '/api/points':
        return user ? points(request, user) : json({ error: 'Sign in first: pick a demo user.' }, 401);
      case '/api/events': {
        const after = Number(new URL(request.url).searchParams.get('after')) || 0;
        return json({ events: events.filter((event) => event.id > after) });
      }
      default:
        return json({ error: 'Not found.' }, 404);
    }
  }

  return {
    events,
    wallet: (clientUserId) => wallets.get(clientUserId)?.balanceCents,
    async handle(request, remoteAddress) {
      const path = new URL(request.url).pathname;
      try {
        return await route(request, path, remoteAddress);
      } catch (error) {
        // The page gets a readable reason; the API key is never part of a HubError message.
        const status = error instanceof HubError && error.status === 402 ? 402 : 502;
        return json({ error: error instanceof Error ? error.message : 'Upstream failure.' }, status);
      }
    },
  };
}
