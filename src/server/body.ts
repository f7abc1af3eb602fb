/** Why a body could not be read as JSON; each maps to one HTTP status. */
export type BodyProblem = 'too-large' | 'too-slow' | 'bad-encoding' | 'bad-json';

const TOO_SLOW = Symbol('body too slow');

export type JsonBodyResult = { ok: true; value: unknown } | { ok: false; problem: BodyProblem };

/**
 * The body of a request or a response, or undefined when it is longer than maxBytes. Stops (and cancels
 * the stream) as soon as the bound is passed, or before reading at all when Content-Length already says
 * so, so a huge or endless body costs at most maxBytes of memory, chunked or not.
 */
export async function readBodyBytes(
  message: { readonly headers: Headers; readonly body: ReadableStream<Uint8Array> | null },
  maxBytes: number,
): Promise<Uint8Array | undefined> {
  if (await refusedByLength(message, maxBytes)) return undefined;
  return readBounded(message.body, maxBytes);
}

/** True (and the body cancelled) when Content-Length already says the body is longer than maxBytes. */
async function refusedByLength(
  message: { readonly headers: Headers; readonly body: ReadableStream<Uint8Array> | null },
  maxBytes: number,
): Promise<boolean> {
  const declared = message.headers.get('content-length');
  if (declared === null || !/^[0-9]+$/.test(declared.trim()) || Number(declared) <= maxBytes) return false;
  await message.body?.cancel().catch(() => undefined);
  return true;
}

/**
 * Reads at most maxBytes of the body within timeoutMs and parses it as UTF-8 JSON. A body still arriving
 * at the deadline is cancelled, so a sender trickling bytes holds the reading no longer.
 */
export async function readJsonBody(request: Request, maxBytes: number, timeoutMs: number): Promise<JsonBodyResult> {
  if (await refusedByLength(request, maxBytes)) return { ok: false, problem: 'too-large' };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<typeof TOO_SLOW>((resolve) => (timer = setTimeout(() => resolve(TOO_SLOW), timeoutMs)));
  let bytes: Uint8Array | undefined | typeof TOO_SLOW;
  try {
    bytes = await readBounded(request.body, maxBytes, late);
  } finally {
    clearTimeout(timer);
  }
  if (bytes === TOO_SLOW) return { ok: false, problem: 'too-slow' };
  if (bytes === undefined) return { ok: false, problem: 'too-large' };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, problem: 'bad-encoding' };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, problem: 'bad-json' };
  }
}

async function readBounded(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<Uint8Array | undefined>;
async function readBounded(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  late: Promise<typeof TOO_SLOW>,
): Promise<Uint8Array | undefined | typeof TOO_SLOW>;
async function readBounded(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  late?: Promise<typeof TOO_SLOW>,
): Promise<Uint8Array | undefined | typeof TOO_SLOW> {
  if (body === null) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const next = await (late ? Promise.race([reader.read(), late]) : reader.read());
      if (next === TOO_SLOW) {
        await reader.cancel().catch(() => undefined);
        return TOO_SLOW;
      }
      const { done, value } = next;
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => undefined);
        return undefined;
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
