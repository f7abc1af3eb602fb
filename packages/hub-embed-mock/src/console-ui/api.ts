/** The console pages' one way to call the console endpoints: same origin, JSON, errors as messages. */

export class ConsoleError extends Error {}

export async function api<T>(path: string, body?: unknown, method: 'POST' | 'PUT' = 'POST'): Promise<T> {
  const init: RequestInit =
    body === undefined
      ? { credentials: 'same-origin' }
      : {
          method,
          credentials: 'same-origin',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        };
  let res: Response;
  try {
    res = await fetch(path, init);
  } catch {
    throw new ConsoleError('The simulator is not answering; is it still running?');
  }
  const envelope = (await res.json().catch(() => null)) as { code?: number; message?: string; data?: T } | null;
  if (!res.ok || envelope?.code !== 200) throw new ConsoleError(envelope?.message ?? `HTTP ${res.status}`);
  return envelope.data as T;
}

export function query(params: Record<string, string | number | undefined>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== '') query.set(key, String(value));
  const text = query.toString();
  return text ? `?${text}` : '';
}
