// node:http's request as the Web handlers read it: its URL, headers and body, bounded and never read twice.
import type { IncomingMessage } from 'node:http';

export const NO_BODY = new Set(['GET', 'HEAD']);

/**
 * Whether a Web-standard Request can carry this method. The Fetch standard forbids CONNECT, TRACE and
 * TRACK (node:http hands TRACE to listeners), and `new Request()` throws on them: no handler written
 * against Request can serve them, so they are this adapter's to refuse.
 */
export function isRepresentable(method: string): boolean {
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

export function requestUrl(req: IncomingMessage): string {
  const scheme = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  const path = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/';
  try {
    return new URL(path, `${scheme}://${req.headers.host ?? 'localhost'}`).href;
  } catch {
    // A hostile Host header must not stop the handler from answering (e.g. with 403).
    return new URL(path.startsWith('/') ? path : '/', `${scheme}://localhost`).href;
  }
}

export function requestHeaders(req: IncomingMessage): Headers {
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
export function bodyStream(req: IncomingMessage, onAbandon: () => void): ReadableStream<Uint8Array<ArrayBuffer>> {
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
export function parsedBody(req: IncomingMessage): Uint8Array<ArrayBuffer> | string | undefined {
  const body = (req as { body?: unknown }).body;
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return new Uint8Array(body);
  return undefined;
}

/**
 * The body straight from the socket, up to maxBytes: no web stream in between. Past the bound (or when
 * Content-Length already says so) it stops listening and pauses the socket, and calls onAbandon.
 */
export function readNodeBody(
  req: IncomingMessage,
  maxBytes: number,
  onAbandon: () => void,
): Promise<Uint8Array | undefined> {
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
