import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SourceInfo } from './addresses.js';
import { plainHandlerOf, type PlainHandler, type PlainInput } from './plain.js';

/** Any of the toolkit's handlers: the webhook handler reads the second argument, the token handler ignores it. */
export type WebRequestHandler = (request: Request, info: SourceInfo) => Promise<Response>;

/** node:http's (req, res), and Express / connect's (req, res, next). */
export type NodeListener = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;

const NO_BODY = new Set(['GET', 'HEAD']);

/**
 * Whether a Web-standard Request can carry this method. The Fetch standard forbids CONNECT, TRACE and
 * TRACK (node:http hands TRACE to listeners), and `new Request()` throws on them: no handler written
 * against Request can serve them, so they are this adapter's to refuse.
 */
function isRepresentable(method: string): boolean {
  let known = representable.get(method);
  if (known === undefined) {
    try {
      new Request('http://localhost/', { method });
      known = true;
    } catch {
      known = false;
    }
    // Bounded: node:http hands listeners only the methods it knows (about 35).
    if (representable.size < 64) representable.set(method, known);
  }
  return known;
}

/** Each method is tried once: a Request per call only to ask this was a measurable part of the cost. */
const representable = new Map<string, boolean>();

function requestUrl(req: IncomingMessage): string {
  const scheme = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  const path = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/';
  try {
    return new URL(path, `${scheme}://${req.headers.host ?? 'localhost'}`).href;
  } catch {
    // A hostile Host header must not stop the handler from answering (e.g. with 403).
    return new URL(path.startsWith('/') ? path : '/', `${scheme}://localhost`).href;
  }
}

function requestHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (let index = 0; index + 1 < req.rawHeaders.length; index += 2) {
    try {
      headers.append(req.rawHeaders[index]!, req.rawHeaders[index + 1]!);
    } catch {
      // Node accepts a few header bytes that Headers rejects; such a header cannot be meant for us.
    }
  }
  return headers;
}

/**
 * The body as a web stream that pulls from the socket only as fast as the handler reads, so a handler
 * that stops at its size bound stops the reading too; the rest is never buffered.
 */
function bodyStream(req: IncomingMessage, onAbandon: () => void): ReadableStream<Uint8Array<ArrayBuffer>> {
  // After a cancel the socket keeps delivering what the client still sends; that data is dropped here.
  let finished = false;
  return new ReadableStream<Uint8Array<ArrayBuffer>>(
    {
      start(controller) {
        req.on('data', (chunk: Buffer) => {
          if (finished) return;
          // A copy: Node may reuse pooled Buffer memory after the event.
          controller.enqueue(new Uint8Array(chunk));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        });
        req.once('end', () => {
          if (!finished) controller.close();
          finished = true;
        });
        req.once('error', (error) => {
          if (!finished) controller.error(error);
          finished = true;
        });
        req.pause();
      },
      pull() {
        req.resume();
      },
      cancel() {
        finished = true;
        req.pause();
        onAbandon();
      },
    },
    { highWaterMark: 1 },
  );
}

/** A body an Express body parser already consumed, when it kept the raw bytes. */
function parsedBody(req: IncomingMessage): Uint8Array<ArrayBuffer> | string | undefined {
  const body = (req as { body?: unknown }).body;
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return new Uint8Array(body);
  return undefined;
}

/**
 * Closes a connection whose body is still arriving: our side first (FIN after the answer), then the whole
 * socket a moment later. Destroying it at once, with the sender's bytes unread, resets the connection,
 * and a reset can discard the answer before the sender reads it.
 */
function hangUp(req: IncomingMessage): void {
  req.resume(); // discard what still arrives
  req.socket.end();
  const timer: unknown = setTimeout(() => req.socket.destroy(), 1000);
  // Node's timer keeps a process alive unless unref'd; where setTimeout gives a number there is nothing to do.
  (timer as { unref?: () => void }).unref?.();
}

async function writeResponse(response: Response, res: ServerResponse, closeAfter: boolean): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') res.setHeader(name, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);
  // An unread body is still arriving; answering and closing beats reading megabytes we will not use.
  if (closeAfter) res.setHeader('connection', 'close');
  if (response.body === null) {
    res.end();
    return;
  }
  // By hand rather than node:stream's pipeline: hub-embed/server then imports no node: module, so the same
  // entry loads on workerd, which has none without nodejs_compat.
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await drained(res);
    }
    res.end();
  } catch (error) {
    await reader.cancel(error).catch(() => undefined);
    res.destroy();
    throw error;
  }
}

/** Waits for the socket to take more; a client that went away ends the wait with an error. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve, reject) => {
    const onDrain = () => {
      res.off('close', onClose);
      resolve();
    };
    const onClose = () => {
      res.off('drain', onDrain);
      reject(new Error('The client closed the connection before the answer was sent.'));
    };
    res.once('drain', onDrain);
    res.once('close', onClose);
  });
}

/**
 * The body straight from the socket, up to maxBytes: no web stream in between. Past the bound (or when
 * Content-Length already says so) it stops listening and pauses the socket, and calls onAbandon.
 */
function readNodeBody(req: IncomingMessage, maxBytes: number, onAbandon: () => void): Promise<Uint8Array | undefined> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && /^[0-9]+$/.test(declared.trim()) && Number(declared) > maxBytes) {
    onAbandon();
    return Promise.resolve(undefined);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const stop = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total <= maxBytes) {
        chunks.push(chunk);
        return;
      }
      stop();
      req.pause();
      onAbandon();
      resolve(undefined);
    };
    const onEnd = () => {
      stop();
      resolve(new Uint8Array(Buffer.concat(chunks, total)));
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', onError);
  });
}

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
