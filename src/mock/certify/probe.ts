/**
 * Node-only: the grader's own HTTP requests to the integrator's backend. Unlike fetch, node:http lets
 * the grader choose its source address (127.0.0.2 plays a stranger) and hold back a body's last byte
 * (a delivery whose answer can only come after the service's 10 seconds).
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface ProbeRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** The source address to send from (default: the system's choice, 127.0.0.1 on loopback). */
  localAddress?: string;
  /** Hold the body's last byte until this many ms after sending began. */
  lastByteAtMs?: number;
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

/** Keeps a report line short and on one line whatever the answer held. */
export function brief(text: string, max = 160): string {
  const line = text.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (char) => JSON.stringify(char).slice(1, -1));
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
    else if (init.lastByteAtMs === undefined || body.length === 0) req.end(body);
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
