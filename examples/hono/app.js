// @ts-check
// The integrator's server of examples/express, on Hono: the token endpoint, the webhook receiver, the
// pages and the points API, written against Hono's Context and Web Request/Response only, so this module
// runs unchanged on Node, Bun, Deno and workerd. What differs per runtime (the peer address, waitUntil,
// where the page files come from, the ledger's storage) is handed in by its entry: serve.js, worker.js.
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import {
  createServerClient,
  createTokenHandler,
  createWebhookHandler,
  HubPoolInsufficientError,
  HubRechargePendingError,
} from 'hub-embed/server';
import { isHubError, isLoopbackHost } from 'hub-embed/core';
import { hostnameOf } from '../express/hosts.js';
import { SessionsFullError, TWO_SESSION_COOKIES, USERS } from '../express/sessions.js';
import { eventKeyOf } from './stores.js';
import { withLinks } from '../express/inbox.js';

/**
 * The files the app serves, read by its entry (from disk on Node, Bun and Deno; from a module on workerd).
 * @typedef {object} ExampleFiles
 * @property {{ widget: string, points: string, signIn: string }} pages the templates of examples/express/public
 * @property {Record<string, string>} assets examples/express/public/assets/* by file name
 * @property {{ script: string, formScript: string, integrity: string }} bundle hub-embed.iife.js, its form half, its SRI value
 */

/**
 * @typedef {object} HonoExampleOptions
 * @property {string} apiKey the service API key (never sent to a browser)
 * @property {string} hubBaseUrl the service's API root (`https://<host>/api/v1/apihub`) or its `{base_url}`
 * @property {string} hubFormUrl the form site's `{form_url}`
 * @property {readonly string[]} allowedOrigins origins whose pages may call the token endpoint and post
 * @property {readonly string[]} [allowedHosts] Host names answered besides loopback ones and allowedOrigins'
 * @property {readonly string[]} allowIps addresses the service's webhooks come from
 * @property {(c: import('hono').Context) => string | undefined} peerAddress the TCP peer as this runtime
 *   knows it (Hono's getConnInfo of the runtime's adapter); on workerd, Cloudflare's CF-Connecting-IP
 * @property {import('./stores.js').MemoryLedger} ledger
 * @property {ReturnType<typeof import('./stores.js').createMemoryInbox>} inbox
 * @property {import('../express/sessions.js').Sessions} sessions
 * @property {ExampleFiles} files
 */

/** @param {string} text */
const escapeHtml = (text) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const JS = 'text/javascript; charset=utf-8';
const TYPES = /** @type {Record<string, string>} */ ({ js: JS, css: 'text/css; charset=utf-8' });

/**
 * workerd's ctx.waitUntil when there is one: there a request's work ends with its answer unless handed to
 * it. Hono's c.executionCtx throws on runtimes without one (Node, Bun, Deno), where work goes on anyway.
 * @param {import('hono').Context} c
 */
function waitUntilOf(c) {
  try {
    const ctx = c.executionCtx;
    return (/** @type {Promise<unknown>} */ promise) => ctx.waitUntil(promise);
  } catch {
    return undefined;
  }
}

/** @param {HonoExampleOptions} options */
export function createHonoApp(options) {
  const { apiKey, hubBaseUrl, hubFormUrl, allowedOrigins, allowIps, ledger, inbox, sessions, files } = options;
  /** @type {Hono<{ Variables: { user: import('../express/sessions.js').User } }>} */
  const app = new Hono();

  // Before every route, as examples/express/hosts.js does: no DNS-rebinding page and no cross-site post.
  const hosts = new Set(
    [...allowedOrigins.map((origin) => new URL(origin).host), ...(options.allowedHosts ?? [])].map(
      (host) => hostnameOf(host) ?? host.toLowerCase(),
    ),
  );
  const origins = new Set(allowedOrigins.map((origin) => new URL(origin).origin));
  app.use(async (c, next) => {
    const name = hostnameOf(c.req.header('host'));
    if (name === undefined || !(isLoopbackHost(name) || hosts.has(name)))
      return c.text(
        'This app answers its own host names only (a DNS-rebinding defence); set ALLOWED_HOSTS to add one.',
        403,
      );
    const origin = c.req.header('origin');
    if (c.req.method === 'POST' && origin !== undefined && !origins.has(origin))
      return c.text('Cross-site request refused: send it from this app’s own pages.', 403);
    await next();
  });
  // A request with the session cookie twice carries one that another page planted: trust neither.
  app.use(async (c, next) => {
    if (!sessions.ambiguous(c.req.header('cookie'))) return next();
    for (const cookie of sessions.clear(c.req.path)) c.header('set-cookie', cookie, { append: true });
    return c.text(TWO_SESSION_COOKIES, 400);
  });

  const client = createServerClient({ apiKey, baseUrl: hubBaseUrl });

  // The widget's token-endpoint. The user comes from the session cookie, never from the request.
  const token = createTokenHandler({
    client,
    allowedOrigins, // pages on other origins get 403
    resolveClientUserId: (request) => sessions.userOf(request.headers.get('cookie'))?.clientUserId ?? null,
  });
  app.post('/api/hub-token', (c) => token(c.req.raw));

  // The billing and notification URL you enter in the service's console.
  const webhook = createWebhookHandler({
    allowIps, // ['127.0.0.1', '::1'] for the local simulator; the console's outbound IPs in production
    onBillingDeduct: async (event, { signal }) =>
      event.clientUserId !== null &&
      (await ledger.deduct(
        {
          clientUserId: event.clientUserId,
          amountCents: event.amountCents,
          reason: event.reason,
          shortCode: event.shortCode,
          eventKey: await eventKeyOf(event), // the same body again (a resend) is paid once
        },
        signal, // the answer's deadline: a deduct still running then takes nothing
      )),
    onBillingRefund: async (event) => {
      if (event.clientUserId === null) throw new Error('billing_refund without target.client_user_id');
      const outcome = await ledger.refund({
        clientUserId: event.clientUserId,
        amountCents: event.amountCents,
        reason: event.reason,
        shortCode: event.shortCode,
        eventKey: await eventKeyOf(event),
      });
      // Thrown, so the service hears a non-2xx: the refund was not made.
      if (outcome === 'exceeds-charges')
        throw new Error(`billing_refund of ${event.amountCents} cents exceeds what was charged and not refunded`);
    },
    onNotification: async (event) => {
      if (event.clientUserId !== null) await inbox.add(event.clientUserId, event.event, event.notification);
    },
  });
  // The handler reads the raw body itself; on workerd the peer is CF-Connecting-IP and waitUntil is needed.
  app.post('/hooks/hub', (c) =>
    webhook(c.req.raw, { remoteAddress: options.peerAddress(c), waitUntil: waitUntilOf(c) }),
  );

  const hubOrigin = new URL(hubBaseUrl).origin;
  const formOrigin = new URL(hubFormUrl).origin;
  // The policy of docs/csp.md: no inline script or style, Trusted Types, and the service's origins only.
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "require-trusted-types-for 'script'",
    'trusted-types lit-html hub-embed',
    `connect-src 'self' ${hubOrigin}`,
    `frame-src ${formOrigin}`,
    `img-src 'self' ${hubOrigin}`,
  ].join('; ');

  /** @param {import('hono').Context} c @param {string} template @param {Record<string, string>} values */
  const render = (c, template, values) =>
    c.body(
      template.replace(/\{\{([A-Z_]+)\}\}/g, (_, name) => escapeHtml(values[name] ?? '')),
      200,
      {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'content-security-policy': csp,
      },
    );

  /** Lets signed-in requests through with c.get('user'); pages go to sign-in, API calls get a 401. */
  const requireSession =
    /** @type {import('hono').MiddlewareHandler<{ Variables: { user: import('../express/sessions.js').User } }>} */ (
      async (c, next) => {
        const user = sessions.userOf(c.req.header('cookie'));
        if (!user)
          return c.req.path.startsWith('/api/')
            ? c.json({ error: 'Sign in first.' }, 401)
            : c.redirect('/sign-in', 303);
        c.set('user', user);
        await next();
      }
    );

  /** @param {string} text @param {string} type */
  const file = (text, type) => () =>
    new Response(text, { headers: { 'content-type': type, 'cache-control': 'no-cache' } });
  app.get('/favicon.ico', (c) => c.body(null, 204));
  app.get('/vendor/hub-embed.iife.js', file(files.bundle.script, JS));
  app.get('/vendor/hub-embed.form.js', file(files.bundle.formScript, JS));
  app.get('/assets/:name', (c) => {
    const name = c.req.param('name');
    const text = Object.hasOwn(files.assets, name) ? files.assets[name] : undefined;
    const type = TYPES[name.split('.').pop() ?? ''];
    return text === undefined || type === undefined ? c.notFound() : file(text, type)();
  });

  app.get('/sign-in', (c) => render(c, files.pages.signIn, {}));
  app.post('/sign-in', bodyLimit({ maxSize: 1024 }), async (c) => {
    const body = await c.req.parseBody();
    const user = USERS.find((candidate) => candidate.id === body.user);
    if (!user) return c.text(`user must be one of ${USERS.map((u) => u.id).join(', ')}`, 400);
    // The account and its welcome credit exist from the first sign-in on.
    await ledger.open(user.clientUserId, user.openingCents);
    try {
      c.header('set-cookie', sessions.signIn(user));
      return c.redirect('/', 303);
    } catch (error) {
      if (!(error instanceof SessionsFullError)) throw error;
      return c.text(error.message, 503, { 'retry-after': '60' });
    }
  });
  app.post('/sign-out', (c) => {
    for (const cookie of sessions.signOut(c.req.header('cookie'))) c.header('set-cookie', cookie, { append: true });
    return c.redirect('/sign-in', 303);
  });

  app.get('/', requireSession, (c) =>
    render(c, files.pages.widget, {
      HUB_EMBED_SRI: files.bundle.integrity,
      HUB_BASE_URL: hubBaseUrl,
      HUB_FORM_URL: hubFormUrl,
      USER_NAME: c.get('user').name,
    }),
  );
  app.get('/api/session', (c) => {
    const user = sessions.userOf(c.req.header('cookie'));
    c.header('cache-control', 'no-store');
    return c.json({
      user: user ? { name: user.name } : null,
      users: USERS.map(({ id, name }) => ({ id, name })),
      baseUrl: hubBaseUrl,
      formUrl: hubFormUrl,
    });
  });
  app.get('/points', requireSession, (c) => render(c, files.pages.points, { USER_NAME: c.get('user').name }));

  // The points page's data: this app's ledger (what paid actions charge) and the service's own points.
  app.get('/api/points', requireSession, async (c) => {
    const user = c.get('user');
    const [ledgerBalance, entries, messages, service, logs] = await Promise.all([
      ledger.balance(user.clientUserId),
      ledger.entries(user.clientUserId),
      inbox.latest(user.clientUserId),
      client.balance(user.clientUserId).catch(() => null), // a user the service has not met yet
      client.logs(user.clientUserId, { pageSize: 10 }).catch(() => null),
    ]);
    c.header('cache-control', 'no-store');
    return c.json({
      user: { name: user.name },
      ledger: { balanceCents: ledgerBalance ?? 0, entries },
      service: { balanceCents: service?.balanceCents ?? null, logs: logs?.list ?? [] },
      inbox: await withLinks(messages, {
        formUrl: hubFormUrl,
        token: async () => (await client.exchangeToken(user.clientUserId)).accessToken,
      }),
    });
  });

  // Moves points from your developer pool to the user on the service (your payment provider's callback).
  app.post('/api/points/recharge', bodyLimit({ maxSize: 4096 }), requireSession, async (c) => {
    const body = await c.req.json().catch(() => null);
    const amountCents = body?.amount_cents;
    if (!Number.isSafeInteger(amountCents) || amountCents < 1 || amountCents > 1_000_000)
      return c.json({ error: 'amount_cents must be a whole number of cents from 1 to 1000000.' }, 400);
    const orderId = `example-${crypto.randomUUID()}`;
    try {
      const result = await client.recharge({
        clientUserId: c.get('user').clientUserId,
        amountCents,
        externalOrderId: orderId,
        reason: 'Top-up on the example points page',
      });
      return c.json({ balanceCents: result.userBalanceCents });
    } catch (error) {
      // Sent once; nothing proves the outcome yet. A real app keeps the order in a store and settles it with
      // createRechargeOrders().reconcile(), as examples/express does; this one only says so.
      if (error instanceof HubRechargePendingError)
        return c.json(
          { orderId, outcome: 'pending', error: 'Paid; the top-up is being credited. Reload in a minute.' },
          202,
        );
      throw error;
    }
  });

  app.onError((error, c) => {
    if (error instanceof HubPoolInsufficientError)
      return c.json({ error: 'The developer points pool is too low: top it up in the console.' }, 402);
    // HubError messages never contain the API key; anything else is logged and answered generically.
    console.error(error);
    const status = /** @type {{ status?: unknown }} */ (error).status;
    const code = typeof status === 'number' && status >= 400 && status < 500 ? status : 502;
    return c.json(
      { error: isHubError(error) ? error.message : 'Something went wrong.' },
      /** @type {import('hono/utils/http-status').ContentfulStatusCode} */ (code),
    );
  });
  return app;
}
