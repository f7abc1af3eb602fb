// @ts-check
// The Hono example as a Cloudflare Worker (workerd): the same app.js. A Worker has no file system, so the
// pages, assets and bundle come from a text module named `example-files` (the JSON of readExampleFiles(),
// which the build that deploys the Worker puts beside it), and the settings from the Worker's env.
// The peer address: behind Cloudflare, the edge puts the client's address in CF-Connecting-IP and drops
// any a client sent; a Worker reached some other way has no trustworthy peer, and every webhook is refused.
// @ts-expect-error: a module that exists only in the Worker's bundle (see the comment above)
import filesJson from 'example-files';
import { createSessions } from '../express/sessions.js';
import { createHonoApp } from './app.js';
import { createMemoryInbox, createMemoryLedger } from './stores.js';

/**
 * @typedef {object} Env
 * @property {string} HUB_API_KEY
 * @property {string} HUB_BASE_URL
 * @property {string} HUB_FORM_URL
 * @property {string} APP_ORIGIN the origin the app's pages are served from (its allowedOrigins)
 * @property {string} [HUB_WEBHOOK_IPS] comma-separated
 */

/** One app per isolate: the in-memory ledger lives as long as the isolate does. */
/** @type {ReturnType<typeof createHonoApp> | undefined} */
let app;

/** @param {Env} env */
function appFor(env) {
  const missing = ['HUB_API_KEY', 'HUB_BASE_URL', 'HUB_FORM_URL', 'APP_ORIGIN'].filter(
    (name) => !(/** @type {Record<string, unknown>} */ (env)[name]),
  );
  if (missing.length) throw new Error(`The Worker needs the variables ${missing.join(', ')}.`);
  return createHonoApp({
    apiKey: env.HUB_API_KEY,
    hubBaseUrl: env.HUB_BASE_URL,
    hubFormUrl: env.HUB_FORM_URL,
    allowedOrigins: [env.APP_ORIGIN],
    allowIps: String(env.HUB_WEBHOOK_IPS ?? '')
      .split(',')
      .map((ip) => ip.trim())
      .filter(Boolean),
    peerAddress: (c) => c.req.header('cf-connecting-ip'),
    ledger: createMemoryLedger(),
    inbox: createMemoryInbox(),
    // A deployed Worker is served over HTTPS: its session cookie is __Host- and Secure.
    sessions: createSessions({ secure: new URL(env.APP_ORIGIN).protocol === 'https:' }),
    files: JSON.parse(filesJson),
  });
}

export default {
  /** @param {Request} request @param {Env} env @param {import('hono').ExecutionContext} ctx */
  fetch(request, env, ctx) {
    app ??= appFor(env);
    return app.fetch(request, env, ctx);
  },
};
