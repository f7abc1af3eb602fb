// Several backend instances behind one load balancer: upstream exchanges and req/s for 1 and 4 processes,
// with the in-memory token cache and with the shared Redis cache (issue 19). Each instance is a child
// process (test/server/fixtures/token-instance.ts) talking to the simulator; the load comes from this one.
import type { ChildProcess } from 'node:child_process';
import { startSimulator } from '../packages/hub-embed-mock/src/index.js';
import { findRedisServer, startRedisServer } from '../test/server/redis-server.js';
import { startTokenInstance } from '../test/server/token-instance-process.js';

export interface InstancesCase {
  cache: 'memory' | 'redis';
  processes: number;
  requests: number;
  users: number;
  /** Upstream token exchanges the simulator answered; the ideal is one per user. */
  exchanges: number;
  requestsPerSecond: number;
  failed: number;
}

export interface InstancesResults {
  cases: InstancesCase[];
  /** Why the Redis cases are missing, when they are. */
  skipped?: string;
}

export async function measureInstances(plan: { requests: number; users: number }): Promise<InstancesResults> {
  const redisBinary = findRedisServer();
  const redis = redisBinary ? await startRedisServer(redisBinary) : undefined;
  const cases: InstancesCase[] = [];
  try {
    for (const cache of ['memory', 'redis'] as const) {
      if (cache === 'redis' && !redis) continue;
      for (const processes of [1, 4]) {
        // A fresh simulator per case, so its request log counts this case's exchanges only.
        const sim = await startSimulator({ host: '127.0.0.1', apiPort: 0, formPort: 0 });
        const children: ChildProcess[] = [];
        try {
          const env = {
            HUB_BASE_URL: sim.baseUrl,
            HUB_API_KEY: sim.apiKey,
            REDIS_URL: cache === 'redis' ? redis!.url : '',
          };
          const ports = await Promise.all(Array.from({ length: processes }, () => startTokenInstance(env, children)));
          const prefix = `${cache}-${processes}`;
          let next = 0;
          let failed = 0;
          const started = performance.now();
          await Promise.all(
            Array.from({ length: 50 }, async () => {
              while (next < plan.requests) {
                const i = next++;
                // Round r of user u goes to process (u + r) % n: every user is asked on every process.
                const port = ports[(i + Math.floor(i / plan.users)) % processes];
                const response = await fetch(`http://127.0.0.1:${port}/api/hub-token`, {
                  method: 'POST',
                  headers: { 'x-test-user': `${prefix}-${i % plan.users}` },
                });
                await response.arrayBuffer();
                if (response.status !== 200) failed++;
              }
            }),
          );
          const seconds = (performance.now() - started) / 1000;
          const exchanges = sim.hub.requestLog.filter((entry) => entry.path.endsWith('/apikeys/token')).length;
          cases.push({
            cache,
            processes,
            requests: plan.requests,
            users: plan.users,
            exchanges,
            failed,
            requestsPerSecond: plan.requests / seconds,
          });
        } finally {
          for (const child of children) child.kill('SIGTERM');
          await sim.close();
        }
      }
    }
  } finally {
    await redis?.stop();
  }
  return redis ? { cases } : { cases, skipped: 'no redis-server found (apt-get install -y redis-server)' };
}
