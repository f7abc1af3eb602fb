// The Express example as an attacker meets it: a DNS-rebinding page (a foreign Host), a cross-site post,
// one client signing in thousands of times, refunds of charges that never happened, a resent deduct. The
// app runs on node:http with its real ledger (PGlite) and the real simulator.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../packages/hub-embed-mock/src/node.js';

// The app imports the toolkit as a package ('hub-embed/server', built into dist/ by `npm run build`);
// here it gets the same toolkit from the sources, so the test runs before a build. The bundle file is the
// built <script>, which no route under test serves.
vi.mock('hub-embed/server', async () => await import('../../src/server/index.js'));
vi.mock('hub-embed/core', async () => await import('../../src/core/index.js'));
vi.mock('../../examples/express/bundle.js', () => ({ bundle: { file: '/nonexistent', integrity: 'sha384-none' } }));

import { openDatabase } from '../../examples/express/database.js';
import { createInbox } from '../../examples/express/inbox.js';
import { createLedger } from '../../examples/express/ledger.js';
import { createSessions, SessionsFullError, USERS } from '../../examples/express/sessions.js';
import { createOrders } from '../../examples/express/orders.js';
import { createServerClient } from '../../src/server/index.js';

// A specifier the type checker does not follow: app.js imports 'hub-embed/server', which only a build
// provides to tsc (the test redirects it above, which tsc cannot know).
const APP = '../../examples/express/app.js';
const { createExampleApp } = (await import(/* @vite-ignore */ APP)) as {
  createExampleApp: (options: Record<string, unknown>) => (req: unknown, res: unknown) => void;
};

interface Answer {
  status: number;
  text: string;
  cookie: string | undefined;
}

let mock: RunningSimulator;
let server: Server;
let db: Awaited<ReturnType<typeof openDatabase>>;
let ledger: Awaited<ReturnType<typeof createLedger>>;
let port = 0;
let origin = '';

/** One request over a real socket, from `from` (a loopback address), with any Host and headers. */
function send(
  method: string,
  path: string,
  {
    host = `127.0.0.1:${port}`,
    headers = {},
    body,
    from = '127.0.0.1',
  }: {
    host?: string;
    headers?: Record<string, string>;
    body?: string;
    from?: string;
  } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method, path, localAddress: from, headers: { host, ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text, cookie: res.headers['set-cookie']?.[0]?.split(';')[0] }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const signIn = (user: string, options: Parameters<typeof send>[2] = {}) =>
  send('POST', '/sign-in', {
    ...options,
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin, ...options.headers },
    body: `user=${user}`,
  });

beforeAll(async () => {
  mock = await startSimulator();
  db = await openDatabase({ databaseUrl: '', pgliteDataDir: undefined });
  ledger = await createLedger(db);
  const inbox = await createInbox(db);
  const orders = await createOrders(db, createServerClient({ apiKey: mock.apiKey, baseUrl: mock.baseUrl }));
  let app: ReturnType<typeof createExampleApp> | undefined;
  server = createServer((req, res) => app!(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  app = createExampleApp({
    apiKey: mock.apiKey,
    hubBaseUrl: mock.baseUrl,
    hubFormUrl: mock.formUrl,
    allowedOrigins: [origin],
    allowIps: ['127.0.0.1', '::1'],
    ledger,
    inbox,
    orders,
    sessions: createSessions(),
  });
  mock.hub.setWebhooks([{ billing_url: `${origin}/hooks/hub`, notification_url: `${origin}/hooks/hub` }]);
}, 120_000);

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await db?.close();
  await mock?.close();
});

describe('Express example: no other site drives it (DNS rebinding, cross-site posts)', () => {
  it('a request whose Host is not a loopback name or the app’s own gets 403 on every route, and moves nothing', async () => {
    const alice = (await signIn('alice')).cookie!;
    const pool = mock.hub.points().pool_cents;
    for (const host of [
      `evil.example:${port}`,
      'evil.example',
      `127.0.0.1.evil.example:${port}`,
      'localhost@evil.example',
      'a b',
    ]) {
      const rebound = { host, headers: { cookie: alice, 'content-type': 'application/json' } };
      expect(
        (await send('POST', '/api/points/recharge', { ...rebound, body: '{"amount_cents":100}' })).status,
        host,
      ).toBe(403);
      expect((await signIn('bob', { host })).status, host).toBe(403);
      expect((await send('POST', '/sign-out', rebound)).status).toBe(403);
      expect((await send('GET', '/api/points', rebound)).status).toBe(403);
    }
    expect(mock.hub.points().pool_cents).toBe(pool);
    expect(await ledger.balance('user-bob')).toBeUndefined(); // Bob never signed in
    // Loopback names cannot be rebound: every spelling is answered.
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST.:${port}`, `[::1]:${port}`])
      expect((await send('GET', '/sign-in', { host })).status, host).toBe(200);
    const recharge = await send('POST', '/api/points/recharge', {
      headers: { cookie: alice, origin, 'content-type': 'application/json' },
      body: '{"amount_cents":100}',
    });
    expect(recharge.status).toBe(200);
    expect(mock.hub.points().pool_cents).toBe(pool - 100);
  });

  it('a POST from another origin gets 403 (a cross-site form signs nobody in); no Origin (curl) is answered', async () => {
    const foreign = await signIn('bob', { headers: { origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    expect(foreign.cookie).toBeUndefined();
    expect((await signIn('bob', { headers: { origin: 'null' } })).status).toBe(403);
    const curl = await send('POST', '/sign-in', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'user=bob',
    });
    expect(curl.status).toBe(303);
  });
});

describe('Express example: sessions', () => {
  /** The `name=value` of a Set-Cookie value. */
  const pairOf = (setCookie: string) => setCookie.split(';')[0]!;

  it('10,000 sign-ins as one user end only that user’s own sessions', () => {
    const sessions = createSessions();
    const victim = pairOf(sessions.signIn(USERS[0]));
    for (let i = 0; i < 10_000; i++) sessions.signIn(USERS[1]);
    expect(sessions.userOf(victim)?.id).toBe('alice');
  });

  it('a user keeps their 20 newest sessions; a full store refuses new sign-ins instead of evicting anyone', () => {
    const sessions = createSessions({ maxSessions: 30, maxPerUser: 20 });
    const own = Array.from({ length: 21 }, () => pairOf(sessions.signIn(USERS[1])));
    expect(sessions.userOf(own[0])).toBeUndefined();
    expect(own.slice(1).every((cookie) => sessions.userOf(cookie)?.id === 'bob')).toBe(true);
    const others = Array.from({ length: 10 }, () => pairOf(sessions.signIn(USERS[0])));
    expect(() => sessions.signIn(USERS[0])).toThrow(SessionsFullError);
    expect([...own.slice(1), ...others].every((cookie) => sessions.userOf(cookie) !== undefined)).toBe(true);
  });

  it('a session lasts 24 hours; expired ones make room in a full store', () => {
    let now = 0;
    const sessions = createSessions({ now: () => now, maxSessions: 2 });
    const first = pairOf(sessions.signIn(USERS[0]));
    sessions.signIn(USERS[0]);
    expect(() => sessions.signIn(USERS[0])).toThrow(SessionsFullError);
    now = 24 * 3600_000;
    expect(sessions.userOf(first)).toBeUndefined();
    expect(() => sessions.signIn(USERS[0])).not.toThrow();
  });

  it('sessions are capped per user, not per address: behind one proxy, 25 sign-ins as Bob leave Alice signed in', async () => {
    // Every request comes from 127.0.0.1 here, as every request does behind a reverse proxy or a tunnel.
    const victim = (await signIn('alice')).cookie!;
    const attacker: string[] = [];
    for (let i = 0; i < 25; i++) attacker.push((await signIn('bob')).cookie!);
    const whoAmI = async (cookie: string) =>
      JSON.parse((await send('GET', '/api/session', { headers: { cookie } })).text).user;
    expect(await whoAmI(victim)).toEqual({ name: 'Alice' });
    expect(await whoAmI(attacker[0]!)).toBeNull(); // Bob's own oldest went
    expect(await whoAmI(attacker[24]!)).toEqual({ name: 'Bob' });
  });

  it('over HTTPS the cookie is __Host-example_session (Secure, Path=/, no Domain), and an unprefixed one is not read', () => {
    const sessions = createSessions({ secure: true });
    const set = sessions.signIn(USERS[0]);
    expect(set).toMatch(/^__Host-example_session=[\w-]{43}; /);
    const attributes = set.split('; ').slice(1);
    expect(attributes).toEqual(expect.arrayContaining(['Path=/', 'Secure', 'HttpOnly', 'SameSite=Lax']));
    expect(attributes.some((attribute) => /^domain=/i.test(attribute))).toBe(false);
    expect(sessions.userOf(pairOf(set))?.id).toBe('alice');
    // A sibling subdomain can set `example_session` for the parent domain; it is not this app's cookie.
    expect(sessions.userOf(pairOf(set).replace('__Host-', ''))).toBeUndefined();
    expect(sessions.clear('/api/hub-token')).toEqual([
      '__Host-example_session=; Path=/; HttpOnly; SameSite=Lax; Secure; Max-Age=0',
    ]);
  });

  it('over plain HTTP (the local exception) the cookie is example_session without Secure', () => {
    const set = createSessions().signIn(USERS[0]);
    expect(set).toMatch(/^example_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax$/);
  });

  it('a cookie planted on /api by a sibling origin: a request carrying two session cookies is refused and both are cleared', async () => {
    const alice = (await signIn('alice')).cookie!;
    const planted = (await signIn('bob')).cookie!; // the attacker's own session, set on path=/api
    // A browser sends the cookie of the longer path first: the planted one.
    const both = `${planted}; ${alice}`;
    const asked = await new Promise<{ status: number; text: string; setCookies: string[] }>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method: 'GET',
          path: '/api/points',
          headers: { host: `127.0.0.1:${port}`, cookie: both },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, text, setCookies: res.headers['set-cookie'] ?? [] }),
          );
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(asked.status).toBe(400);
    expect(asked.text).toContain('two session cookies');
    expect(asked.text).not.toContain('Bob');
    const cleared = asked.setCookies.map((cookie) => cookie.match(/Path=([^;]*)/)?.[1]);
    expect(cleared).toEqual(expect.arrayContaining(['/', '/api', '/api/points']));
    expect(asked.setCookies.every((cookie) => /^example_session=; .*Max-Age=0/.test(cookie))).toBe(true);
    // The token route is refused too: no token is made for either user.
    const token = await send('POST', '/api/hub-token', {
      headers: { cookie: both, origin, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(token.status).toBe(400);
    expect(token.text).not.toContain('access_token');
    // Each cookie alone is still its own user's.
    const whoAmI = async (cookie: string) =>
      JSON.parse((await send('GET', '/api/session', { headers: { cookie } })).text).user;
    expect(await whoAmI(alice)).toEqual({ name: 'Alice' });
  });

  it('sign-out ends every session the request names and clears the cookie on / and /api', () => {
    const sessions = createSessions();
    const alice = pairOf(sessions.signIn(USERS[0]));
    const planted = pairOf(sessions.signIn(USERS[1]));
    const cleared = sessions.signOut(`${planted}; ${alice}`);
    expect(cleared.map((cookie) => cookie.match(/Path=([^;]*)/)?.[1])).toEqual(expect.arrayContaining(['/', '/api']));
    expect(sessions.userOf(alice)).toBeUndefined();
    expect(sessions.userOf(planted)).toBeUndefined();
  });

  it('a request path with cookie syntax adds no cleared path', () => {
    const paths = createSessions()
      .clear('/api/x;Domain=evil.example')
      .map((cookie) => cookie.match(/Path=([^;]*)/)?.[1]);
    expect(paths).toEqual(['/', '/api', '/api/']);
  });
});

describe('Express example: the ledger behind billing webhooks, driven by the simulator', () => {
  const balance = () => ledger.balance('user-alice');

  it('a resent billing_deduct (the same body) is charged once and answered ok:true again', async () => {
    await signIn('alice');
    const before = (await balance())!;
    const sent = await mock.hub.trigger({ event: 'billing_deduct', clientUserId: 'user-alice', amount: '1.50' });
    expect(sent.deliveries[0]).toMatchObject({ outcome: 'delivered', ok: true });
    expect(await balance()).toBe(before - 150);
    const again = await mock.hub.resend(sent.deliveries[0]!.id);
    expect(again).toMatchObject({ outcome: 'delivered', ok: true, resendOf: sent.deliveries[0]!.id });
    expect(await balance()).toBe(before - 150);
    const deducts = (await ledger.entries('user-alice', 100)).filter((e) => e.kind === 'deduct');
    expect(deducts.filter((e) => e.changeCents === -150)).toHaveLength(1);
  });

  it('a billing_refund beyond what was charged is refused with a non-2xx and credits nothing', async () => {
    // The example's receiver reports each refused refund on the console (the toolkit's default onError).
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    await signIn('alice');
    const table = mock.hub.tables(1, 1).list[0]!.short_code;
    const refund = (amount: string, shortCode = table) =>
      mock.hub.trigger({ event: 'billing_refund', clientUserId: 'user-alice', shortCode, amount });
    const charged = await mock.hub.trigger({
      event: 'billing_deduct',
      clientUserId: 'user-alice',
      shortCode: table,
      amount: '2.00',
    });
    expect(charged.deliveries[0]!.ok).toBe(true);
    const before = (await balance())!;
    for (const amount of ['500.00', '999999.99']) {
      const [delivery] = (await refund(amount)).deliveries;
      expect(delivery).toMatchObject({ outcome: 'rejected', status: 500 });
    }
    expect(await balance()).toBe(before);
    expect((await refund('2.00')).deliveries[0]).toMatchObject({ outcome: 'delivered', status: 200 });
    expect(await balance()).toBe(before + 200);
    // That charge is refunded in full: the same amount again (another timestamp) is refused.
    mock.hub.clock.advance(1000); // a new timestamp: another body, not a resend
    expect((await refund('2.00')).deliveries[0]).toMatchObject({ outcome: 'rejected', status: 500 });
    expect(await balance()).toBe(before + 200);
    expect(logged.mock.calls.map((call) => String(call[1]))).toEqual([
      'Error: billing_refund of 50000 cents exceeds what was charged and not refunded',
      'Error: billing_refund of 99999999 cents exceeds what was charged and not refunded',
      'Error: billing_refund of 200 cents exceeds what was charged and not refunded',
    ]);
    logged.mockRestore();
  });
});

describe('Express example: the points page names both balances', () => {
  it('the wallet this app charges on Pay, and the service’s points, each said for what it is', async () => {
    const alice = (await signIn('alice')).cookie!;
    const page = await send('GET', '/points', { headers: { cookie: alice } });
    expect(page.status).toBe(200);
    const text = page.text.replace(/\s+/g, ' ');
    expect(text).toContain('<h2 id="ledger-title">Your wallet in this app</h2>');
    expect(text).toMatch(/What <strong>Pay<\/strong> in a form takes: the service sends <code>billing_deduct<\/code>/);
    expect(text).toContain('<h2 id="service-title">Your points on the service</h2>');
    expect(text).toContain('a Pay does not take it while this app does the billing');
  });
});

// Issue 61 item 3: one stored notification with a bad link_url answered 502 on the points API, for good.
describe('Express example: one bad stored notification link never breaks a user’s points page', () => {
  it('the message with a link the rule refuses comes without a link and says why; the others keep theirs', async () => {
    const insert = `INSERT INTO inbox (client_user_id, event, title, content, link_url) VALUES ($1, $2, $3, $4, $5)`;
    await db.query(insert, ['user-bob', 'order_matched', 'Good', 'c', '/orders/42']);
    await db.query(insert, ['user-bob', 'order_matched', 'Bad', 'c', '/../admin']);
    const bob = (await signIn('bob')).cookie!;
    const points = await send('GET', '/api/points', { headers: { cookie: bob } });
    expect(points.status).toBe(200);
    const inbox = (JSON.parse(points.text) as { inbox: Array<Record<string, unknown>> }).inbox;
    const bad = inbox.find((m) => m.title === 'Bad')!;
    expect(bad.link).toBeNull();
    expect(bad.linkError).toMatch(/The notification link "\/\.\.\/admin" has a dot segment/);
    const good = new URL(inbox.find((m) => m.title === 'Good')!.link as string);
    expect(good.pathname.endsWith('/orders/42')).toBe(true);
    expect(good.searchParams.getAll('token')).toHaveLength(1);
  });
});
