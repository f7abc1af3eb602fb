// The Hono example's app (examples/hono/app.js) and its in-memory ledger, without a runtime in between:
// Hono's app.request() with the peer address each runtime's entry would give. The browser run on each
// runtime is test/examples/e2e/hono.test.ts; these are the rules it cannot reach cheaply.
import { describe, expect, it, vi } from 'vitest';

// As in express-app.test.ts: the app imports the toolkit as a package; here it gets it from the sources.
vi.mock('hub-embed/server', async () => await import('../../src/server/index.js'));
vi.mock('hub-embed/core', async () => await import('../../src/core/index.js'));

import { createSessions, USERS } from '../../examples/express/sessions.js';
import { createMemoryInbox, createMemoryLedger } from '../../examples/hono/stores.js';

const APP = '../../examples/hono/app.js';
const { createHonoApp } = (await import(/* @vite-ignore */ APP)) as typeof import('../../examples/hono/app.js');

const ORIGIN = 'http://127.0.0.1:3000';
const charge = (eventKey: string, amountCents = 500, shortCode = 'T1') => ({
  clientUserId: 'user-alice',
  amountCents,
  reason: 'Paid action',
  shortCode,
  eventKey,
});

function makeApp(peer: string | undefined) {
  const ledger = createMemoryLedger();
  const sessions = createSessions();
  const app = createHonoApp({
    apiKey: 'sk-test',
    hubBaseUrl: 'http://127.0.0.1:9', // never reached by these cases
    hubFormUrl: 'http://127.0.0.1:9',
    allowedOrigins: [ORIGIN],
    allowIps: ['127.0.0.1', '::1'],
    peerAddress: () => peer,
    ledger,
    inbox: createMemoryInbox(),
    sessions,
    files: {
      pages: { widget: '{{USER_NAME}}', points: '', signIn: 'sign in' },
      assets: {},
      bundle: { script: '', formScript: '', integrity: 'sha384-none' },
    },
  });
  return { app, ledger, sessions };
}

const deliver = (app: ReturnType<typeof makeApp>['app'], amount: string) =>
  app.request(`${ORIGIN}/hooks/hub`, {
    method: 'POST',
    headers: { host: '127.0.0.1:3000', 'content-type': 'application/json', 'x-webhook-event': 'billing_deduct' },
    body: JSON.stringify({
      event: 'billing_deduct',
      timestamp: '2026-11-23T12:00:00Z',
      target: { client_user_id: 'user-alice' },
      billing: { amount, reason: 'Paid action', short_code: 'T1' },
    }),
  });

describe('the Hono example', () => {
  describe('its in-memory ledger', () => {
    it('a deduct never overdraws, and the same event body is paid once', async () => {
      const ledger = createMemoryLedger();
      await ledger.open('user-alice', 800);
      expect(await ledger.deduct(charge('a'))).toBe(true);
      expect(await ledger.deduct(charge('a'))).toBe(true); // a resend: answered paid, nothing taken
      expect(await ledger.deduct(charge('b'))).toBe(false); // 300 left, 500 asked
      expect(await ledger.balance('user-alice')).toBe(300);
      expect((await ledger.entries('user-alice')).map((e) => e.kind)).toEqual(['deduct', 'opening']);
    });

    it('a deduct whose deadline has passed takes nothing', async () => {
      const ledger = createMemoryLedger();
      await ledger.open('user-alice', 2000);
      expect(await ledger.deduct(charge('late'), AbortSignal.abort())).toBe(false);
      expect(await ledger.balance('user-alice')).toBe(2000);
    });

    it("a refund never exceeds the table's charges not refunded, and one event is refunded once", async () => {
      const ledger = createMemoryLedger();
      await ledger.open('user-alice', 2000);
      await ledger.deduct(charge('pay'));
      expect(await ledger.refund(charge('r1', 600))).toBe('exceeds-charges');
      expect(await ledger.refund(charge('r1', 300))).toBe('refunded');
      expect(await ledger.refund(charge('r1', 300))).toBe('already-refunded');
      expect(await ledger.refund(charge('r2', 300))).toBe('exceeds-charges'); // 200 left to refund
      expect(await ledger.refund(charge('r3', 100, 'OTHER'))).toBe('exceeds-charges');
      expect(await ledger.balance('user-alice')).toBe(1800);
    });
  });

  describe('its app', () => {
    it('answers a foreign Host 403 before any route (DNS rebinding), and a cross-site POST 403', async () => {
      const { app } = makeApp('127.0.0.1');
      expect((await app.request(`${ORIGIN}/sign-in`, { headers: { host: 'evil.example' } })).status).toBe(403);
      const crossSite = await app.request(`${ORIGIN}/sign-in`, {
        method: 'POST',
        headers: { host: '127.0.0.1:3000', origin: 'https://evil.example' },
        body: new URLSearchParams({ user: 'alice' }),
      });
      expect(crossSite.status).toBe(403);
      expect((await app.request(`${ORIGIN}/sign-in`, { headers: { host: '127.0.0.1:3000' } })).status).toBe(200);
    });

    it('a request carrying two session cookies (one planted on /api) is refused before any route and both are cleared', async () => {
      const { app, sessions } = makeApp('127.0.0.1');
      const alice = sessions.signIn(USERS[0]).split(';')[0]!;
      const planted = sessions.signIn(USERS[1]).split(';')[0]!;
      const answer = await app.request(`${ORIGIN}/api/hub-token`, {
        method: 'POST',
        headers: {
          host: '127.0.0.1:3000',
          origin: ORIGIN,
          'content-type': 'application/json',
          cookie: `${planted}; ${alice}`,
        },
        body: '{}',
      });
      expect(answer.status).toBe(400);
      expect(await answer.text()).toContain('two session cookies');
      const cleared = answer.headers.getSetCookie().map((cookie) => cookie.match(/Path=([^;]*)/)?.[1]);
      expect(cleared).toEqual(expect.arrayContaining(['/', '/api', '/api/hub-token']));
    });

    it('sign-out clears the session cookie on / and on /api', async () => {
      const { app, sessions } = makeApp('127.0.0.1');
      const alice = sessions.signIn(USERS[0]).split(';')[0]!;
      const answer = await app.request(`${ORIGIN}/sign-out`, {
        method: 'POST',
        headers: { host: '127.0.0.1:3000', origin: ORIGIN, cookie: alice },
      });
      expect(answer.status).toBe(303);
      const cleared = answer.headers.getSetCookie().map((cookie) => cookie.match(/Path=([^;]*)/)?.[1]);
      expect(cleared).toEqual(expect.arrayContaining(['/', '/api']));
      expect(sessions.userOf(alice)).toBeUndefined();
    });

    it('the token route takes the user from the session only: a request without one gets 401', async () => {
      const { app } = makeApp('127.0.0.1');
      const answer = await app.request(`${ORIGIN}/api/hub-token`, {
        method: 'POST',
        headers: { host: '127.0.0.1:3000', origin: ORIGIN, 'content-type': 'application/json' },
        body: JSON.stringify({ client_user_id: 'user-alice' }),
      });
      expect(answer.status).toBe(401);
    });

    it("the webhook's source is the runtime's peer address: outside allowIps (or none) is refused and charges nothing", async () => {
      // The example keeps the receiver's default report of each refused delivery, one console line each.
      const warned = vi.spyOn(console, 'warn').mockImplementation(() => {});
      for (const peer of ['203.0.113.9', undefined]) {
        const { app, ledger } = makeApp(peer);
        await ledger.open('user-alice', 2000);
        expect((await deliver(app, '5.00')).status).toBe(403);
        expect(await ledger.balance('user-alice')).toBe(2000);
      }
      expect(warned.mock.calls.map((call) => String(call[0]))).toEqual([
        expect.stringContaining('203.0.113.9 is not in allowIps'),
        expect.stringContaining('A request without a socket address was refused (403)'),
      ]);
      warned.mockRestore();
      const { app, ledger } = makeApp('127.0.0.1');
      await ledger.open('user-alice', 2000);
      const answer = await deliver(app, '5.00');
      expect(answer.status).toBe(200);
      expect(await ledger.balance('user-alice')).toBe(1500);
      expect((await deliver(app, '5.00')).status).toBe(200); // the same body again: paid once
      expect(await ledger.balance('user-alice')).toBe(1500);
    });
  });
});
