/**
 * Node-only: the grader's own HTTP requests to the integrator's backend. Unlike fetch, node:http lets
 * the grader choose its source address (127.0.0.2 plays a stranger) and hold back a body's last byte
 * (a delivery whose answer can only come after the service's 10 seconds).
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

export interface ProbeRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** The source address to send from (default: the system's choice, 127.0.0.1 on loopback). */
  localAddress?: string;
  /** Hold the body's last byte until this many ms after sending began. */
  lastByteAtMs?: number;
  /**
   * Send the body in even drips, its last byte this many ms after the headers: a body that takes most of
   * the service's time to arrive while each drip keeps an idle timeout from firing.
   */
  dripOverMs?: number;
  /**
   * Hold the body's last byte until this settles; `onHeld` says when the rest was written. Many requests
   * released together reach the backend at once: what a race in its ledger needs to show.
   */
  release?: Promise<unknown>;
  onHeld?: () => void;
  /** Give up (and close the connection) this many ms after sending began. Default 15000. */
  timeoutMs?: number;
}

export interface ProbeAnswer {
  status: number | undefined;
  headers: Record<string, string>;
  body: string;
  /** Set when no answer came: 'timeout' or the socket error's code. */
  error?: string;
  ms: number;
}

/**
 * Characters a terminal acts on instead of showing: C0 and C1 controls (ESC starts a colour, a cursor move
 * or an OSC 52 clipboard write; CR overwrites the line; U+009B is a one-character CSI), line and paragraph
 * separators, bidi overrides and isolates (text shown in another order than it is), zero-width and
 * invisible formatters, and lone surrogates.
 */
const UNSHOWN =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Text a backend chose, made safe to print: each character a terminal would act on becomes `\uXXXX`. */
export function printable(text: string): string {
  return text.replace(UNSHOWN, (char) => {
    if (char === '\n') return '\\n';
    if (char === '\r') return '\\r';
    if (char === '\t') return '\\t';
    return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

/** Keeps a report line short and on one line whatever the answer held. */
export function brief(text: string, max = 160): string {
  const line = printable(text);
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

/** The status of an answer, or why there was none, for a message. */
export function statusOf(answer: Pick<ProbeAnswer, 'status' | 'error'>): string {
  return answer.status === undefined ? (answer.error ?? 'no answer') : String(answer.status);
}

export function describeAnswer(answer: ProbeAnswer): string {
  if (answer.status === undefined) return `no answer (${answer.error ?? 'closed'}) after ${answer.ms} ms`;
  return `${answer.status} ${brief(answer.body)} (${answer.ms} ms)`;
}

const MAX_KEPT = 256 * 1024;

export function probe(url: string, init: ProbeRequest = {}): Promise<ProbeAnswer> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let done = false;
    const finish = (answer: Omit<ProbeAnswer, 'ms'>) => {
      if (done) return;
      done = true;
      clearTimeout(overall);
      clearTimeout(lastByte);
      for (const drip of drips) clearTimeout(drip);
      resolve({ ...answer, ms: elapsed() });
    };
    const target = new URL(url);
    const body = init.body === undefined ? undefined : Buffer.from(init.body);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(target, {
      method: init.method ?? (body ? 'POST' : 'GET'),
      headers: { ...init.headers, ...(body ? { 'content-length': String(body.length) } : {}) },
      ...(init.localAddress ? { localAddress: init.localAddress } : {}),
      // A connection of its own each time: what one request left unread cannot garble the next rule's.
      agent: false,
    });
    let lastByte: ReturnType<typeof setTimeout> | undefined;
    const drips: ReturnType<typeof setTimeout>[] = [];
    const overall = setTimeout(() => {
      finish({ status: undefined, headers: {}, body: '', error: 'timeout' });
      req.destroy();
    }, init.timeoutMs ?? 15_000);
    req.on('error', (error: NodeJS.ErrnoException) =>
      finish({ status: undefined, headers: {}, body: '', error: error.code ?? error.message }),
    );
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_KEPT) chunks.push(chunk);
      });
      res.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers))
          if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
        finish({ status: res.statusCode, headers, body: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', (error) => finish({ status: res.statusCode, headers: {}, body: '', error: error.message }));
    });
    if (body === undefined) req.end();
    else if (init.release !== undefined && body.length > 0) {
      // Held only once the backend has it: written on the connected socket (a write before the connection
      // is buffered in this process, and the requests would then reach the backend one by one, as each
      // connects after the release).
      req.once('socket', (socket) => {
        const hold = () => req.write(body.subarray(0, body.length - 1), () => init.onHeld?.());
        if (socket.connecting) socket.once('connect', hold);
        else hold();
      });
      void init.release.then(() => req.end(body.subarray(body.length - 1)));
    } else if (init.dripOverMs !== undefined && body.length > 1) {
      // The headers now, then a slice of the body every 100 ms or so, the last at dripOverMs.
      const count = Math.min(body.length, Math.max(2, Math.ceil(init.dripOverMs / 100)));
      req.flushHeaders();
      for (let drip = 1; drip <= count; drip++) {
        const slice = body.subarray(
          Math.floor(((drip - 1) * body.length) / count),
          Math.floor((drip * body.length) / count),
        );
        drips.push(
          setTimeout(
            () => (drip === count ? req.end(slice) : req.write(slice)),
            Math.round((drip * init.dripOverMs) / count),
          ),
        );
      }
    } else if (init.lastByteAtMs === undefined || body.length === 0) req.end(body);
    else {
      req.write(body.subarray(0, body.length - 1));
      lastByte = setTimeout(() => req.end(body.subarray(body.length - 1)), init.lastByteAtMs);
    }
  });
}

/** The `ok` field of a deduct's answer: true, false, or undefined when the answer is no such JSON. */
export function okOf(answer: { body: string }): boolean | undefined {
  try {
    const parsed = JSON.parse(answer.body) as { ok?: unknown };
    return typeof parsed?.ok === 'boolean' ? parsed.ok : undefined;
  } catch {
    return undefined;
  }
}

/** A session given as `Header: value` (repeatable on the command line). */
export function parseSession(text: string): { name: string; value: string } {
  const at = text.indexOf(':');
  const name = text.slice(0, Math.max(at, 0)).trim();
  if (at <= 0 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) || text.slice(at + 1).trim() === '')
    throw new TypeError(`--session "${brief(text, 60)}" must be "Header: value", e.g. "Cookie: session=abc".`);
  return { name: name.toLowerCase(), value: text.slice(at + 1).trim() };
}

export interface RawAnswer {
  /** The status line's code; undefined when the backend closed (or timed out) without a status line. */
  status: number | undefined;
  /** Everything the backend sent, as text. */
  text: string;
  /** The body after the head (not de-chunked: enough to find `"ok":true`). */
  body: string;
  error?: string;
  ms: number;
}

/**
 * Sends a request as raw bytes, for framing node:http will not send (a negative or repeated
 * Content-Length), half-closes when `endAfter`, and reads the answer until the backend closes or
 * `timeoutMs` passes.
 */
export function rawProbe(
  url: string,
  head: string[],
  body: string,
  options: { timeoutMs: number; endAfter?: boolean },
): Promise<RawAnswer> {
  const target = new URL(url);
  const started = performance.now();
  return new Promise((resolve) => {
    const hostname = target.hostname.replace(/^\[|\]$/g, '');
    const socket =
      target.protocol === 'https:'
        ? tlsConnect(Number(target.port || 443), hostname, { servername: hostname })
        : connect(Number(target.port || 80), hostname);
    const chunks: Buffer[] = [];
    let size = 0;
    let error: string | undefined;
    const finish = () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1];
      const at = text.indexOf('\r\n\r\n');
      resolve({
        status: status === undefined ? undefined : Number(status),
        text,
        body: at < 0 ? '' : text.slice(at + 4),
        ...(error === undefined ? {} : { error }),
        ms: Math.round(performance.now() - started),
      });
    };
    const timer = setTimeout(() => {
      error = 'timeout';
      socket.destroy();
    }, options.timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_KEPT) chunks.push(chunk);
    });
    socket.on('error', (failure: NodeJS.ErrnoException) => (error ??= failure.code ?? failure.message));
    socket.on('close', finish);
    socket.on(target.protocol === 'https:' ? 'secureConnect' : 'connect', () => {
      const path = `${target.pathname}${target.search}`;
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: ${target.host}\r\n${head.map((line) => `${line}\r\n`).join('')}\r\n${body}`,
      );
      if (options.endAfter) socket.end();
    });
  });
}
