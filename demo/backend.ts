// The demo's "developer backend": what an integrator runs on its own server. It holds the API key,
// decides the end user from its own session cookie, moves points, and receives webhooks.
import {
  createHubClient,
  createTokenHandler,
  createWebhookHandler,
  HubError,
  type WebhookEvent,
} from '../src/server/index.js';

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
/** Each demo user starts with this much in the developer's own wallet (what billing_deduct draws on). */
const WALLET_START_CENTS = 1_000;

export interface DemoEvent {
  id: number;
  at: string;
  event: string;
  user: string | null;
  summary: string;
  outcome?: 'ok' | 'declined' | 'refunded';
}

export interface DemoBackendOptions {
  apiKey: string;
  baseUrl: string;
  formUrl: string;
  fetch?: typeof fetch;
  /** Source addresses allowed to deliver webhooks. Default: loopback. */
  allowIps?: readonly string[];
}

export interface DemoBackend {
  /** Answers the backend's routes (/api/*, /webhooks/*); undefined for anything else. */
  handle(request: Request, remoteAddress: string | undefined): Promise<Response | undefined>;
  readonly events: readonly DemoEvent[];
  wallet(clientUserId: string): number;
}

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

function userOf(request: Request): DemoUser {
  const cookie = request.headers.get('cookie') ?? '';
  const id = /(?:^|;\s*)hub_demo_user=([a-z]+)/.exec(cookie)?.[1];
  // No cookie yet: the demo signs everyone in as Alice, so the page works on first load.
  return DEMO_USERS.find((user) => user.id === id) ?? DEMO_USERS[0]!;
}

async function readJson(request: Request): Promise<Record<string, unknown> | undefined> {
  const text = await request.text();
  if (text.length > 4096) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

export function createDemoBackend(options: DemoBackendOptions): DemoBackend {
  const client = createHubClient({
    apiKey: options.apiKey,
    baseUrl: options.baseUrl,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const wallets = new Map<string, number>();
  const events: DemoEvent[] = [];
  const wallet = (id: string) => wallets.get(id) ?? WALLET_START_CENTS;

  function record(event: WebhookEvent, summary: string, outcome?: DemoEvent['outcome']): void {
    events.push({
      id: events.length + 1,
      at: new Date().toISOString(),
      event: event.event,
      user: event.clientUserId,
      summary,
      ...(outcome ? { outcome } : {}),
    });
    if (events.length > 200) events.shift();
  }

  const tokenHandler = createTokenHandler({ client, resolveClientUserId: (request) => userOf(request).clientUserId });

  const webhookHandler = createWebhookHandler({
    allowIps: options.allowIps ?? ['127.0.0.1', '::1'],
    onNotification: (event) => record(event, `${event.notification.title}: ${event.notification.content}`),
    onBillingDeduct: (event) => {
      const user = event.clientUserId ?? '';
      const ok = user !== '' && wallet(user) >= event.amountCents;
      if (ok) wallets.set(user, wallet(user) - event.amountCents);
      record(event, `¥${event.amount} · ${event.reason}`, ok ? 'ok' : 'declined');
      return ok;
    },
    onBillingRefund: (event) => {
      const user = event.clientUserId ?? '';
      if (user) wallets.set(user, wallet(user) + event.amountCents);
      record(event, `¥${event.amount} · ${event.reason}`, 'refunded');
    },
    onUnknownEvent: (event) => record(event, 'unknown event'),
  });

  async function points(request: Request, user: DemoUser): Promise<Response> {
    const page = Math.max(1, Math.min(1000, Number(new URL(request.url).searchParams.get('page')) || 1));
    const [balance, logs] = await Promise.all([
      client.balance(user.clientUserId),
      client.logs(user.clientUserId, { page, pageSize: 5 }),
    ]);
    return json({ user: user.name, balanceCents: balance.balanceCents, walletCents: wallet(user.clientUserId), logs });
  }

  async function recharge(request: Request, user: DemoUser): Promise<Response> {
    const body = await readJson(request);
    const amountCents = body?.amount_cents;
    if (
      typeof amountCents !== 'number' ||
      !Number.isSafeInteger(amountCents) ||
      amountCents <= 0 ||
      amountCents > 10_000_000
    ) {
      return json({ error: 'amount_cents must be a whole number of cents from 1 to 10000000.' }, 400);
    }
    // In a real app this runs in the payment provider's success callback, with its order number.
    const externalOrderId = `demo-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    const result = await client.recharge({
      clientUserId: user.clientUserId,
      amountCents,
      externalOrderId,
      reason: 'Demo top-up',
    });
    return json(result);
  }

  async function route(
    request: Request,
    path: string,
    remoteAddress: string | undefined,
  ): Promise<Response | undefined> {
    const user = userOf(request);
    switch (`${request.method} ${path}`) {
      case 'POST /api/hub-token':
        return tokenHandler(request);
      case 'GET /api/session':
        return json({
          user: { id: user.id, name: user.name },
          users: DEMO_USERS.map(({ id, name }) => ({ id, name })),
          formUrl: options.formUrl,
        });
      case 'POST /api/session': {
        const wanted = (await readJson(request))?.user;
        const picked = DEMO_USERS.find((candidate) => candidate.id === wanted);
        if (!picked) return json({ error: `user must be one of ${DEMO_USERS.map((u) => u.id).join(', ')}.` }, 400);
        return json({ user: { id: picked.id, name: picked.name } }, 200, {
          'set-cookie': `${COOKIE}=${picked.id}; Path=/; HttpOnly; SameSite=Lax`,
        });
      }
      case 'GET /api/points':
        return points(request, user);
      case 'POST /api/points/recharge':
        return recharge(request, user);
      case 'GET /api/events': {
        const after = Number(new URL(request.url).searchParams.get('after')) || 0;
        return json({ events: events.filter((event) => event.id > after) });
      }
      case 'POST /webhooks/hub':
        return webhookHandler(request, { remoteAddress });
      default:
        return path.startsWith('/api/') || path.startsWith('/webhooks/')
          ? json({ error: 'Not found.' }, 404)
          : undefined;
    }
  }

  return {
    events,
    wallet,
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
