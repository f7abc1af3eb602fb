/**
 * The browser's network to the service, modelled: a loopback HTTP proxy in front of the simulator that
 * answers every request (CORS preflights included) one round trip L_b late, and logs when each arrived
 * and when its answer went out. The developer's server reaches the simulator directly, with its own
 * latency L_s (see page-server.ts), so the two latencies are separate as on a real phone network.
 *
 * Optionally (`connectMs`) a new connection costs its set-up too, as a TCP handshake costs a round trip
 * on a real network (TLS one more): a request is answered `connectMs` after its connection opened at the
 * earliest, plus its own round trip. Loopback connects at once, so without this a `preconnect` can show
 * nothing; with it, a connection opened early (and idle since) saves that set-up.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One browser request as a server saw it: arrival and the end of its answer, on performance.now(). */
export interface LoggedRequest {
  method: string;
  path: string;
  start: number;
  end: number;
}

export interface LatencyProxy {
  url: string;
  log: LoggedRequest[];
  close(): Promise<void>;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Models each new connection's set-up on `server` (`connectMs` from when it opened): returns, for a
 * request, how much of its connection's set-up is still to come. A request is answered that much later
 * plus its own round trip.
 */
export function connectionSetUp(server: Server, connectMs: number): (req: IncomingMessage) => number {
  const readyAt = new WeakMap<Socket, number>();
  server.on('connection', (socket: Socket) => readyAt.set(socket, performance.now() + connectMs));
  return (req) => Math.max(0, (readyAt.get(req.socket) ?? 0) - performance.now());
}

export async function startLatencyProxy(target: string, latencyMs: number, connectMs = 0): Promise<LatencyProxy> {
  const upstream = new URL(target);
  const log: LoggedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const start = performance.now();
    const entry = { method: req.method ?? 'GET', path: req.url ?? '/', start, end: start };
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    // Measured on arrival: the connection's set-up, if it is still going on, then the round trip.
    const wait = setUpLeft(req) + latencyMs;
    req.on('end', async () => {
      // The whole round trip at once: the request's way out and the answer's way back.
      await sleep(wait);
      const headers = { ...req.headers, host: upstream.host };
      const forward = httpRequest(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          answer.on('end', () => {
            entry.end = performance.now();
            log.push(entry);
          });
        },
      );
      forward.on('error', () => res.writeHead(502).end());
      forward.end(Buffer.concat(chunks));
    });
  });
  const setUpLeft = connectionSetUp(server, connectMs);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Serial round trips in a network log: the longest chain of requests in which each one started only
 * after the one before it had its answer. Requests that overlap count as one trip.
 */
export function serialRoundTrips(log: readonly LoggedRequest[]): number {
  const sorted = [...log].sort((a, b) => a.start - b.start);
  const depth: number[] = [];
  sorted.forEach((request, i) => {
    let before = 0;
    for (let j = 0; j < i; j++) if (sorted[j]!.end <= request.start) before = Math.max(before, depth[j]!);
    depth.push(before + 1);
  });
  return Math.max(0, ...depth);
}
