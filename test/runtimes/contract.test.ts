// The server toolkit's contract, the same on every runtime (issue 38): the same requests against the
// contract app (contract-app.ts) served by Node, Bun, Deno and workerd, each against the simulator on
// loopback, and the same answers expected. Node is each maintained release (node22, node24, node26), whichever
// Node runs the test. Run: npm run ci -- runtimes (HUB_RUNTIMES=node22,deno narrows it).
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { createClient } from 'redis';
import { startSimulator, type RunningSimulator } from '../../packages/hub-embed-mock/src/index.js';
import {
  findRedisServer,
  REDIS_MISSING,
  redisRequired,
  startRedisServer,
  type RedisServer,
} from '../server/redis-server.js';
import {
  NODE_RUNTIMES,
  runtimeVersion,
  selectedRuntimes,
  startServer,
  type Runtime,
  type RunningServer,
} from './runtimes.js';

const ORIGIN = 'http://app.test';
const alice = { cookie: 'session=user-alice', origin: ORIGIN };

/** node-redis needs TCP sockets (node:net); a Worker has none without nodejs_compat's, so no shared cache there. */
const REDIS_RUNTIMES: readonly Runtime[] = ['node', ...NODE_RUNTIMES, 'bun', 'deno'];
/** The server toolkit's runtimes: each maintained Node release, Bun, Deno and workerd. */
const CONTRACT_RUNTIMES: readonly Runtime[] = [...NODE_RUNTIMES, 'bun', 'deno', 'workerd'];

interface Answer {
  status: number;
  headers: Headers;
  body: any; // JSON of several shapes
}

async function call(url: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  return { status: response.status, headers: response.headers, body };
}

/**
 * A body sent in chunks without Content-Length: the size bound must hold on the stream itself. Every chunk
 * is handed to the socket at once (no waiting for 'drain'): a server that stops reading past its bound
 * must still answer, and a client waiting to write more would only test the client.
 */
function postChunked(
  url: string,
  headers: Record<string, string>,
  chunks: number,
  chunkBytes: number,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer from ${url} in 15 s`)), 15_000);
    const req = httpRequest(
      url,
      { method: 'POST', agent: false, headers: { ...headers, 'transfer-encoding': 'chunked' } },
      (res) => {
        clearTimeout(timer);
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    // A reset after the answer changes nothing (the promise is settled); one before it fails the case.
    req.on('error', reject);
    for (let i = 0; i < chunks; i++) req.write('x'.repeat(chunkBytes));
    req.end();
  });
}

const deduct = (amount: string, reason = 'Paid form') => ({
  event: 'billing_deduct',
  client_user_id: 'user-alice',
  amount,
  reason,
});

let hub: RunningSimulator;
let slowHub: RunningSimulator;
let redis: RedisServer | undefined;

before(async () => {
  hub = await startSimulator({ apiPort: 0, formPort: 0 });
  slowHub = await startSimulator({ apiPort: 0, formPort: 0, latencyMs: 1500 });
  const binary = findRedisServer();
  if (binary) redis = await startRedisServer(binary);
  else if (redisRequired) throw new Error(REDIS_MISSING);
});

after(async () => {
  await hub?.close();
  await slowHub?.close();
  await redis?.stop();
});

for (const runtime of selectedRuntimes(CONTRACT_RUNTIMES)) {
  describe(`${runtime} ${runtimeVersion(runtime)}`, () => {
    let server: RunningServer;
    const url = (path: string) => `${server.url}${path}`;
    const trigger = async (body: Record<string, unknown>) => {
      const answer = await call(`${hub.baseUrl}/console/trigger`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer.body.data ?? answer.body;
    };
    const seen = async () => (await call(url('/seen'))).body;
    // workerd answers an oversized stream 413 and closes at once; the edge stand-in (a plain Node proxy)
    // would turn that into its own 502, so those go to workerd directly, with the header the edge sets.
    const streamUrl = (path: string) => `${server.directUrl ?? server.url}${path}`;
    const edgeHeader = { 'cf-connecting-ip': '127.0.0.1' };

    before(async () => {
      const env = { HUB_API_KEY: hub.apiKey, HUB_BASE_URL: hub.baseUrl, HUB_SLOW_BASE_URL: slowHub.baseUrl };
      server = await startServer(runtime, {
        entry:
          runtime === 'workerd'
            ? 'test/runtimes/worker.ts'
            : `test/runtimes/serve-${runtime.startsWith('node') ? 'node' : runtime}.ts`,
        env: { ...env, ...(redis && REDIS_RUNTIMES.includes(runtime) ? { REDIS_URL: redis.url } : {}) },
        bindings: env,
      });
      // The simulator delivers billing events to this runtime's receiver.
      const configured = await call(`${hub.baseUrl}/console/webhooks`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ configs: [{ billing_url: url('/webhook'), notification_url: url('/webhook') }] }),
      });
      assert.equal(configured.status, 200);
    });
    after(async () => {
      await server?.stop();
    });

    describe('createTokenHandler', () => {
      it('exchanges a token for the session user and answers the remaining lifetime, no-store, with CORS', async () => {
        const answer = await call(url('/token'), { method: 'POST', headers: alice });
        assert.equal(answer.status, 200, server.output());
        assert.match(answer.body.access_token, /\S{16,}/);
        assert.ok(answer.body.expires_in > 0 && answer.body.expires_in <= 7200);
        assert.equal(answer.headers.get('cache-control'), 'no-store');
        assert.equal(answer.headers.get('access-control-allow-origin'), ORIGIN);
        assert.equal(answer.headers.get('access-control-allow-credentials'), 'true');
      });

      it('keeps the token in its cache: the same token again, until the page reports it refused', async () => {
        const first = await call(url('/token'), { method: 'POST', headers: alice });
        const second = await call(url('/token'), { method: 'POST', headers: alice });
        assert.equal(second.body.access_token, first.body.access_token);
        const refused = await call(url('/token'), {
          method: 'POST',
          headers: { ...alice, 'content-type': 'application/json' },
          body: JSON.stringify({ reason: 'unauthorized', previous: first.body.access_token }),
        });
        assert.equal(refused.status, 200);
        assert.notEqual(refused.body.access_token, first.body.access_token);
      });

      it('refuses a foreign or missing Origin (403) and a request without a session (401)', async () => {
        assert.equal(
          (await call(url('/token'), { method: 'POST', headers: { ...alice, origin: 'http://evil.test' } })).status,
          403,
        );
        assert.equal((await call(url('/token'), { method: 'POST', headers: { cookie: alice.cookie } })).status, 403);
        assert.equal((await call(url('/token'), { method: 'POST', headers: { origin: ORIGIN } })).status, 401);
      });

      it('answers the preflight for a listed origin and 405 to GET', async () => {
        const preflight = await call(url('/token'), {
          method: 'OPTIONS',
          headers: { origin: ORIGIN, 'access-control-request-method': 'POST' },
        });
        assert.ok(preflight.status === 204 || preflight.status === 200, String(preflight.status));
        assert.equal(preflight.headers.get('access-control-allow-origin'), ORIGIN);
        const get = await call(url('/token'), { headers: alice });
        assert.equal(get.status, 405);
        assert.equal(get.headers.get('allow'), 'POST');
      });

      it('prefetches the first tags and list with the new token', async () => {
        const answer = await call(url('/token'), {
          method: 'POST',
          headers: { cookie: 'session=user-bob', origin: ORIGIN, 'content-type': 'application/json' },
          body: JSON.stringify({ reason: 'initial', load: { tags: [], limit: 20 } }),
        });
        assert.equal(answer.status, 200);
        assert.ok(Array.isArray(answer.body.prefetched?.['published-tags']), JSON.stringify(answer.body));
        assert.ok(Array.isArray(answer.body.prefetched?.['published-list?limit=20']), JSON.stringify(answer.body));
      });

      it('ignores a prefetch request it cannot trust and still answers the token', async () => {
        const answer = await call(url('/token'), {
          method: 'POST',
          headers: { ...alice, 'content-type': 'application/json' },
          body: JSON.stringify({ reason: 'initial', load: { tags: ['a,b'], limit: 5000 } }),
        });
        assert.equal(answer.status, 200);
        assert.equal(answer.body.prefetched, undefined);
      });

      it('answers 413 to a body over 8 KB sent in chunks, without Content-Length', async () => {
        assert.equal(await postChunked(streamUrl('/token'), { ...alice, ...edgeHeader }, 16, 1024), 413);
      });

      it('answers 504 when the service is slower than the client deadline', async () => {
        const started = Date.now();
        const answer = await call(url('/token-slow'), { method: 'POST', headers: alice });
        assert.equal(answer.status, 504);
        assert.ok(Date.now() - started < 1400, 'the deadline, not the service, ended the wait');
      });
    });

    describe('createServerClient', () => {
      it('recharges and reads balances in exact cents', async () => {
        const before = (await call(url('/client/balance?user=user-alice'))).body;
        assert.equal(typeof before.balanceCents, 'number', JSON.stringify(before));
        const recharge = await call(url(`/client/recharge?user=user-alice&cents=29&order=${runtime}-${Date.now()}`));
        assert.equal(recharge.status, 200, JSON.stringify(recharge.body));
        assert.equal(recharge.body.amountCents, 29);
        assert.equal(recharge.body.userBalanceCents, before.balanceCents + 29);
      });

      it('refuses a bad input before any request (config) and names a slow service a timeout', async () => {
        assert.deepEqual((await call(url('/client/recharge?user=user-alice&cents=0.5'))).body, {
          kind: 'config',
          name: 'HubError',
          status: null,
        });
        assert.equal((await call(url('/client/slow'))).body.kind, 'timeout');
      });
    });

    describe('createWebhookHandler', () => {
      it('takes a deduct from the simulator on loopback, in exact cents ("0.29" is 29)', async () => {
        const result = await trigger(deduct('0.29'));
        assert.equal(result.deliveries[0].status, 200, JSON.stringify(result.deliveries[0]));
        assert.equal(result.deliveries[0].ok, true);
        const { deducts, remoteAddress } = await seen();
        assert.deepEqual(deducts.at(-1), {
          amountCents: 29,
          amount: '0.29',
          clientUserId: 'user-alice',
          aborted: false,
        });
        assert.match(remoteAddress, /^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/);
      });

      it('answers ok:false when the callback misses the deadline, and aborts its signal', async () => {
        const result = await trigger(deduct('1.00', 'slow'));
        assert.equal(result.deliveries[0].status, 200);
        assert.equal(result.deliveries[0].ok, false);
        await new Promise((resolve) => setTimeout(resolve, 600));
        const { deducts } = await seen();
        assert.deepEqual(deducts.at(-1), {
          amountCents: 100,
          amount: '1.00',
          clientUserId: 'user-alice',
          aborted: true,
        });
      });

      it('refuses a source outside allowIps (403), a forwarded header from an untrusted peer included', async () => {
        const body = JSON.stringify({ event: 'order_created', timestamp: new Date().toISOString() });
        const headers = { 'content-type': 'application/json', 'x-webhook-event': 'order_created' };
        assert.equal((await call(url('/webhook-strict'), { method: 'POST', headers, body })).status, 403);
        const forwarded = { ...headers, 'x-forwarded-for': '203.0.113.10', 'x-real-ip': '203.0.113.10' };
        assert.equal((await call(url('/webhook-strict'), { method: 'POST', headers: forwarded, body })).status, 403);
        assert.deepEqual((await seen()).rejections.slice(-2), [
          { reason: 'address-not-allowed', status: 403 },
          { reason: 'address-not-allowed', status: 403 },
        ]);
      });

      it('refuses malformed deliveries: GET 405, no JSON type 415, broken JSON 400, a bad deduct 200 ok:false', async () => {
        const json = { 'content-type': 'application/json' };
        assert.equal((await call(url('/webhook'))).status, 405);
        assert.equal((await call(url('/webhook'), { method: 'POST', body: '{}' })).status, 415);
        assert.equal((await call(url('/webhook'), { method: 'POST', headers: json, body: '{"event":' })).status, 400);
        const bad = await call(url('/webhook'), {
          method: 'POST',
          headers: { ...json, 'x-webhook-event': 'billing_deduct' },
          body: JSON.stringify({
            event: 'billing_deduct',
            timestamp: new Date().toISOString(),
            target: { client_user_id: 'user-alice' },
            billing: { amount: '1.5', reason: 'x' },
          }),
        });
        assert.equal(bad.status, 200);
        assert.deepEqual(bad.body, { ok: false });
      });

      it('answers 413 to a body over its bound (64 KiB) sent in chunks, without Content-Length', async () => {
        assert.equal(
          await postChunked(streamUrl('/webhook'), { 'content-type': 'application/json', ...edgeHeader }, 80, 1024),
          413,
        );
      });
    });

    if (runtime === 'workerd') {
      it('workerd without the edge: no CF-Connecting-IP, so every delivery is refused (403, no-source-address)', async () => {
        const answer = await call(`${server.directUrl}/webhook`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': '127.0.0.1' },
          body: '{}',
        });
        assert.equal(answer.status, 403);
        assert.deepEqual((await seen()).rejections.at(-1), { reason: 'no-source-address', status: 403 });
      });
    }

    if (REDIS_RUNTIMES.includes(runtime)) {
      it('shares tokens through createRedisTokenCache with node-redis on this runtime', async (t) => {
        if (!redis) return t.skip(REDIS_MISSING);
        const user = `user-redis-${runtime}`;
        // The simulator knows the seeded users only; a recharge makes this one known.
        const known = await call(url(`/client/recharge?user=${user}&cents=1&order=${user}-${Date.now()}`));
        assert.equal(known.status, 200, JSON.stringify(known.body));
        const answer = await call(url('/token-shared'), { method: 'POST', headers: { cookie: `session=${user}` } });
        assert.equal(answer.status, 200, JSON.stringify(answer.body) + server.output());
        const reader = createClient({ url: redis!.url });
        await reader.connect();
        try {
          const stored = await reader.get(`hub-embed:token:${user}`);
          assert.ok(stored?.includes(answer.body.access_token), 'the token this runtime exchanged is in Redis');
        } finally {
          await reader.quit();
        }
      });
    }
  });
}
