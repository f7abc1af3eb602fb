/** The one place the browser core reads a response body and recognises the service's envelope. */

/** A non-empty string: tags, names, short codes and tokens all need one. */
export function isText(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

/** The parsed JSON body, or undefined when it is not JSON (JSON itself never yields undefined). */
export async function readJson(response: Response): Promise<unknown> {
  try {
    return JSON.parse(await response.text());
  } catch {
    return undefined;
  }
}

/**
 * The body as the service's `{code, message, data}` envelope, or undefined when it has no `code`.
 * `code` is kept only as a number and `message` only as a string, so callers can print them safely.
 */
export function envelopeOf(body: unknown): { code?: number; message?: string; data?: unknown } | undefined {
  if (typeof body !== 'object' || body === null || !('code' in body)) return undefined;
  const { code, message, data } = body as Record<string, unknown>;
  return { code: typeof code === 'number' ? code : undefined, message: isText(message) ? message : undefined, data };
}
