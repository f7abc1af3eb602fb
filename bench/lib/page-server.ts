/**
 * The page the benchmarks and the fault run load in Chromium: the BUILT script bundle, a blank page,
 * and a developer token endpoint (createTokenHandler + createHubClient) in front of the simulator.
 * The session is a cookie (`bench_user`), as a real backend would decide the user; the browser never
 * names the user in the request.
 */
import { readFileSync, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createHubClient, createTokenHandler, toNodeListener } from '../../src/server/index.js';
import { sleep, type LoggedRequest } from './latency-proxy.js';

export const IIFE_PATH = fileURLToPath(new URL('../../dist/hub-embed.iife.js', import.meta.url));

export const PAGE_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>hub-embed bench</title>
<style>body{margin:0;font:14px system-ui,sans-serif;width:1200px}</style></head>
<body><script src="/hub-embed.iife.js"></script></body></html>`;

/** The built script bundle, or a clear error telling how to make it. */
export function readBundle(): Buffer {
  if (!existsSync(IIFE_PATH))
    throw new Error(`${IIFE_PATH} is missing: run \`npm run build\` first (the benchmark measures the built bundle).`);
  return readFileSync(IIFE_PATH);
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
  close(): Promise<void>;
}

const USER_COOKIE = /(?:^|;\s*)bench_user=([A-Za-z0-9_-]{1,64})/;

export async function startPageServer(options: PageServerOptions): Promise<PageServer> {
  const bundle = readBundle();
  const serviceLatencyMs = options.serviceLatencyMs ?? 0;
  const client = createHubClient({
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

  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/api/hub-token') return void tokenListener(req, res);
    if (req.method === 'GET' && path === '/hub-embed.iife.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
      return void res.end(bundle);
    }
    if (req.method === 'GET' && path === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      return void res.end(PAGE_HTML);
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('Not found');
  });
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
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
