import { afterEach, beforeEach, vi } from 'vitest';
import { connectBridge } from '../../src/bridge/index.js';
import type { Bridge, BridgeOptions } from '../../src/bridge/index.js';
import { createMockHost, type MockHost, type MockHostOptions, type MockTransport } from '../../src/host/index.js';

/** In real Chromium the tests run in a frame whose parent origin the browser reports; use it. */
export const PARENT_ORIGIN: string = window.location.ancestorOrigins?.[0] ?? 'https://host.example';

/** Every bridge and host a test makes is closed/removed afterwards, so no global leaks between tests. */
const bridges: Bridge[] = [];
const hosts: MockHost[] = [];

export function useBridgeFixtures() {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    for (const b of bridges.splice(0)) b.close();
    for (const h of hosts.splice(0)) h.remove();
    delete (window as any).__hubEmbedReceive;
    vi.useRealTimers();
  });
}

export function mockHost(transport: MockTransport, options?: MockHostOptions): MockHost {
  const host = createMockHost(transport, options);
  hosts.push(host);
  return host;
}

export function connect(options: BridgeOptions = {}): Bridge {
  const bridge = connectBridge({ allowedParentOrigins: [PARENT_ORIGIN], ...options });
  bridges.push(bridge);
  return bridge;
}

/** Lets queued microtasks and 0 ms timers run (replies from mock hosts are asynchronous). */
export async function flush() {
  await vi.advanceTimersByTimeAsync(0);
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

export { rejectionOf } from '../rejection.js';

/** Runs `promise` to completion while pushing fake time forward. */
export async function settled<T>(promise: Promise<T>): Promise<{ value?: T; error?: any }> {
  let out: { value?: T; error?: any } | undefined;
  promise.then(
    (value) => (out = { value }),
    (error) => (out = { error }),
  );
  for (let i = 0; i < 50 && !out; i++) await flush();
  if (!out) throw new Error('promise did not settle');
  return out;
}
