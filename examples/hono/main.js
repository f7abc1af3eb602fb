// @ts-check
// `node|bun|deno examples/hono/main.js` (Deno: `deno run -A --unstable-sloppy-imports`): serves the app from
// environment variables and prints `listening <url>`. Needs HUB_API_KEY, HUB_BASE_URL, HUB_FORM_URL; optional
// PORT (default 3000), HUB_WEBHOOK_IPS and ALLOWED_HOSTS (comma-separated). `npm run example:hono` (start.js)
// starts the simulator too.
import { runtimeName, serveHonoExample } from './serve.js';

/** Reads a variable on Node, Bun and Deno. @param {string} name @returns {string | undefined} */
const env = (name) => /** @type {any} */ (globalThis).Deno?.env.get(name) ?? globalThis.process?.env[name];
/** @param {string} name */
const list = (name) =>
  String(env(name) ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

const missing = ['HUB_API_KEY', 'HUB_BASE_URL', 'HUB_FORM_URL'].filter((name) => !env(name));
if (missing.length)
  throw new Error(`examples/hono/main.js needs ${missing.join(', ')}; npm run example:hono sets them itself.`);
const running = await serveHonoExample({
  apiKey: String(env('HUB_API_KEY')),
  hubBaseUrl: String(env('HUB_BASE_URL')),
  hubFormUrl: String(env('HUB_FORM_URL')),
  port: Number(env('PORT') ?? 3000),
  allowIps: list('HUB_WEBHOOK_IPS'),
  allowedHosts: list('ALLOWED_HOSTS'),
});
console.log(`listening ${running.origin}/ (Hono on ${runtimeName()})`);
