// @ts-check
// Starts the example: the database, the app, and (unless HUB_API_KEY names a real deployment) the local
// simulator, whose billing and notification URLs are pointed at the app's webhook route.
import { createServer } from 'node:http';
import { startSimulator } from 'hub-embed-mock';
import { createServerClient } from 'hub-embed/server';
import { createExampleApp } from './app.js';
import { openDatabase } from './database.js';
import { createInbox } from './inbox.js';
import { createLedger } from './ledger.js';
import { createOrders } from './orders.js';
import { createSessions } from './sessions.js';

/**
 * @typedef {object} StartOptions
 * @property {number} [port] default: PORT, else 3000; a taken port falls back to a free one
 * @property {readonly string[]} [extraOrigins] more origins allowed to call the token endpoint (a dev server)
 * @property {string} [databaseUrl] default: DATABASE_URL; unset runs PGlite in memory
 */

/** @param {import('node:http').Server} server @param {number} port */
function listen(server, port) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve(/** @type {import('node:net').AddressInfo} */ (server.address()).port);
    });
  });
}

/**
 * What `npm run example:express` prints: every address to open, the simulator's console among them.
 * @param {Awaited<ReturnType<typeof startExample>>} running
 */
export function exampleBanner(running) {
  return `
  Express example:    ${running.url}   (open it, sign in as Alice, open a table, press Pay)
  points page:        ${running.origin}/points
  service API:        ${running.hub.baseUrl}${running.simulator ? '  (local simulator)' : ''}
  form site:          ${running.hub.formUrl}${consoleLine(running)}
  ledger database:    ${running.db.kind === 'pglite' ? 'PGlite, in memory (set DATABASE_URL for Postgres)' : 'Postgres (DATABASE_URL)'}
`;
}

/**
 * What `npm run example:react` and `example:vue` print (examples/vite-dev.js): the framework's page, the
 * Express app behind it, and the simulator's console.
 * @param {'react' | 'vue'} framework
 * @param {string} origin the Vite dev server's origin
 * @param {Awaited<ReturnType<typeof startExample>>} running
 */
export function viteExampleBanner(framework, origin, running) {
  return `
  ${framework === 'react' ? 'React' : 'Vue'} example:  ${origin}/   (sign in as Alice, open a table, press Pay)
  Express example: ${running.url}   (also served here: ${origin}/points)
  service API:     ${running.hub.baseUrl}${running.simulator ? '  (local simulator)' : ''}${consoleLine(running)}
`;
}

/**
 * The simulator console's line of a banner, or '' with a real deployment (its console is not ours to link).
 * @param {Awaited<ReturnType<typeof startExample>>} running
 */
export function consoleLine(running) {
  return running.simulator
    ? `\n  simulator console:  ${running.simulator.baseUrl}/console/   (refund a charge, send test events)`
    : '';
}

/** @param {StartOptions} [options] */
export async function startExample(options = {}) {
  const env = process.env;
  // A real deployment when its three values are set; otherwise the simulator on free ports.
  const simulator = env.HUB_API_KEY ? undefined : await startSimulator({ apiPort: 0, formPort: 0 });
  const hub = simulator ?? {
    apiKey: String(env.HUB_API_KEY),
    baseUrl: String(env.HUB_BASE_URL),
    formUrl: String(env.HUB_FORM_URL),
  };
  const db = await openDatabase({ databaseUrl: options.databaseUrl });
  const ledger = await createLedger(db);
  const inbox = await createInbox(db);
  const orders = await createOrders(db, createServerClient({ apiKey: hub.apiKey, baseUrl: hub.baseUrl }));
  // Orders paid and not credited yet (a crash, a pending outcome): settled from the service's logs, credited
  // once, at start-up and every minute. Any number of instances may run this: each order has one owner.
  const reconcile = () => orders.reconcile().catch((error) => console.error('Crediting paid orders failed:', error));
  void reconcile();
  const reconciling = setInterval(reconcile, 60_000);

  const server = createServer();
  const wanted = options.port ?? Number(env.PORT ?? 3000);
  const port = await listen(server, wanted).catch((error) => {
    if (error?.code !== 'EADDRINUSE') throw error;
    return listen(server, 0);
  });
  const origin = `http://127.0.0.1:${port}`;
  const app = createExampleApp({
    apiKey: hub.apiKey,
    hubBaseUrl: hub.baseUrl,
    hubFormUrl: hub.formUrl,
    allowedOrigins: [origin, ...(options.extraOrigins ?? [])],
    // Other names this app is reached by (a tunnel for a real deployment's webhooks), comma-separated.
    allowedHosts: String(env.ALLOWED_HOSTS ?? '')
      .split(',')
      .map((host) => host.trim())
      .filter(Boolean),
    // The simulator calls from loopback. For a real deployment, the outbound IPs its console shows.
    allowIps: simulator
      ? ['127.0.0.1', '::1']
      : String(env.HUB_WEBHOOK_IPS ?? '')
          .split(',')
          .filter(Boolean),
    ledger,
    inbox,
    orders,
    // Served over plain HTTP on loopback: the local exception to the __Host- cookie (sessions.js).
    sessions: createSessions({ secure: new URL(origin).protocol === 'https:' }),
  });
  server.on('request', app);

  if (simulator) {
    // What you would do in the console's webhook page (or with curl against `npx hub-embed-mock`).
    const response = await fetch(`${simulator.baseUrl}/console/webhooks`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        configs: [{ billing_url: `${origin}/hooks/hub`, notification_url: `${origin}/hooks/hub` }],
      }),
    });
    if (!response.ok)
      throw new Error(`The simulator refused the webhook URLs: ${response.status} ${await response.text()}`);
  }

  return {
    url: `${origin}/`,
    origin,
    hub,
    /** The running simulator, when there is one (tests use its console). */
    simulator,
    db,
    async close() {
      clearInterval(reconciling);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await db.close();
      await simulator?.close();
    },
  };
}
