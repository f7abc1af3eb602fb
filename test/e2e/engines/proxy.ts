// A recording HTTP proxy between the browser and every server of a test, the same in all three
// engines: it sees each request with the headers the browser put on the wire (the API key check needs
// exactly that), and the token endpoint's answers. WebDriver classic (WebKit) has no network events,
// no console and no error events; for that engine the proxy also adds a small recorder script to each
// HTML page, served from the page's own origin (so `script-src 'self'` allows it), that reports
// console.error/warn, uncaught errors and unhandled rejections back to the proxy.
import { createServer, request as httpRequest, Agent, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/** Paths the proxy answers itself, on any origin. */
const OWN = '/__hub_engine__/';

export interface ProxiedRequest {
  url: string;
  method: string;
  /** As the browser sent them, names in lower case. */
  headers: Record<string, string>;
}

export interface PageReport {
  kind: 'error' | 'warning' | 'pageerror';
  text: string;
  /** The page that reported it. */
  where: string;
}

export interface ProxyListener {
  request?(request: ProxiedRequest): void;
  /** The body of a 200 answer from a URL ending in /api/hub-token. */
  tokenResponse?(body: string): void;
  report?(report: PageReport): void;
}

/**
 * Reports through a synchronous request, so that a report has reached the proxy before the call that
 * made it returns (a test reading the list right after sees it).
 */
const RECORDER = `(function () {
  'use strict';
  if (window.__hubEngineRecorder) return;
  window.__hubEngineRecorder = true;
  function send(kind, text) {
    try {
      var x = new XMLHttpRequest();
      x.open('POST', '${OWN}log', false);
      x.setRequestHeader('content-type', 'application/json');
      x.send(JSON.stringify({ kind: kind, text: String(text), where: location.href }));
    } catch (e) {}
  }
  function text(args) {
    return Array.prototype.map.call(args, function (a) {
      return a instanceof Error ? a.message : typeof a === 'object' ? JSON.stringify(a) : String(a);
    }).join(' ');
  }
  var error = console.error, warn = console.warn;
  console.error = function () { send('error', text(arguments)); return error.apply(console, arguments); };
  console.warn = function () { send('warning', text(arguments)); return warn.apply(console, arguments); };
  window.addEventListener('error', function (e) { if (e.error || e.message) send('pageerror', e.error && e.error.message || e.message); });
  window.addEventListener('unhandledrejection', function (e) {
    send('pageerror', e.reason && e.reason.message || String(e.reason));
  });
})();
`;

const HOP_BY_HOP = ['proxy-connection', 'proxy-authorization', 'connection', 'keep-alive'];

export interface RecordingProxy {
  port: number;
  /** Calls `listener` for everything the proxy sees until the returned function is called. */
  listen(listener: ProxyListener): () => void;
  close(): Promise<void>;
}

export async function startProxy(options: { injectRecorder: boolean }): Promise<RecordingProxy> {
  const listeners = new Set<ProxyListener>();
  const agent = new Agent({ keepAlive: true });
  const emit = (call: (listener: ProxyListener) => void) => listeners.forEach(call);

  const answerOwn = (req: IncomingMessage, res: ServerResponse, path: string) => {
    if (path === `${OWN}recorder.js`) {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
      return res.end(RECORDER);
    }
    if (path === `${OWN}narrow.html`) {
      // A phone-wide window onto a page of this origin, for engines whose window cannot be that narrow:
      // the frame's viewport is as wide as asked, and it keeps the origin's cookies (same site).
      const query = new URL(req.url ?? '').searchParams;
      const width = Number(query.get('width')) || 375;
      const height = Number(query.get('height')) || 812;
      const src = query.get('src') ?? '/';
      if (!src.startsWith('/') || src.startsWith('//')) return void res.writeHead(400).end('src must be a path');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      return void res.end(
        `<!doctype html><meta charset="utf-8"><title>${width} px</title><style>body{margin:0}iframe{display:block;border:0}</style>` +
          `<iframe id="narrow" width="${width}" height="${height}" src="${src.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`)}"></iframe>`,
      );
    }
    if (path === `${OWN}log` && req.method === 'POST') {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        try {
          const report = JSON.parse(body) as PageReport;
          emit((l) => l.report?.(report));
        } catch {
          // A report the recorder did not write: nothing to record.
        }
        res.writeHead(204).end();
      });
      return;
    }
    res.writeHead(404).end();
  };

  const server = createServer((req, res) => {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      return void res.writeHead(400, { 'content-type': 'text/plain' }).end('a proxy request needs an absolute URL');
    }
    if (target.pathname.startsWith(OWN)) return answerOwn(req, res, target.pathname);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || HOP_BY_HOP.includes(name)) continue;
      headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    emit((l) => l.request?.({ url: target.href, method: req.method ?? 'GET', headers: { ...headers } }));
    // A kept-alive socket the server closes as it is reused fails with ECONNRESET before any answer (the
    // race Node's http docs describe); a request of a safe method (RFC 9110 9.2.1), which has no body
    // here, is sent again once on a fresh socket. OPTIONS too: a 502 to a CORS preflight fails the
    // request it guards as a network error.
    const bodiless = req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS';
    const forward = (firstTry: boolean) => {
      const upstream = httpRequest(
        {
          host: target.hostname,
          port: target.port || 80,
          path: target.pathname + target.search,
          method: req.method,
          headers,
          agent,
        },
        (answer) => {
          const type = String(answer.headers['content-type'] ?? '');
          const isToken = target.pathname.endsWith('/api/hub-token') && answer.statusCode === 200;
          // Documents only: a script the page loads is sometimes served as text/html (a test's stand-in file).
          const isDocument = String(req.headers.accept ?? '').includes('text/html');
          const inject =
            options.injectRecorder && isDocument && type.startsWith('text/html') && !answer.headers['content-encoding'];
          const outHeaders = { ...answer.headers };
          for (const name of HOP_BY_HOP) delete outHeaders[name];
          if (!isToken && !inject) {
            res.writeHead(answer.statusCode ?? 502, outHeaders);
            return void answer.pipe(res);
          }
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('end', () => {
            let body = Buffer.concat(chunks);
            if (isToken) emit((l) => l.tokenResponse?.(body.toString()));
            if (inject) {
              const html = body.toString();
              const tag = `<script src="${OWN}recorder.js"></script>`;
              const head = /<head[^>]*>/i.exec(html);
              body = Buffer.from(
                head
                  ? html.slice(0, head.index + head[0].length) + tag + html.slice(head.index + head[0].length)
                  : tag + html,
              );
              delete outHeaders['content-length'];
            }
            res.writeHead(answer.statusCode ?? 502, outHeaders);
            res.end(body);
          });
        },
      );
      upstream.on('error', (error: NodeJS.ErrnoException) => {
        if (firstTry && bodiless && upstream.reusedSocket && error.code === 'ECONNRESET' && !res.headersSent)
          return forward(false);
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`proxy: ${error.message}`);
      });
      // Sent again, a request has no body left to pipe: only a bodiless one is.
      if (firstTry) req.pipe(upstream);
      else upstream.end();
    };
    forward(true);
  });

  // Chromium and Firefox tunnel WebSockets (Vite's reload channel in the examples) through CONNECT.
  const tunnels = new Set<Socket>();
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host!, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    for (const socket of [client, upstream]) {
      tunnels.add(socket);
      socket.on('error', () => socket.destroy());
      socket.on('close', () => tunnels.delete(socket));
    }
  });

  // WebKit (libsoup) sends the WebSocket upgrade to the proxy as a GET with an absolute URL instead.
  server.on('upgrade', (req: IncomingMessage, client: Socket, head: Buffer) => {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      return void client.destroy();
    }
    const upstream = connect(Number(target.port || 80), target.hostname, () => {
      const lines = [`${req.method} ${target.pathname}${target.search} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        if (!/^proxy-/i.test(req.rawHeaders[i]!)) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      }
      upstream.write(lines.join('\r\n') + '\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    for (const socket of [client, upstream]) {
      tunnels.add(socket);
      socket.on('error', () => socket.destroy());
      socket.on('close', () => tunnels.delete(socket));
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      for (const socket of tunnels) socket.destroy();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      agent.destroy();
    },
  };
}
