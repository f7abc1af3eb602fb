/**
 * The page the benchmarks and the fault run load in Chromium: the BUILT script bundle with its form half
 * beside it (the first file adds /hub-embed.form.js, or the WebView one /hub-embed-webview.form.js, on intent), a blank page, and a developer token
 * endpoint (createTokenHandler + createServerClient) in front of the simulator. The session is a cookie
 * (`bench_user`), as a real backend would decide the user; the browser never names the user in the request.
 */
import { readFileSync, existsSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createServerClient, createTokenHandler, toNodeListener } from '../../src/server/index.js';
import { connectionSetUp, sleep, type LoggedRequest } from './latency-proxy.js';

export const IIFE_PATH = fileURLToPath(new URL('../../dist/hub-embed.iife.js', import.meta.url));
export const WEBVIEW_IIFE_PATH = fileURLToPath(new URL('../../dist/hub-embed-webview.iife.js', import.meta.url));
/** The form half of both <script> bundles, which the first file loads from beside itself. */
export const FORM_HALF_PATH = fileURLToPath(new URL('../../dist/hub-embed.form.js', import.meta.url));

export const PAGE_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>hub-embed bench</title>
<style>body{margin:0;font:14px system-ui,sans-serif;width:1200px}</style></head>
<body><script src="/hub-embed.iife.js"></script></body></html>`;

/** A built file of the <script> bundles, or a clear error telling how to make it. */
export function readBuilt(path: string): Buffer {
  if (!existsSync(path))
    throw new Error(`${path} is missing: run \`npm run build\` first (the benchmark measures the built bundle).`);
  return readFileSync(path);
}

/** The built script bundle (its first file). */
export function readBundle(): Buffer {
  return readBuilt(IIFE_PATH);
}

export interface PageServerOptions {
  /** The simulator's base URL and an API key it accepts. */
  baseUrl: string;
  apiKey: string;
  /** The token handler fetches the first tags and list along with the token (createTokenHandler's prefetch). */
  prefetch?: boolean;
  /** L_b: each token request is answered one browser round trip late. Default 0. */
  browserLatencyMs?: number;
  /** L_s: each call of the server to the service waits this long first. Default 0. */
  serviceLatencyMs?: number;
  /** The script the page loads; default dist/hub-embed.iife.js. */
  script?: Buffer;
  /** Served at /hub-embed.form.js and /hub-embed-webview.form.js; default dist/hub-embed.form.js. A build with the form half inside needs none. */
  formHalf?: Buffer;
  /** L_b for the page's scripts too (the first file and the form half). Default 0. */
  scriptLatencyMs?: number;
  /** A new connection's set-up, before its first answer (latency-proxy.ts). Default 0. */
  connectMs?: number;
  /** The page at `/` for the cookie's user, one L_b late; default PAGE_HTML at once. */
  page?: (user: string) => Promise<string>;
}

export interface TokenAnswer {
  time: number;
  status: number;
  user: string;
  reason: string;
}

export interface PageServer {
  url: string;
  /** Every answer of POST /api/hub-token, in order. */
  tokenAnswers: TokenAnswer[];
  /** Exchanges the token handler made upstream (calls of exchangeToken). */
  upstreamExchanges(): number;
  /** Every token request: arrival and the end of its answer. */
  tokenLog: LoggedRequest[];
  /** Every request for a script (the first file and the form half): arrival and the end of its answer. */
  scriptLog: LoggedRequest[];
  close(): Promise<void>;
}

const USER_COOKIE = /(?:^|;\s*)bench_user=([A-Za-z0-9_-]{1,64})/;

export async function startPageServer(options: PageServerOptions): Promise<PageServer> {
  const scripts = new Map<string, Buffer>([
    ['/hub-embed.iife.js', options.script ?? readBundle()],
    // Beside the script under both bundles' names (one file): the WebView bundle asks for its own.
    ['/hub-embed.form.js', options.formHalf ?? readBuilt(FORM_HALF_PATH)],
    ['/hub-embed-webview.form.js', options.formHalf ?? readBuilt(FORM_HALF_PATH)],
  ]);
  const serviceLatencyMs = options.serviceLatencyMs ?? 0;
  const client = createServerClient({
    apiKey: options.apiKey,
    baseUrl: options.baseUrl,
    fetch: serviceLatencyMs ? async (input, init) => (await sleep(serviceLatencyMs), fetch(input, init)) : undefined,
  });
  let exchanges = 0;
  const counted = {
    ...client,
    exchangeToken(id: string) {
      exchanges++;
      return client.exchangeToken(id);
    },
  };
  const tokenAnswers: TokenAnswer[] = [];
  const handler = createTokenHandler({
    client: counted,
    resolveClientUserId: (request) => USER_COOKIE.exec(request.headers.get('cookie') ?? '')?.[1] ?? 'bench-user',
    // Upstream failures are expected under fault injection; the status reaches the browser, the log is noise.
    onError: () => undefined,
    prefetch: options.prefetch,
  });
  const tokenLog: LoggedRequest[] = [];
  const tokenListener = toNodeListener(async (request) => {
    const entry = { method: request.method, path: new URL(request.url).pathname, start: performance.now(), end: 0 };
    // One browser round trip, at once (as the latency proxy does for the service).
    if (options.browserLatencyMs) await sleep(options.browserLatencyMs);
    const user = USER_COOKIE.exec(request.headers.get('cookie') ?? '')?.[1] ?? 'bench-user';
    const body = await request.clone().text();
    let reason = '';
    try {
      reason = String((JSON.parse(body) as { reason?: unknown }).reason ?? '');
    } catch {
      // A body that is not JSON still reaches the handler, which decides the answer.
    }
    const response = await handler(request);
    tokenAnswers.push({ time: Date.now(), status: response.status, user, reason });
    // The answer is small and written at once; its end is when the handler hands it over.
    entry.end = performance.now();
    tokenLog.push(entry);
    return response;
  });

  const scriptLog: LoggedRequest[] = [];
  const serveScript = async (path: string, body: Buffer, res: ServerResponse) => {
    const entry = { method: 'GET', path, start: performance.now(), end: 0 };
    if (options.scriptLatencyMs) await sleep(options.scriptLatencyMs);
    res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
    res.end(body, () => {
      entry.end = performance.now();
      scriptLog.push(entry);
    });
  };

  const server: Server = createServer(async (req, res) => {
    // A new connection's set-up comes before anything on it is answered (no wait when connectMs is 0).
    const left = setUpLeft(req);
    if (left) await sleep(left);
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/api/hub-token') return void tokenListener(req, res);
    const script = scripts.get(path);
    if (req.method === 'GET' && script) return void serveScript(path, script, res);
    if (req.method === 'GET' && path === '/') {
      let html = PAGE_HTML;
      if (options.page) {
        if (options.browserLatencyMs) await sleep(options.browserLatencyMs);
        html = await options.page(USER_COOKIE.exec(req.headers.cookie ?? '')?.[1] ?? 'bench-user');
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      return void res.end(html);
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('Not found');
  });
  const setUpLeft = connectionSetUp(server, options.connectMs ?? 0);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tokenAnswers,
    upstreamExchanges: () => exchanges,
    tokenLog,
    scriptLog,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
