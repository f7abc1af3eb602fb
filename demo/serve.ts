// `npm run demo`: the simulator (unless HUB_BASE_URL/HUB_FORM_URL/HUB_API_KEY point at a real
// deployment), the demo developer backend, and a Vite dev server for the demo pages, all on 127.0.0.1.
import { fileURLToPath } from 'node:url';
import { createServer, type Plugin, type ViteDevServer } from 'vite';
import { startSimulator, type RunningSimulator } from '../packages/hub-embed-mock/src/index.js';
import { toNodeListener } from '../src/server/index.js';
import { createDemoBackend, type DemoBackend } from './backend.js';
import pkg from '../package.json' with { type: 'json' };

export interface DemoServer {
  url: string;
  baseUrl: string;
  formUrl: string;
  backend: DemoBackend;
  mock?: RunningSimulator;
  close(): Promise<void>;
}

/**
 * Mounts the developer backend next to the pages and fills the pages' service addresses. The backend
 * needs the pages' origin, known only once the server listens: `backend()` is there from then on.
 */
function demoBackendPlugin(backend: () => DemoBackend, service: { baseUrl: string; formUrl: string }): Plugin {
  const listener = toNodeListener(
    async (request, info) =>
      (await backend().handle(request, info.remoteAddress)) ?? new Response('Not found', { status: 404 }),
  );
  return {
    name: 'hub-demo-backend',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        if (req.url?.startsWith('/api/') || req.url?.startsWith('/webhooks/')) void listener(req, res);
        else next();
      });
    },
    transformIndexHtml: (html) =>
      html.replaceAll('__HUB_BASE_URL__', service.baseUrl).replaceAll('__HUB_FORM_URL__', service.formUrl),
  };
}

export async function startDemo(
  options: { port?: number; host?: string; mock?: Parameters<typeof startSimulator>[0] } = {},
): Promise<DemoServer> {
  const host = options.host ?? '127.0.0.1';
  const { HUB_BASE_URL, HUB_FORM_URL, HUB_API_KEY } = process.env;
  const real =
    HUB_BASE_URL && HUB_FORM_URL && HUB_API_KEY
      ? { baseUrl: HUB_BASE_URL, formUrl: HUB_FORM_URL, apiKey: HUB_API_KEY }
      : undefined;
  const mock = real ? undefined : await startSimulator({ host, apiPort: 0, formPort: 0, ...options.mock });
  const service = real ?? { baseUrl: mock!.baseUrl, formUrl: mock!.formUrl, apiKey: mock!.apiKey };
  let backend: DemoBackend | undefined;
  const root = fileURLToPath(new URL('.', import.meta.url));
  const vite: ViteDevServer = await createServer({
    configFile: false,
    root,
    logLevel: 'warn',
    define: { __HUB_EMBED_VERSION__: JSON.stringify(pkg.version), __HUB_EMBED_WITH_BRIDGE__: 'true' },
    server: {
      host,
      port: options.port ?? 5173,
      strictPort: false,
      fs: { allow: [fileURLToPath(new URL('..', import.meta.url))] },
    },
    build: { rolldownOptions: { input: { index: `${root}index.html` } } },
    plugins: [demoBackendPlugin(() => backend!, service)],
  });
  await vite.listen();
  const url = vite.resolvedUrls!.local[0]!.replace(/\/$/, '');
  // The same page through "localhost" is the same demo, so both spellings of the origin may post.
  const port = new URL(url).port;
  backend = createDemoBackend({ ...service, origins: [url, `http://localhost:${port}`] });
  // The simulator calls the demo backend's webhook receiver, as the console's Webhook page would set it.
  mock?.hub.setWebhooks([{ notification_url: `${url}/webhooks/hub`, billing_url: `${url}/webhooks/hub` }]);
  return {
    url,
    baseUrl: service.baseUrl,
    formUrl: service.formUrl,
    backend,
    ...(mock ? { mock } : {}),
    async close() {
      await vite.close();
      await mock?.close();
    },
  };
}

/** What `npm run demo` prints: every address a newcomer opens, the simulator's console among them. */
export function demoBanner(demo: DemoServer): string {
  return [
    '',
    `  hub-embed demo:      ${demo.url}/`,
    `  WebView host demo:   ${demo.url}/webview.html`,
    `  service API:         ${demo.baseUrl}${demo.mock ? '  (local simulator)' : ''}`,
    `  form site:           ${demo.formUrl}`,
    ...(demo.mock
      ? [`  simulator console:   ${demo.mock.baseUrl}/console/   (keys, points, webhooks, test events)`]
      : []),
    '',
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const demo = await startDemo({ port: Number(process.env.PORT) || 5173 });
  console.log(demoBanner(demo));
  const stop = () => void demo.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
