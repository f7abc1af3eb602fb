// @ts-check
// `npm run example:react` and `npm run example:vue`: the Express example (with the simulator) plus the
// framework's Vite dev server. The dev server forwards the Express app's routes (/api, sign-in, the points
// page), so the page and its token endpoint share one origin and the session cookie.
import { createServer as createNetServer } from 'node:net';
import { createServer } from 'vite';
import { startExample, viteExampleBanner } from './express/server.js';

const framework = process.argv[2];
if (framework !== 'react' && framework !== 'vue') {
  console.error('Usage: node examples/vite-dev.js react|vue');
  process.exit(2);
}

/** The preferred port when it is free, else any free port. @param {number} preferred @returns {Promise<number>} */
function freePort(preferred) {
  return new Promise((resolve) => {
    const probe = createNetServer();
    probe.once('error', () => (preferred === 0 ? resolve(0) : freePort(0).then(resolve)));
    probe.listen(preferred, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (probe.address());
      probe.close(() => resolve(port));
    });
  });
}

const port = await freePort(
  process.env.VITE_PORT ? Number(process.env.VITE_PORT) : framework === 'react' ? 5173 : 5174,
);
const origin = `http://127.0.0.1:${port}`;
// The token handler answers only listed origins: the dev server's is one.
const backend = await startExample({ extraOrigins: [origin] });
const vite = await createServer({
  root: new URL(`./${framework}/`, import.meta.url).pathname,
  configFile: new URL(`./${framework}/vite.config.js`, import.meta.url).pathname,
  server: {
    host: '127.0.0.1',
    port,
    strictPort: true,
    proxy: Object.fromEntries(
      ['/api', '/sign-in', '/sign-out', '/points', '/assets', '/favicon.ico'].map((path) => [path, backend.origin]),
    ),
  },
  logLevel: 'warn',
});
await vite.listen();
console.log(viteExampleBanner(framework, origin, backend));

const stop = () =>
  Promise.all([vite.close(), backend.close()]).then(
    () => process.exit(0),
    () => process.exit(1),
  );
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
