// @ts-check
// The integrator's server: pages, the token endpoint, the webhook receiver and the points API.
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import express from 'express';
import {
  createServerClient,
  createTokenHandler,
  createWebhookHandler,
  HubPoolInsufficientError,
  toNodeListener,
} from 'hub-embed/server';
import { isHubError } from 'hub-embed/core';
import { bundle } from './bundle.js';
import { eventKeyOf } from './ledger.js';
import { checkHostAndOrigin } from './hosts.js';
import { withLinks } from './inbox.js';
import { SessionsFullError, TWO_SESSION_COOKIES, USERS } from './sessions.js';

/**
 * @typedef {object} ExampleAppOptions
 * @property {string} apiKey the service API key (from the environment; never sent to a browser)
 * @property {string} hubBaseUrl the service's API root (`https://<host>/api/v1/apihub`) or its `{base_url}`
 * @property {string} hubFormUrl the form site's `{form_url}`
 * @property {readonly string[]} allowedOrigins origins whose pages may call the token endpoint and post
 * @property {readonly string[]} [allowedHosts] Host names answered besides loopback ones and those of
 *   allowedOrigins (a tunnel's name, say); every other Host gets 403
 * @property {readonly string[]} allowIps addresses the service's webhooks come from
 * @property {import('./ledger.js').Ledger} ledger
 * @property {import('./inbox.js').Inbox} inbox
 * @property {import('./orders.js').Orders} orders
 * @property {import('./sessions.js').Sessions} sessions
 */

/** @param {string} name */
const page = (name) => readFileSync(new URL(`./public/${name}`, import.meta.url), 'utf8');
const PAGES = { widget: page('index.html'), points: page('points.html'), signIn: page('sign-in.html') };

/** @param {string} text */
const escapeHtml = (text) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** @param {ExampleAppOptions} options */
export function createExampleApp(options) {
  const { apiKey, hubBaseUrl, hubFormUrl, allowedOrigins, allowIps, ledger, inbox, orders, sessions } = options;
  const app = express();
  app.disable('x-powered-by');
  // Before every route: no other site's page may drive this app, by DNS rebinding or by a cross-site post.
  app.use(
    checkHostAndOrigin({
      allowedHosts: [...allowedOrigins.map((origin) => new URL(origin).host), ...(options.allowedHosts ?? [])],
      allowedOrigins,
    }),
  );
  // A request with the session cookie twice carries one that another page planted: trust neither.
  app.use((req, res, next) => {
    if (!sessions.ambiguous(req.headers.cookie)) return next();
    res.status(400).set('set-cookie', sessions.clear(req.path)).type('text').send(TWO_SESSION_COOKIES);
  });

  // #region readme-express
  const client = createServerClient({ apiKey, baseUrl: hubBaseUrl });

  // The widget's token-endpoint. The user comes from your session cookie, never from the request.
  app.post(
    '/api/hub-token',
    toNodeListener(
      createTokenHandler({
        client,
        allowedOrigins, // pages on other origins get 403
        resolveClientUserId: (request) => sessions.userOf(request.headers.get('cookie'))?.clientUserId ?? null,
      }),
    ),
  );

  // The billing and notification URL you enter in the service's console.
  app.post(
    '/hooks/hub',
    toNodeListener(
      createWebhookHandler({
        allowIps, // ['127.0.0.1', '::1'] for the local simulator; the console's outbound IPs in production
        onBillingDeduct: async (event, { signal }) =>
          event.clientUserId !== null &&
          (await ledger.deduct(
            {
              clientUserId: event.clientUserId,
              amountCents: event.amountCents,
              reason: event.reason,
              shortCode: event.shortCode,
              eventKey: eventKeyOf(event), // the same body again (a resend) is paid once
            },
            signal, // the answer's deadline: a deduct still running then is rolled back
          )),
        onBillingRefund: async (event) => {
          if (event.clientUserId === null) throw new Error('billing_refund without target.client_user_id');
          const outcome = await ledger.refund({
            clientUserId: event.clientUserId,
            amountCents: event.amountCents,
            reason: event.reason,
            shortCode: event.shortCode,
            eventKey: eventKeyOf(event),
          });
          // Thrown, so the service hears a non-2xx: the refund was not made.
          if (outcome === 'exceeds-charges')
            throw new Error(`billing_refund of ${event.amountCents} cents exceeds what was charged and not refunded`);
        },
        onNotification: async (event) => {
          if (event.clientUserId !== null) await inbox.add(event.clientUserId, event.event, event.notification);
        },
      }),
    ),
  );

  // Body parsers go after the webhook route: it reads the raw body itself.
  app.use(express.json({ limit: '4kb' }));
  // #endregion readme-express
  app.use(express.urlencoded({ extended: false, limit: '1kb' }));

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

  /** @param {import('express').Response} res @param {string} template @param {Record<string, string>} values */
  const render = (res, template, values) => {
    res.set({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': csp,
    });
    res.send(template.replace(/\{\{([A-Z_]+)\}\}/g, (_, name) => escapeHtml(values[name] ?? '')));
  };

  /**
   * Lets signed-in requests through with `res.locals.user`; sends pages to sign-in and API calls a 401.
   * @param {import('express').Request} req @param {import('express').Response} res @param {import('express').NextFunction} next
   */
  function requireSession(req, res, next) {
    const user = sessions.userOf(req.headers.cookie);
    if (!user) {
      if (req.path.startsWith('/api/')) res.status(401).json({ error: 'Sign in first.' });
      else res.redirect(303, '/sign-in');
      return;
    }
    res.locals.user = user;
    next();
  }

  app.get('/favicon.ico', (_req, res) => res.status(204).end());
  app.get('/vendor/hub-embed.iife.js', (_req, res) =>
    res.sendFile(bundle.file, { headers: { 'cache-control': 'no-cache' } }),
  );
  app.get('/vendor/hub-embed.form.js', (_req, res) =>
    res.sendFile(bundle.formFile, { headers: { 'cache-control': 'no-cache' } }),
  );
  app.use('/assets', express.static(new URL('./public/assets', import.meta.url).pathname, { index: false }));

  app.get('/sign-in', (_req, res) => render(res, PAGES.signIn, {}));
  app.post('/sign-in', (req, res) => {
    const user = USERS.find((candidate) => candidate.id === req.body?.user);
    if (!user)
      return void res
        .status(400)
        .type('text')
        .send(`user must be one of ${USERS.map((u) => u.id).join(', ')}`);
    // The account and its welcome credit exist from the first sign-in on.
    ledger.open(user.clientUserId, user.openingCents).then(
      () => {
        try {
          res.set('set-cookie', sessions.signIn(user)).redirect(303, '/');
        } catch (error) {
          if (!(error instanceof SessionsFullError)) throw error;
          res.status(503).set('retry-after', '60').type('text').send(error.message);
        }
      },
      (error) =>
        res
          .status(500)
          .type('text')
          .send(`The ledger failed: ${error instanceof Error ? error.message : error}`),
    );
  });
  app.post('/sign-out', (req, res) =>
    res.set('set-cookie', sessions.signOut(req.headers.cookie)).redirect(303, '/sign-in'),
  );

  app.get('/', requireSession, (_req, res) =>
    render(res, PAGES.widget, {
      HUB_EMBED_SRI: bundle.integrity,
      HUB_BASE_URL: hubBaseUrl,
      HUB_FORM_URL: hubFormUrl,
      USER_NAME: res.locals.user.name,
    }),
  );
  // What a single-page app (the React and Vue examples) asks first: who is signed in, and where the service is.
  app.get('/api/session', (req, res) => {
    const user = sessions.userOf(req.headers.cookie);
    res.set('cache-control', 'no-store').json({
      user: user ? { name: user.name } : null,
      users: USERS.map(({ id, name }) => ({ id, name })),
      baseUrl: hubBaseUrl,
      formUrl: hubFormUrl,
    });
  });
  app.get('/points', requireSession, (_req, res) => render(res, PAGES.points, { USER_NAME: res.locals.user.name }));

  // The points page's data: this app's ledger (what paid actions charge) and the service's own points.
  app.get('/api/points', requireSession, async (_req, res) => {
    /** @type {import('./sessions.js').User} */
    const user = res.locals.user;
    const [ledgerBalance, entries, messages, service, logs] = await Promise.all([
      ledger.balance(user.clientUserId),
      ledger.entries(user.clientUserId),
      inbox.latest(user.clientUserId),
      client.balance(user.clientUserId).catch(() => null), // a user the service has not met yet
      client.logs(user.clientUserId, { pageSize: 10 }).catch(() => null),
    ]);
    res.set('cache-control', 'no-store').json({
      user: { name: user.name },
      ledger: { balanceCents: ledgerBalance ?? 0, entries },
      service: { balanceCents: service?.balanceCents ?? null, logs: logs?.list ?? [] },
      inbox: await withLinks(messages, {
        formUrl: hubFormUrl,
        token: async () => (await client.exchangeToken(user.clientUserId)).accessToken,
      }),
    });
  });

  // Moves points from your developer pool to the user on the service, once per paid order (orders.js). In a
  // real app `paid` runs in your payment provider's success callback, with its order number.
  app.post('/api/points/recharge', requireSession, async (req, res) => {
    const amountCents = req.body?.amount_cents;
    if (!Number.isSafeInteger(amountCents) || amountCents < 1 || amountCents > 1_000_000)
      return void res.status(400).json({ error: 'amount_cents must be a whole number of cents from 1 to 1000000.' });
    const orderId = `example-${randomUUID()}`;
    await orders.paid({ orderId, clientUserId: res.locals.user.clientUserId, amountCents });
    const outcome = await orders.credit(orderId);
    if (outcome !== 'credited')
      return void res
        .status(202)
        .json({ orderId, outcome, error: 'Paid; the top-up is being credited. Reload in a minute.' });
    res.json({ balanceCents: (await client.balance(res.locals.user.clientUserId)).balanceCents });
  });

  /** @type {import('express').ErrorRequestHandler} */
  const onError = (error, _req, res, _next) => {
    if (error instanceof HubPoolInsufficientError)
      return void res.status(402).json({ error: 'The developer points pool is too low: top it up in the console.' });
    // HubError messages never contain the API key; anything else is logged and answered generically.
    console.error(error);
    const status = typeof error?.status === 'number' && error.status >= 400 && error.status < 500 ? error.status : 502;
    res.status(status).json({ error: isHubError(error) ? error.message : 'Something went wrong.' });
  };
  app.use(onError);
  return app;
}
