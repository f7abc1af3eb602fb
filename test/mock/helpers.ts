import { afterEach } from 'vitest';
import { createSimulator } from '../../packages/hub-embed-mock/src/hub.js';
import { startSimulator, type RunningSimulator } from '../../packages/hub-embed-mock/src/node.js';
import type { Simulator } from '../../packages/hub-embed-mock/src/hub.js';
import type { SimulatorOptions } from '../../packages/hub-embed-mock/src/types.js';

export const T0 = Date.UTC(2026, 10, 21, 2, 0, 0);
export const P = '/api/v1/hub';
export const KEYS = {
  active: 'sk-mock-active-0123456789abcdef',
  disabled: 'sk-mock-disabled-0123456789abcd',
  expired: 'sk-mock-expired-0123456789abcde',
  member: 'sk-mock-member-0123456789abcdef',
};

/** A hub with a frozen clock, so timestamps and expiry are exact. */
export function newHub(options: SimulatorOptions = {}): Simulator {
  const hub = createSimulator(options);
  hub.clock.set(T0);
  return hub;
}

export interface CallOptions {
  key?: string;
  bearer?: string;
  json?: unknown;
  body?: string;
  contentType?: string;
  headers?: Record<string, string>;
  query?: Record<string, string>;
}

export async function call(
  hub: Simulator,
  method: string,
  path: string,
  o: CallOptions = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const url = new URL(path, hub.baseUrl);
  for (const [k, v] of Object.entries(o.query ?? {})) url.searchParams.set(k, v);
  const headers: Record<string, string> = { ...o.headers };
  if (o.key !== undefined) headers['X-API-Key'] = o.key;
  if (o.bearer !== undefined) headers.Authorization = `Bearer ${o.bearer}`;
  let body: string | undefined = o.body;
  if (o.json !== undefined) body = JSON.stringify(o.json);
  if (body !== undefined) headers['Content-Type'] = o.contentType ?? 'application/json';
  const res = await hub.handleApi(new Request(url, { method, headers, ...(body !== undefined ? { body } : {}) }));
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep text
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

export async function tokenFor(hub: Simulator, clientUserId: string, key = hub.apiKey): Promise<string> {
  const res = await call(hub, 'POST', `${P}/apikeys/token`, { key, json: { client_user_id: clientUserId } });
  if (res.status !== 200) throw new Error(`token exchange failed: ${JSON.stringify(res.body)}`);
  return res.body.data.access_token as string;
}

/** Observable state: what a rejected request must leave exactly as it was. */
export function stateOf(hub: Simulator): string {
  return JSON.stringify({
    snapshot: hub.snapshot(),
    ledger: hub.ledger(),
    submissions: hub.submissions,
    deliveries: hub.deliveries.length,
  });
}

export function expectErrorEnvelope(res: { status: number; body: any }, status: number): void {
  if (res.status !== status) throw new Error(`expected HTTP ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  const b = res.body;
  if (
    typeof b !== 'object' ||
    b === null ||
    b.code !== status ||
    typeof b.message !== 'string' ||
    b.message === '' ||
    b.data !== null
  ) {
    throw new Error(`not an error envelope with code ${status}: ${JSON.stringify(b)}`);
  }
}

export const HOSTILE_IDS = [
  '<img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  'line\u2028sep',
  '用户🙂',
  'quote"\'&',
];

/** A `start()` for one test file's simulators over node:http: each one started is closed after its test. */
export function useStartedSimulators(): (options?: Parameters<typeof startSimulator>[0]) => Promise<RunningSimulator> {
  const running: RunningSimulator[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((mock) => mock.close()));
  });
  return async (options = {}) => {
    const mock = await startSimulator(options);
    running.push(mock);
    return mock;
  };
}
