/** Why a body could not be read as JSON; each maps to one HTTP status. */
export type BodyProblem = 'too-large' | 'bad-encoding' | 'bad-json';

export type JsonBodyResult = { ok: true; value: unknown } | { ok: false; problem: BodyProblem };

/**
 * Reads at most maxBytes of the body and parses it as UTF-8 JSON. Stops (and cancels the stream) as soon
 * as the bound is passed, so a huge or endless body costs at most maxBytes of memory.
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<JsonBodyResult> {
  const declared = request.headers.get('content-length');
  if (declared !== null && /^[0-9]+$/.test(declared.trim()) && Number(declared) > maxBytes) {
    return { ok: false, problem: 'too-large' };
  }
  const bytes = await readBounded(request.body, maxBytes);
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
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
