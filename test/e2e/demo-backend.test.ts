// The demo's developer backend (demo/backend.ts) as an attacker sees it: a page on another site, a
// client with no session, huge or endless bodies, webhook payloads for people it does not know. It runs
// on node:http against the real simulator, as `npm run demo` runs it.
import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createDemoBackend, DEMO_USERS, WALLET_START_CENTS, type DemoBackend } from '../../demo/backend.js';
import { defaultSeed, startSimulator, type RunningSimulator } from '../../packages/hub-embed-mock/src/index.js';
import { toNodeListener } from '../../src/server/index.js';
import { JWT_SHAPE } from '../fixtures/service-examples.js';

let mock: RunningSimulator;
let backend: DemoBackend;
let server: Server;
let origin = '';

before(async () => {
  mock = await startSimulator();
  let listener: ReturnType<typeof toNodeListener> | undefined;
  server = createServer((req, res) => listener!(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  backend = createDemoBackend({
    apiKey: mock.apiKey,
    baseUrl: mock.baseUrl,
    formUrl: mock.formUrl,
    origins: [origin],
  });
  listener = toNodeListener(
    async (request, info) =>
      (await backend.handle(request, info.remoteAddress)) ?? new Response('Not found', { status: 404 }),
  );
  mock.hub.setWebhooks([{ notification_url: `${origin}/webhooks/hub`, billing_url: `${origin}/webhooks/hub` }]);
});

after(async () => {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  await mock.close();
});

const ALICE = 'hub_demo_user=alice';

/** What the browser of a signed-in demo user sends from the demo page itself. */
function sameOrigin(extra: Record<string, string> = {}): Record<string, string> {
  return { origin, cookie: ALICE, 'content-type': 'application/json', ...extra };
}

/** The same headers without `name`. */
function without(name: string, headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([key]) => key !== name));
}

function post(path: string, body: string, headers: Record<string, string>): Promise<Response> {
  return fetch(origin + path, { method: 'POST', headers, body });
}

/** Everything a state-changing request could move: the simulator's books and the demo wallets. */
function books() {
  const { poolCents, balancesCents } = mock.hub.ledger();
  return {
    poolCents,
    balancesCents,
    wallets: ['user-alice', 'user-bob', 'user-carol'].map((id) => backend.wallet(id)),
    exchanges: mock.hub.requestLog.filter((entry) => entry.path.endsWith('/apikeys/token')).length,
  };
}

describe('demo backend: state-changing routes', () => {
  it('a cross-site text/plain POST with no cookie moves nothing (the attack that moved the whole pool)', async () => {
    const before = books();
    // Exactly what a form or fetch on another site can send without a CORS preflight.
    const response = await post('/api/points/recharge', JSON.stringify({ amount_cents: before.poolCents }), {
      origin: 'https://evil.example',
      'content-type': 'text/plain;charset=UTF-8',
    });
    assert.equal(response.status, 403);
    assert.deepEqual(books(), before, 'no points moved anywhere');
  });

  it('state-changing routes require a signed-in user: no fallback user', async () => {
    const before = books();
    const anonymous = without('cookie', sameOrigin());
    for (const [path, body] of [
      ['/api/points/recharge', '{"amount_cents":500}'],
      ['/api/hub-token', '{"reason":"initial"}'],
    ] as const) {
      const response = await post(path, body, anonymous);
      assert.equal(response.status, 401, `${path} without a session`);
      assert.match(((await response.json()) as { error: string }).error, /sign in/i);
    }
    // A cookie naming nobody is no session either.
    const stranger = await post(
      '/api/points/recharge',
      '{"amount_cents":500}',
      sameOrigin({ cookie: 'hub_demo_user=mallory' }),
    );
    assert.equal(stranger.status, 401);
    assert.deepEqual(books(), before, 'nothing moved and no token was exchanged');
    const session = (await (await fetch(`${origin}/api/session`)).json()) as { user: unknown };
    assert.equal(session.user, null, 'the session route says nobody is signed in');
  });

  it('state-changing routes require a same-origin Origin (the token handler sets allowedOrigins)', async () => {
    const before = books();
    for (const [path, body] of [
      ['/api/points/recharge', '{"amount_cents":500}'],
      ['/api/hub-token', '{"reason":"initial"}'],
      ['/api/session', '{"user":"bob"}'],
    ] as const) {
      for (const wrong of ['https://evil.example', `${origin}.evil.example`, 'null']) {
        const response = await post(path, body, sameOrigin({ origin: wrong }));
        assert.equal(response.status, 403, `${path} from ${wrong}`);
        assert.equal(response.headers.get('access-control-allow-origin'), null);
        assert.equal(response.headers.get('set-cookie'), null);
      }
      const noOrigin = without('origin', sameOrigin());
      assert.equal((await post(path, body, noOrigin)).status, 403, `${path} with no Origin`);
    }
    assert.deepEqual(books(), before);
  });

  it('state-changing routes require a JSON content type', async () => {
    const before = books();
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', '']) {
      for (const path of ['/api/points/recharge', '/api/hub-token', '/api/session']) {
        const response = await post(path, '{"amount_cents":500,"user":"bob"}', sameOrigin({ 'content-type': type }));
        assert.equal(response.status, 415, `${path} as "${type}"`);
      }
    }
    assert.deepEqual(books(), before);
  });

  it('a signed-in same-origin JSON recharge tops up the wallet that pays for paid actions', async () => {
    const wallet = backend.wallet('user-alice')!;
    const response = await post('/api/points/recharge', '{"amount_cents":500}', sameOrigin());
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { amountCents: 500, walletCents: wallet + 500 });
    assert.equal(backend.wallet('user-alice'), wallet + 500);
  });

  it('a signed-in same-origin token request gets a token', async () => {
    const response = await post('/api/hub-token', '{"reason":"initial"}', sameOrigin({ cookie: 'hub_demo_user=bob' }));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('access-control-allow-origin'), origin);
    const { access_token: token } = (await response.json()) as { access_token: string };
    assert.match(token, JWT_SHAPE);
  });

  it('switching to a user the service does not know yet is no error: the points route says so', async () => {
    const signedOut = without('cookie', sameOrigin());
    const response = await fetch(`${origin}/api/points`, { headers: { ...signedOut, cookie: 'hub_demo_user=carol' } });
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), {
      user: 'Carol 陈',
      walletCents: backend.wallet('user-carol'),
      service: null,
    });
  });

  it('signing in sets the session cookie only for a known user', async () => {
    const response = await post('/api/session', '{"user":"bob"}', sameOrigin({ cookie: '' }));
    assert.equal(response.status, 200);
    assert.match(response.headers.get('set-cookie') ?? '', /^hub_demo_user=bob; .*HttpOnly; SameSite=Strict/);
    const refused = await post('/api/session', '{"user":"mallory"}', sameOrigin({ cookie: '' }));
    assert.equal(refused.status, 400);
    assert.equal(refused.headers.get('set-cookie'), null);
  });
});

describe('demo backend: bounded JSON reader', () => {
  /** A chunked body of `total` bytes made on demand, counting what the reader pulled. */
  function endless(total: number) {
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    const seen = { pulled: 0 };
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (seen.pulled >= total) return controller.close();
        seen.pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    return { body, seen };
  }

  it('the JSON reader stops reading at its bound (413), chunked', async () => {
    for (const path of ['/api/points/recharge', '/api/session', '/api/hub-token']) {
      const { body, seen } = endless(64 * 1024 * 1024);
      const response = await backend.handle(
        new Request(origin + path, { method: 'POST', headers: sameOrigin(), body, duplex: 'half' } as RequestInit),
        '127.0.0.1',
      );
      assert.equal(response?.status, 413, path);
      assert.ok(seen.pulled <= 2 * 64 * 1024, `${path} read ${seen.pulled} bytes of a 64 MB body`);
    }
  });

  it(
    'the JSON reader stops reading at its bound (413), with a Content-Length over it',
    { timeout: 60_000 },
    async () => {
      // The client announces 100 MB and sends only the first 16 KB: the answer must not wait for the rest.
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest(`${origin}/api/points/recharge`, {
          method: 'POST',
          headers: { ...sameOrigin(), 'content-length': String(100 * 1024 * 1024) },
        });
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
          req.destroy();
        });
        req.on('error', reject);
        req.write(Buffer.alloc(16 * 1024, 0x20));
      });
      assert.equal(status, 413);
    },
  );

  it('malformed JSON and non-object bodies are a 400 that changes nothing', async () => {
    const before = books();
    for (const body of [
      '{',
      '[]',
      '"x"',
      'null',
      '{"amount_cents":"500"}',
      '{"amount_cents":1.5}',
      '{"amount_cents":-1}',
    ]) {
      const response = await post('/api/points/recharge', body, sameOrigin());
      assert.equal(response.status, 400, body);
    }
    assert.deepEqual(books(), before);
  });
});

describe('demo backend: the ledger behind billing webhooks', () => {
  /** A billing webhook as the service sends it (docs/simulator.md "Webhooks"), from a loopback address. */
  async function billing(
    event: 'billing_deduct' | 'billing_refund',
    user: string,
    amount: string,
    status = 200,
    to: DemoBackend = backend,
  ) {
    const body = {
      event,
      timestamp: '2026-11-22T18:00:00+08:00',
      short_code: 'hr-onboarding',
      project_icon_url: `${mock.baseUrl}/static/icons/retail.png`,
      target: { client_user_id: user },
      billing: { amount, reason: 'test' },
    };
    const response = await to.handle(
      new Request(`${origin}/webhooks/hub`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-webhook-event': event,
          'x-webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        },
        body: JSON.stringify(body),
      }),
      '127.0.0.1',
    );
    assert.equal(response?.status, status, `${event} ${user} ${amount}`);
    return (await response!.json()) as { ok?: boolean };
  }

  it("a newcomer's first Pay is paid: each demo user's starting wallet pays for any one form of the catalogue, the dearest included", async () => {
    const priced = defaultSeed.tables.filter((table) => table.published && table.price_cents > 0);
    assert.ok(priced.length > 0);
    for (const table of priced) {
      // A fresh backend per form: each is the first Pay of a newcomer.
      const fresh = createDemoBackend({
        apiKey: mock.apiKey,
        baseUrl: mock.baseUrl,
        formUrl: mock.formUrl,
        origins: [origin],
      });
      for (const user of DEMO_USERS) {
        const price = (table.price_cents / 100).toFixed(2);
        assert.deepEqual(
          await billing('billing_deduct', user.clientUserId, price, 200, fresh),
          { ok: true },
          `${user.id} pays ¥${price} for ${table.name}`,
        );
        assert.equal(fresh.wallet(user.clientUserId), WALLET_START_CENTS - table.price_cents);
      }
    }
  });

  it('an unknown user does not get a fresh wallet', async () => {
    assert.equal(backend.wallet('user-mallory'), undefined);
    assert.deepEqual(await billing('billing_deduct', 'user-mallory', '1.00'), { ok: false });
    await billing('billing_refund', 'user-mallory', '5.00', 500);
    assert.equal(backend.wallet('user-mallory'), undefined, 'neither a charge nor a refund creates a wallet');
    assert.match(backend.events.at(-1)!.summary, /unknown user/i);
  });

  it('the demo ledger never refunds more than it deducted for that user', async () => {
    const start = backend.wallet('user-carol')!;
    assert.deepEqual(await billing('billing_deduct', 'user-carol', '1.50'), { ok: true });
    assert.equal(backend.wallet('user-carol'), start - 150);
    // More than was charged: refused, and answered non-2xx so the service does not count it as refunded.
    await billing('billing_refund', 'user-carol', '2.00', 500);
    assert.equal(backend.wallet('user-carol'), start - 150, 'a refund over the charged amount is refused whole');
    assert.equal(backend.events.at(-1)!.outcome, 'refused');
    await billing('billing_refund', 'user-carol', '1.50');
    assert.equal(backend.wallet('user-carol'), start);
    await billing('billing_refund', 'user-carol', '1.50', 500); // the same charge again
    assert.equal(backend.wallet('user-carol'), start, 'a second refund of the same charge is refused');
    // Bob was never charged at all.
    const bob = backend.wallet('user-bob')!;
    await billing('billing_refund', 'user-bob', '0.01', 500);
    assert.equal(backend.wallet('user-bob'), bob);
  });

  it('a declined charge says why', async () => {
    const wallet = backend.wallet('user-bob')!;
    const price = ((wallet + 1) / 100).toFixed(2);
    assert.deepEqual(await billing('billing_deduct', 'user-bob', price), { ok: false });
    const last = backend.events.at(-1)!;
    assert.equal(last.outcome, 'declined');
    assert.match(last.summary, new RegExp(`wallet has ¥${(wallet / 100).toFixed(2)}`));
  });
});
