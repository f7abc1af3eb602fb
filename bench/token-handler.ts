/**
 * Token handler throughput: createTokenHandler behind toNodeListener on node:http over loopback, N
 * requests from U users (each user a sequential client, all users at once), upstream = the simulator
 * on its own node:http server. Reference in the same run: a naive pass-through handler that exchanges
 * a token upstream for every request.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startMockHub } from '../src/mock/index.js';
import { createHubClient, createTokenHandler, toNodeListener, type TokenHandler } from '../src/server/index.js';

export interface HandlerRun {
  requests: number;
  users: number;
  elapsedMs: number;
  requestsPerSecond: number;
  /** Exchanges the simulator saw (POST /apikeys/token), not what the handler claims. */
  upstreamExchanges: number;
  failures: number;
}

export interface TokenHandlerResults {
  cached: HandlerRun;
  naive: HandlerRun;
}

const USER = /(?:^|;\s*)uid=([\w-]{1,64})/;

async function serve(handler: TokenHandler): Promise<{ url: string; server: Server }> {
  const server = createServer(toNodeListener(handler));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`, server };
}

async function load(url: string, requests: number, users: number): Promise<{ elapsedMs: number; failures: number }> {
  const perUser = Math.ceil(requests / users);
  let failures = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: users }, async (_, u) => {
      for (let i = 0; i < perUser && u * perUser + i < requests; i++) {
        const response = await fetch(url, {
          method: 'POST',
          headers: { cookie: `uid=bench-${u}`, 'content-type': 'application/json' },
          body: '{"reason":"initial"}',
        });
        const body = (await response.json()) as { access_token?: unknown };
        if (response.status !== 200 || typeof body.access_token !== 'string') failures++;
      }
    }),
  );
  return { elapsedMs: performance.now() - start, failures };
}

export async function measureTokenHandler(options: { requests: number; users: number }): Promise<TokenHandlerResults> {
  const mock = await startMockHub({});
  const client = createHubClient({ apiKey: mock.apiKey, baseUrl: mock.baseUrl });
  const resolveClientUserId = (request: Request) => USER.exec(request.headers.get('cookie') ?? '')?.[1] ?? null;
  const cachedHandler = createTokenHandler({ client, resolveClientUserId });
  const naiveHandler: TokenHandler = async (request) => {
    const user = resolveClientUserId(request);
    if (!user) return new Response('{"error":"Sign in first."}', { status: 401 });
    const token = await client.exchangeToken(user);
    return new Response(JSON.stringify({ access_token: token.accessToken, expires_in: token.expiresIn }), {
      headers: { 'content-type': 'application/json' },
    });
  };
  const exchanges = () => mock.hub.requestLog.filter((entry) => entry.path.endsWith('/apikeys/token')).length;
  const run = async (handler: TokenHandler): Promise<HandlerRun> => {
    const { url, server } = await serve(handler);
    try {
      const before = exchanges();
      const { elapsedMs, failures } = await load(url, options.requests, options.users);
      return {
        requests: options.requests,
        users: options.users,
        elapsedMs,
        requestsPerSecond: Math.round((options.requests / elapsedMs) * 1000),
        upstreamExchanges: exchanges() - before,
        failures,
      };
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  };
  try {
    const cached = await run(cachedHandler);
    const naive = await run(naiveHandler);
    return { cached, naive };
  } finally {
    await mock.close();
  }
}
