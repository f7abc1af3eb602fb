/**
 * Token handler throughput on node:http over loopback, with the load generated from a separate process
 * (bench/lib/load-client.ts, forked) so that sending and serving do not share an event loop. N requests
 * from U users (each a sequential client, all at once), against the simulator upstream, in one run:
 *   - limit: a minimal node:http handler answering cached JSON, the most node:http can do here;
 *   - fast path: createTokenHandler behind toNodeListener (its plain form, src/server/plain.ts);
 *   - Web path: the same handler through a Web Request and Response, as every request went before;
 *   - pass-through: a naive handler that exchanges a token upstream for every request.
 * The three cached servers are measured in rounds, alternating the order, after one warm-up request per
 * user (so the handler's cache holds every user); each figure is the median over the rounds.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { startSimulator } from '../packages/hub-embed-mock/src/index.js';
import { createServerClient, createTokenHandler, toNodeListener, type TokenHandler } from '../src/server/index.js';
import type { LoadJob, LoadResult } from './lib/load-client.js';
import { median } from './lib/stats.js';

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
  rounds: number;
  /** Median req/s over the rounds, and every round's figure. */
  limit: { requestsPerSecond: number; samples: number[] };
  fast: { requestsPerSecond: number; samples: number[] };
  web: { requestsPerSecond: number; samples: number[] };
  /** The fast path, last round: exchanges over the warm-up and every round (one per user). */
  cached: HandlerRun;
  naive: HandlerRun;
}

/** The fast path at least doubles the Web path's req/s, in the same run. */
export const FAST_PATH_TARGET = 2;

const USER = /(?:^|;\s*)uid=([\w-]{1,64})/;
const BODY = '{"reason":"initial","load":{"tags":[]}}';

async function serve(listener: RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A forked load generator; `run` sends it one job and waits for its result. */
function startLoadClient(): { run(job: LoadJob): Promise<LoadResult>; stop(): void } {
  const child: ChildProcess = fork(fileURLToPath(new URL('./lib/load-client.ts', import.meta.url)), {
    execArgv: ['--import', fileURLToPath(new URL('../scripts/ts-register.mjs', import.meta.url))],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return {
    run: (job) =>
      new Promise((resolve, reject) => {
        const onExit = (code: number | null) => reject(new Error(`the load generator exited (${code})`));
        child.once('exit', onExit);
        child.once('message', (result) => {
          child.off('exit', onExit);
          resolve(result as LoadResult);
        });
        child.send(job);
      }),
    stop: () => child.kill(),
  };
}

export async function measureTokenHandler(options: {
  requests: number;
  users: number;
  rounds: number;
}): Promise<TokenHandlerResults> {
  const { requests, users, rounds } = options;
  // A log long enough for every pass-through exchange: they are counted from it.
  const mock = await startSimulator({ logLimit: 1_000_000 });
  const client = createServerClient({ apiKey: mock.apiKey, baseUrl: mock.baseUrl });
  const resolveClientUserId = (request: Request) => USER.exec(request.headers.get('cookie') ?? '')?.[1] ?? null;
  const handler = createTokenHandler({ client, resolveClientUserId });
  const naiveHandler: TokenHandler = async (request) => {
    const user = resolveClientUserId(request);
    if (!user) return new Response('{"error":"Sign in first."}', { status: 401 });
    const token = await client.exchangeToken(user);
    return new Response(JSON.stringify({ access_token: token.accessToken, expires_in: token.expiresIn }), {
      headers: { 'content-type': 'application/json' },
    });
  };
  const cachedJson = JSON.stringify({ access_token: 'cached-token-of-the-limit-handler', expires_in: 3600 });
  const servers = {
    fast: await serve(toNodeListener(handler)),
    // The same handler through a function without its plain form: a Request and a Response per call.
    web: await serve(toNodeListener((request) => handler(request))),
    limit: await serve((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
        res.end(cachedJson);
      });
    }),
    naive: await serve(toNodeListener(naiveHandler)),
  };
  const exchanges = () => mock.hub.requestLog.filter((entry) => entry.path.endsWith('/apikeys/token')).length;
  const load = startLoadClient();
  const job = (url: string, count = requests): LoadJob => ({ url, requests: count, users, body: BODY });
  try {
    const before = exchanges();
    const warmUp = await load.run(job(servers.fast.url, users));
    const samples = { fast: [] as number[], web: [] as number[], limit: [] as number[] };
    let failures = warmUp.failures;
    let last: LoadResult = warmUp;
    for (let round = 0; round < rounds; round++) {
      const order = (['limit', 'fast', 'web'] as const).slice();
      if (round % 2) order.reverse();
      for (const name of order) {
        const result = await load.run(job(servers[name].url));
        samples[name].push(Math.round((requests / result.elapsedMs) * 1000));
        if (name !== 'limit') failures += result.failures;
        if (name === 'fast') last = result;
      }
    }
    const runOf = (result: LoadResult, upstreamExchanges: number, failed: number): HandlerRun => ({
      requests,
      users,
      elapsedMs: result.elapsedMs,
      requestsPerSecond: Math.round((requests / result.elapsedMs) * 1000),
      upstreamExchanges,
      failures: failed,
    });
    const cached = runOf(last, exchanges() - before, failures);
    const naiveBefore = exchanges();
    const naiveResult = await load.run(job(servers.naive.url));
    const naive = runOf(naiveResult, exchanges() - naiveBefore, naiveResult.failures);
    const summary = (list: number[]) => ({ requestsPerSecond: median(list), samples: list });
    return {
      rounds,
      limit: summary(samples.limit),
      fast: summary(samples.fast),
      web: summary(samples.web),
      cached,
      naive,
    };
  } finally {
    load.stop();
    for (const server of Object.values(servers)) await server.close();
    await mock.close();
  }
}
