/** Why a body could not be read as JSON; each maps to one HTTP status. */
export type BodyProblem = 'too-large' | 'bad-encoding' | 'bad-json';

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
  const declared = message.headers.get('content-length');
  if (declared !== null && /^[0-9]+$/.test(declared.trim()) && Number(declared) > maxBytes) {
    await message.body?.cancel().catch(() => undefined);
    return undefined;
  }
  return readBounded(message.body, maxBytes);
}

/** Reads at most maxBytes of the body and parses it as UTF-8 JSON. */
export async function readJsonBody(request: Request, maxBytes: number): Promise<JsonBodyResult> {
  const bytes = await readBodyBytes(request, maxBytes);
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

async function readBounded(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<Uint8Array | undefined> {
  if (body === null) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
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
