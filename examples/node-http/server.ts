// docs/server.md's node:http example, quoted from here (scripts/doc-regions.mjs), and graded by
// `hub-embed-mock certify` in CI as written (test/examples/certify/node-http.test.ts).
// #region node-http
import { createServer } from 'node:http';
import { createServerClient, createTokenHandler, createWebhookHandler, toNodeListener } from 'hub-embed/server';
// Yours: the session lookup, the points ledger, the notification inbox and the rest of your app
// (./app.ts is a small in-memory one; examples/express has real ones on Postgres).
import { app, inbox, ledger, sessionUserId, tokens } from './app.js';

const port = Number(process.env.PORT ?? 3000);
// The origin of your pages with the widget: a page anywhere else gets 403 and no token.
const pageOrigin = process.env.HUB_PAGE_ORIGIN ?? `http://127.0.0.1:${port}`;
const client = createServerClient({ apiKey: process.env.HUB_API_KEY ?? '', baseUrl: process.env.HUB_BASE_URL ?? '' });
const token = toNodeListener(
  createTokenHandler({
    client,
    resolveClientUserId: (req) => sessionUserId(req),
    allowedOrigins: [pageOrigin],
    // The first tags and list come with the token: one round trip before the first card, not three.
    prefetch: true,
    // The token route and your own pages (app.ts's links) share one token per user.
    cache: tokens,
  }),
);
const webhook = toNodeListener(
  createWebhookHandler({
    // The console's outbound IPs (its webhook page); 127.0.0.1 for the local simulator.
    allowIps: (process.env.HUB_WEBHOOK_IPS ?? '203.0.113.10,203.0.113.11').split(','),
    // The ledger keys each deduct and refund by its body (e.raw): the same body again is paid once.
    onBillingDeduct: async (e, { signal }) => ledger.tryDeduct(e, signal),
    // The service waits 10 s for an answer (HUB_DELIVERY_TIMEOUT_MS: a simulator set shorter); a deduct
    // still running at 80% of that, counted from the request's arrival, answers {ok: false} and takes nothing.
    deadlineMs: Math.round(0.8 * Number(process.env.HUB_DELIVERY_TIMEOUT_MS ?? 10_000)),
    // The service sends each refund once: a throw answers 500, which tells it the refund was not made.
    onBillingRefund: async (e) => ledger.refund(e),
    onNotification: (e) => inbox.add(e.clientUserId, e.notification),
  }),
);

createServer((req, res) => {
  // The path alone: a query string (`/api/hub-token?v=2`) must not send the call elsewhere.
  const { pathname } = new URL(req.url ?? '/', 'http://localhost');
  if (pathname === '/api/hub-token') return token(req, res);
  if (pathname === '/hooks/hub') return webhook(req, res);
  return app(req, res); // your pages and APIs
}).listen(port);
// #endregion node-http
