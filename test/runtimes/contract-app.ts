// The contract suite's app: hub-embed/server's three pieces behind a few routes, written once against Web
// Request and Response only, so the same module serves on Node, Bun, Deno and workerd. Each runtime's
// launcher (serve-*.ts, worker.ts) hands it the request and the peer address that runtime knows.
// No stand-ins: the server client talks to the simulator the test started.
import {
  createServerClient,
  createTokenHandler,
  createWebhookHandler,
  type BillingDeductEvent,
  type TokenCache,
  type WebhookRejection,
} from 'hub-embed/server';
import { isHubError } from 'hub-embed/core';

export interface ContractConfig {
  apiKey: string;
  /** The simulator. */
  baseUrl: string;
  /** A second simulator that answers after a delay: for the deadlines. */
  slowBaseUrl: string;
  /** Where the token handler with a shared cache keeps tokens (createRedisTokenCache), when the runtime has one. */
  cache?: TokenCache;
}

/** waitUntil: workerd's ctx.waitUntil, so a deduct callback past its deadline still finishes there. */
export type ContractApp = (
  request: Request,
  remoteAddress: string | undefined,
  waitUntil?: (promise: Promise<unknown>) => void,
) => Promise<Response>;

const ORIGIN = 'http://app.test';
/** The session: a cookie naming a user, as a real app's session store would resolve it. */
const sessionUser = (request: Request) =>
  /(?:^|;\s*)session=([\w-]+)/.exec(request.headers.get('cookie') ?? '')?.[1] ?? null;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A HubError as the driver compares it: kind, name and status, never a message (runtimes word theirs differently). */
const errorView = (error: unknown) =>
  isHubError(error)
    ? { kind: error.kind, name: error.name, status: (error as { status?: number }).status ?? null }
    : { kind: 'not-a-hub-error', name: String((error as Error)?.name), status: null };

export function createContractApp(config: ContractConfig): ContractApp {
  const client = createServerClient({ apiKey: config.apiKey, baseUrl: config.baseUrl });
  const slowClient = createServerClient({ apiKey: config.apiKey, baseUrl: config.slowBaseUrl, timeoutMs: 300 });
  // Printed, so that a runtime's failure shows in the launcher's output the test reports.
  const quiet = (error: unknown) => console.error('token handler:', error);
  const token = createTokenHandler({
    client,
    allowedOrigins: [ORIGIN],
    resolveClientUserId: sessionUser,
    prefetch: true,
    onError: quiet,
  });
  const slowToken = createTokenHandler({ client: slowClient, resolveClientUserId: sessionUser, onError: quiet });
  const sharedToken = config.cache
    ? createTokenHandler({ client, cache: config.cache, resolveClientUserId: sessionUser, onError: quiet })
    : undefined;

  const deducts: Array<Pick<BillingDeductEvent, 'amountCents' | 'amount' | 'clientUserId'> & { aborted: boolean }> = [];
  const rejections: WebhookRejection[] = [];
  const webhookOptions = {
    onRejected: (rejection: WebhookRejection) => void rejections.push(rejection),
    deadlineMs: 400,
    refunds: 'decline' as const,
    async onBillingDeduct(event: BillingDeductEvent, { signal }: { signal: AbortSignal }) {
      // 'slow' outlives the deadline: the answer must be ok:false and the signal aborted by then.
      if (event.reason === 'slow') await new Promise((resolve) => setTimeout(resolve, 800));
      deducts.push({
        amountCents: event.amountCents,
        amount: event.amount,
        clientUserId: event.clientUserId,
        aborted: signal.aborted,
      });
      return true;
    },
  };
  // The simulator calls from loopback, so the peer address each runtime reports decides these two.
  const webhook = createWebhookHandler({ allowIps: ['127.0.0.1', '::1'], ...webhookOptions });
  const strictWebhook = createWebhookHandler({ allowIps: ['203.0.113.10'], ...webhookOptions });

  return async (request, remoteAddress, waitUntil) => {
    const url = new URL(request.url);
    switch (url.pathname) {
      case '/token':
        return token(request);
      case '/token-slow':
        return slowToken(request);
      case '/token-shared':
        return sharedToken ? sharedToken(request) : json({ error: 'no shared cache on this runtime' }, 501);
      case '/webhook':
        return webhook(request, { remoteAddress, waitUntil });
      case '/webhook-strict':
        return strictWebhook(request, { remoteAddress, waitUntil });
      case '/seen':
        return json({
          deducts,
          rejections: rejections.map(({ reason, status }) => ({ reason, status })),
          remoteAddress,
        });
      case '/client/balance':
        return client.balance(url.searchParams.get('user') ?? '').then(json, (error) => json(errorView(error), 500));
      case '/client/recharge': {
        const cents = Number(url.searchParams.get('cents'));
        return client
          .recharge({
            clientUserId: url.searchParams.get('user') ?? '',
            amountCents: cents,
            externalOrderId: url.searchParams.get('order') ?? undefined,
          })
          .then(json, (error) => json(errorView(error), 500));
      }
      case '/client/slow':
        return slowClient.balance('user-alice').then(json, (error) => json(errorView(error), 500));
      default:
        return json({ error: 'not found' }, 404);
    }
  };
}
