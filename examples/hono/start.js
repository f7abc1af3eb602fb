// @ts-check
// `npm run example:hono`: the Hono example on Node and the simulator in one process; Ctrl+C stops both.
// With HUB_API_KEY, HUB_BASE_URL, HUB_FORM_URL and HUB_WEBHOOK_IPS set it talks to a real deployment instead.
import { startSimulator } from 'hub-embed-mock';
import { serveHonoExample } from './serve.js';

const env = process.env;
const simulator = env.HUB_API_KEY ? undefined : await startSimulator({ apiPort: 0, formPort: 0 });
const hub = simulator ?? {
  apiKey: String(env.HUB_API_KEY),
  baseUrl: String(env.HUB_BASE_URL),
  formUrl: String(env.HUB_FORM_URL),
};
const options = {
  apiKey: hub.apiKey,
  hubBaseUrl: hub.baseUrl,
  hubFormUrl: hub.formUrl,
  allowIps: simulator
    ? ['127.0.0.1', '::1']
    : String(env.HUB_WEBHOOK_IPS ?? '')
        .split(',')
        .filter(Boolean),
  allowedHosts: String(env.ALLOWED_HOSTS ?? '')
    .split(',')
    .map((host) => host.trim())
    .filter(Boolean),
};
const wanted = Number(env.PORT ?? 3000);
const running = await serveHonoExample({ ...options, port: wanted }).catch((error) => {
  if (error?.code !== 'EADDRINUSE') throw error;
  return serveHonoExample({ ...options, port: 0 });
});

if (simulator) {
  // What you would do in the console's webhook page: point billing and notifications at this app.
  const response = await fetch(`${simulator.baseUrl}/console/webhooks`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      configs: [{ billing_url: `${running.origin}/hooks/hub`, notification_url: `${running.origin}/hooks/hub` }],
    }),
  });
  if (!response.ok)
    throw new Error(`The simulator refused the webhook URLs: ${response.status} ${await response.text()}`);
}

console.log(`
  Hono example:       ${running.origin}/   (open it, sign in as Alice, open a table, press Pay)
  points page:        ${running.origin}/points
  service API:        ${hub.baseUrl}${simulator ? '  (local simulator)' : ''}
  form site:          ${hub.formUrl}${simulator ? `\n  simulator console:  ${simulator.baseUrl}/console/   (refund a charge, send test events)` : ''}
  ledger:             in memory (examples/hono/stores.js)
`);

const stop = () =>
  Promise.all([running.close(), simulator?.close()]).then(
    () => process.exit(0),
    () => process.exit(1),
  );
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
