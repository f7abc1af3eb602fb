/** What the grader learns from the simulator's side: who a token belongs to, and the receiver's balance hook. */
import { API_PREFIX } from '../api.js';
import type { Simulator } from '../types.js';
import { brief, probe, statusOf } from './probe.js';

/**
 * The end user a token is bound to, as the service sees it: the token is used once on published-tags and
 * the simulator's request log names its user. Undefined for a token the service did not issue (or expired).
 */
export async function tokenOwner(hub: Simulator, token: string): Promise<string | undefined> {
  const res = await hub.fetch(`${hub.baseUrl}${API_PREFIX}/projects/published-tags`, {
    headers: { authorization: `Bearer ${token}` },
  });
  await res.body?.cancel();
  if (res.status !== 200) return undefined;
  return hub.requestLog.findLast((entry) => entry.path.endsWith('/projects/published-tags'))?.clientUserId;
}

/** The simulator's exchanges so far, per end user (the request log's token exchanges that succeeded). */
export function exchangesSeen(hub: Simulator): string[] {
  return hub.requestLog
    .filter((entry) => entry.path.endsWith('/apikeys/token') && entry.status === 200)
    .map((entry) => entry.clientUserId ?? '');
}

/** Reads a dotted path (`ledger.balanceCents`) of a JSON value. */
export function fieldAt(value: unknown, path: string): unknown {
  let current = value;
  for (const segment of path.split('.')) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, segment)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

export interface TestHook {
  url: string;
  /** The session header of the user whose data it shows. */
  session: { name: string; value: string } | undefined;
}

/** GETs a test hook of the integrator's backend and parses its JSON; throws with what it answered otherwise. */
export async function readHook(hook: TestHook): Promise<unknown> {
  const answer = await probe(hook.url, {
    headers: { accept: 'application/json', ...(hook.session ? { [hook.session.name]: hook.session.value } : {}) },
    timeoutMs: 10_000,
  });
  if (answer.status !== 200) throw new Error(`GET ${hook.url} answered ${statusOf(answer)} ${brief(answer.body, 80)}`);
  try {
    return JSON.parse(answer.body) as unknown;
  } catch {
    throw new Error(`GET ${hook.url} answered something that is not JSON: ${brief(answer.body, 80)}`);
  }
}

/** Every string anywhere in a JSON value. */
export function stringsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsIn(item, out);
  else if (typeof value === 'object' && value !== null) for (const item of Object.values(value)) stringsIn(item, out);
  return out;
}
