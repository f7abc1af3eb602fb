/**
 * Deducts across instances (issue 47, item 3): two instances of examples/express behind one URL (a
 * round-robin proxy), one database. The simulator holds two webhook configurations with that one URL, so
 * the same billing_deduct reaches both instances; it must charge once. Also the same body sent to both
 * instances at the same moment, 20 times over. On PGlite (both instances in this process, one database),
 * and on a real Postgres server the test starts (Debian's postgresql; HUB_REQUIRE_POSTGRES=1 makes a
 * missing one a failure, as CI sets it).
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// The app imports the toolkit as a package; here it is the source, as in express-app.test.ts.
vi.mock('hub-embed/server', async () => await import('../../src/server/index.js'));
vi.mock('hub-embed/core', async () => await import('../../src/core/index.js'));

import { createExampleApp } from '../../examples/express/app.js';
import { openDatabase, type Database } from '../../examples/express/database.js';
import { createInbox } from '../../examples/express/inbox.js';
import { createLedger, type Ledger } from '../../examples/express/ledger.js';
import { createOrders } from '../../examples/express/orders.js';
import { createSessions } from '../../examples/express/sessions.js';
import { startSimulator, type RunningSimulator } from '../../packages/hub-embed-mock/src/node.js';
import { createServerClient } from '../../src/server/index.js';
import {
  POSTGRES_MISSING,
  findPostgresBin,
  postgresRequired,
  startPostgresServer,
  type PostgresServer,
} from './postgres-server.js';

const bin = findPostgresBin();
if (!bin && postgresRequired) throw new Error(`HUB_REQUIRE_POSTGRES=1: ${POSTGRES_MISSING}`);
if (!bin) console.warn(`deduct-instances: Postgres skipped: ${POSTGRES_MISSING}`);

const kinds = [{ name: 'PGlite' }, ...(bin ? [{ name: 'Postgres' }] : [])];

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

describe.each(kinds)('two receiver instances behind one URL, on $name', { timeout: 120_000 }, ({ name }) => {
  let postgres: PostgresServer | undefined;
  let db: Database;
  let mock: RunningSimulator;
  const servers: Server[] = [];
  const instances: string[] = [];
  const served = [0, 0];
  let proxyUrl = '';
  let ledger: Ledger;

  beforeAll(async () => {
    if (name === 'Postgres') postgres = await startPostgresServer(bin!);
    db = await openDatabase({ databaseUrl: postgres?.url ?? '', pgliteDataDir: undefined });
    mock = await startSimulator();
    for (let i = 0; i < 2; i++) {
      // Each instance with its own ledger, inbox and orders objects over the one database, as two processes.
      const instanceLedger = await createLedger(db);
      const app = createExampleApp({
        apiKey: mock.apiKey,
        hubBaseUrl: mock.baseUrl,
        hubFormUrl: mock.formUrl,
        allowedOrigins: ['http://127.0.0.1:1'],
        allowIps: ['127.0.0.1', '::1'],
        ledger: instanceLedger,
        inbox: await createInbox(db),
        orders: await createOrders(db, createServerClient({ apiKey: mock.apiKey, baseUrl: mock.baseUrl })),
        sessions: createSessions(),
      });
      const server = createServer(app);
      servers.push(server);
      instances.push(await listen(server));
    }
    ledger = await createLedger(db);
    // The one URL: each request goes to the next instance in turn.
    let next = 0;
    const proxy = createServer((req, res) => {
      const target = next++ % 2;
      served[target]!++;
      const upstream = request(
        `${instances[target]}${req.url}`,
        { method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(upstream);
    });
    servers.push(proxy);
    proxyUrl = await listen(proxy);
    const url = `${proxyUrl}/hooks/hub`;
    mock.hub.setWebhooks([
      { billing_url: url, notification_url: url },
      { billing_url: url, notification_url: url },
    ]);
  }, 180_000);

  afterAll(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    await mock?.close();
    await db?.close();
    await postgres?.stop();
  });

  it('the same billing_deduct delivered to both instances (two configurations, one URL) charges once', async () => {
    const user = `user-${crypto.randomUUID()}`;
    await ledger.open(user, 1000);
    mock.hub.transfer({ clientUserId: user, amountCents: 1 }); // a user the service knows
    const before = [...served];
    const result = await mock.hub.trigger({
      event: 'billing_deduct',
      clientUserId: user,
      amount: '3.00',
      reason: 'Unlock',
    });
    expect(result.deliveries.map((delivery) => delivery.ok)).toEqual([true, true]);
    expect(served.map((count, i) => count - before[i]!)).toEqual([1, 1]); // one delivery each
    expect(result.decision?.charged).toBe(true);
    expect(await ledger.balance(user)).toBe(700);
    expect((await ledger.entries(user)).filter((entry) => entry.kind === 'deduct')).toHaveLength(1);
  });

  it('the same body sent to both instances at the same moment charges once, 20 times over', async () => {
    const user = `user-${crypto.randomUUID()}`;
    await ledger.open(user, 10_000);
    mock.hub.transfer({ clientUserId: user, amountCents: 1 });
    const deliver = (instance: string, body: string) =>
      fetch(`${instance}/hooks/hub`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-webhook-event': 'billing_deduct' },
        body,
      }).then(async (res) => ({ status: res.status, ok: ((await res.json()) as { ok?: unknown }).ok }));
    for (let n = 0; n < 20; n++) {
      const body = JSON.stringify({
        ...mock.hub.triggerPreview({
          event: 'billing_deduct',
          clientUserId: user,
          amount: '1.00',
          reason: `Unlock ${n}`,
        }).body,
        timestamp: '2026-11-24T12:00:00+08:00',
      });
      const answers = await Promise.all(instances.map((instance) => deliver(instance, body)));
      expect(answers).toEqual([
        { status: 200, ok: true },
        { status: 200, ok: true },
      ]);
    }
    expect(await ledger.balance(user)).toBe(10_000 - 20 * 100);
    expect((await ledger.entries(user, 100)).filter((entry) => entry.kind === 'deduct')).toHaveLength(20);
  });
});
