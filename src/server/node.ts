// toNodeListener: the toolkit's Web handlers served by node:http, Express and connect.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SourceInfo } from './addresses.js';
import {
  NO_BODY,
  bodyStream,
  isRepresentable,
  parsedBody,
  readNodeBody,
  requestHeaders,
  requestUrl,
} from './node-request.js';
import { hangUp, writeResponse } from './node-response.js';
import { plainHandlerOf, type PlainHandler, type PlainInput } from './plain.js';

/** Any of the toolkit's handlers: the webhook handler reads the second argument, the token handler ignores it. */
export type WebRequestHandler = (request: Request, info: SourceInfo) => Promise<Response>;

/** node:http's (req, res), and Express / connect's (req, res, next). */
export type NodeListener = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;

/**
 * The fast path for a handler with a plain form (the token handler): the same checks and answers as
 * through a Web Request, without building one unless a callback asks for it (the session lookup then
 * gets the URL, method and headers; the body is the handler's to read, bounded).
 */
function servePlain(
  plain: PlainHandler,
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  already: Uint8Array | string | undefined,
): Promise<void> {
  let abandoned = false;
  let bodyRead = false;
  let request: Request | undefined;
  const input: PlainInput = {
    method,
    header: (name) => {
      const value = req.headers[name];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
    request: () => (request ??= new Request(requestUrl(req), { method, headers: requestHeaders(req) })),
    body: async (maxBytes) => {
      if (bodyRead || NO_BODY.has(method)) return new Uint8Array(0);
      bodyRead = true;
      if (already !== undefined) {
        const bytes = typeof already === 'string' ? new TextEncoder().encode(already) : already;
        return bytes.length > maxBytes ? undefined : bytes;
      }
      return readNodeBody(req, maxBytes, () => (abandoned = true));
    },
  };
  return plain(input).then(({ status, headers, body }) => {
    res.statusCode = status;
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    // As on the Web path: an unread body is still arriving; answer and close rather than read it.
    if (abandoned) res.setHeader('connection', 'close');
    // A handler that gave up on a body still arriving (too slow) closes: drop the socket once answered.
    if (headers.connection === 'close' && !req.readableEnded) res.once('finish', () => req.socket.destroy());
    res.end(body ?? undefined);
    if (abandoned) req.resume(); // discard what still arrives until the socket closes
  });
}

/**
 * Adapts a Web-standard handler to node:http, Express and connect, passing `req.socket.remoteAddress` as
 * the source address. With Express, mount it before any body parser (or use express.raw()). The token
 * handler is served through its plain form (plain.ts), with the same answers and far less work.
 */
export function toNodeListener(handler: WebRequestHandler): NodeListener {
  const plain = plainHandlerOf(handler);
  return (req, res, next) => {
    const method = (req.method ?? 'GET').toUpperCase();
    if (!isRepresentable(method)) {
      // 405, not the 500 a throwing Request constructor would give; what the handler does allow only the
      // handler knows, so there is no Allow header to give.
      res.statusCode = 405;
      res.setHeader('content-type', 'text/plain; charset=utf-8');
      res.setHeader('cache-control', 'no-store');
      res.end('Method Not Allowed');
      return;
    }
    const already = parsedBody(req);
    const consumed = req.readableEnded && already === undefined && (req as { body?: unknown }).body !== undefined;
    const run = async () => {
      if (consumed) {
        throw new Error(
          'hub-embed: the request body was already parsed; mount toNodeListener before express.json() or use express.raw({type: "application/json"}).',
        );
      }
      if (plain) return servePlain(plain, req, res, method, already);
      let abandoned = false;
      const controller = new AbortController();
      res.once('close', () => {
        if (!res.writableFinished) controller.abort();
      });
      const init: RequestInit & { duplex?: 'half' } = {
        method,
        headers: requestHeaders(req),
        signal: controller.signal,
      };
      if (!NO_BODY.has(method)) {
        init.body = already ?? bodyStream(req, () => (abandoned = true));
        init.duplex = 'half';
      }
      const response = await handler(new Request(requestUrl(req), init), { remoteAddress: req.socket.remoteAddress });
      // A handler that gave up on a body still arriving (too slow) closes: drop the socket once answered.
      if (response.headers.get('connection') === 'close' && !req.readableEnded) res.once('finish', () => hangUp(req));
      await writeResponse(response, res, abandoned);
      if (abandoned) req.resume(); // discard what still arrives until the socket closes
    };
    run().catch((error: unknown) => {
      if (next) {
        next(error);
        return;
      }
      if (!res.headersSent) {
        res.statusCode = 500;
        res.setHeader('content-type', 'text/plain; charset=utf-8');
        res.end('Internal Server Error');
      } else {
        res.destroy();
      }
    });
  };
}
