/**
 * The one place the browser core talks HTTP: it runs a request with the caller's signal and a timeout,
 * reads the JSON answer and recognises the service's envelope, for the client and the token endpoint.
 */
import { HubError, abortError, type HubErrorKind } from './errors.js';
import { isRecord } from './records.js';
import type { AccessToken } from './types.js';

// Re-exported: the browser layers read it from here, beside the other answer checks.
export { isRecord };

/** A non-empty string: tags, names, short codes and tokens all need one. */
export function isText(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

/**
 * `{access_token, expires_in}`, wherever a token comes from (a token endpoint, a native host, the bridge):
 * a non-empty token and a lifetime that is a finite number of seconds above 0 (NaN and Infinity are
 * numbers too, and a lifetime of 0 would make every use ask again). The one check; other members pass.
 */
export function isAccessToken(value: unknown): value is AccessToken & Record<string, unknown> {
  return (
    isRecord(value) &&
    isText(value.access_token) &&
    // Number.isFinite is false for anything but a finite number, so no typeof check is needed.
    Number.isFinite(value.expires_in) &&
    (value.expires_in as number) > 0
  );
}

/**
 * `fetch(url, init)`, where `init.signal` is the caller's; `where` names the request in messages. The
 * caller's abort gives `aborted`, the timeout (none when absent) `timeout`, any other failure to get an
 * answer `network`. `run` is called as a plain function; the page's fetch by default.
 */
export async function send(
  where: string,
  url: string,
  init: RequestInit,
  run = fetch,
  timeoutMs?: number,
): Promise<Response> {
  const { signal } = init;
  if (signal?.aborted) throw abortError();
  // One controller for both the caller's abort and the timeout; which one fired tells them apart.
  const controller = new AbortController();
  const abort = () => controller.abort();
  const timer = timeoutMs && setTimeout(abort, timeoutMs);
  signal?.addEventListener('abort', abort);
  try {
    return await run(url, { ...init, signal: controller.signal });
  } catch (error) {
    if (signal?.aborted) throw abortError();
    throw controller.signal.aborted
      ? new HubError('timeout', `${where} timed out; retry.`, { cause: error })
      : new HubError('network', `${where} unreachable; check it.`, { cause: error });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', abort);
  }
}

/**
 * Reads a JSON answer: its body (undefined when it is not JSON) and `data`, the envelope's payload when
 * the body is the service's `{code, message, data}` (recognised by its `code`). A non-2xx status or an
 * envelope whose code is not 200 is a `kind` error carrying the status and the code; only a numeric
 * code and a text message are printed, so nothing odd from the body ends up in the message.
 */
export async function readAnswer(
  response: Response,
  kind: HubErrorKind,
  where: string,
): Promise<{ body: unknown; data?: unknown }> {
  const { status } = response;
  let body: unknown;
  try {
    body = JSON.parse(await response.text());
  } catch {
    // Not JSON (an HTML error page, an empty body): JSON itself never yields undefined.
  }
  const envelope = isRecord(body) && 'code' in body ? body : undefined;
  const code = typeof envelope?.code === 'number' ? envelope.code : undefined;
  if (!response.ok || (envelope && code !== 200)) {
    const message = envelope?.message;
    throw new HubError(
      kind,
      `${where} answered ${code ?? status}${isText(message) ? ` (${message})` : ''}; check it or retry.`,
      { status, code },
    );
  }
  return { body, data: envelope?.data };
}
