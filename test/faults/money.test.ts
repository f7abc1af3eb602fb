/**
 * Money under generated faults (issues 58 and 79): fast-check draws sequences of recharges, caller retries
 * and process restarts, a fault at every recharge the simulator serves (dropped or 502 before the apply,
 * 409, a failed attempt the service logs with status `failed`, dropped, 5xx or delayed past the timeout
 * after it, an apply that lands late), a service profile per sequence (the remark kept to N bytes or
 * characters, cut at a 4-byte character, trimmed, escaped; the logs in either order, `total` anywhere,
 * `page_size` capped, gateway HTML errors; a log that lags and applies that land late beyond the one read
 * recharge() makes; a gateway's 504; the service's clock minutes ahead or behind, or Beijing time labelled
 * `Z`; a proxy that sends each POST twice), and webhook deliveries (duplicates, concurrent copies,
 * header/body mismatches, signed and odd amounts) to examples/express's receiver. After every sequence:
 * each order credited 0 or 1 times; every recharge() sent once; a pending order sent again only after
 * resolveRecharge proved it not applied; an order reported credited is in the service's logs, one refused
 * is not; with the marker kept and the logs readable every order ends credited (0 lost), else it ends
 * pending, never guessed; the integrator's ledger (examples/express, PGlite) equals the service's logs; a
 * deduction is charged once and never past the balance, a refund never gives back more than was charged.
 * What ships is tested: the built toolkit and simulator, as examples/express imports them.
 *
 * FAST_CHECK_SEED=<seed> replays a run (the seed is printed first); MONEY_RUNS scales every property.
 */
import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { createSimulator, type RechargeFault, type ServiceProfile, type Simulator } from 'hub-embed-mock';
import { createServerClient, HubRechargePendingError, type ServerClient } from 'hub-embed/server';
import { createExampleApp } from '../../examples/express/app.js';
import { openDatabase, type Database } from '../../examples/express/database.js';
import { processView } from './process-view.js';
import { PROFILES } from '../../packages/hub-embed-mock/src/profiles.js';
import { createInbox } from '../../examples/express/inbox.js';
import { createLedger, eventKeyOf, type Ledger } from '../../examples/express/ledger.js';
import { createOrders, type Orders } from '../../examples/express/orders.js';
import { createSessions } from '../../examples/express/sessions.js';

const SEED = Number(process.env.FAST_CHECK_SEED ?? Date.now() % 2_147_483_647);
const SCALE = Number(process.env.MONEY_RUNS ?? 1);
console.log(`money properties: seed ${SEED} (FAST_CHECK_SEED=${SEED} replays this run)`);
const runs = (count: number) => ({ seed: SEED, numRuns: Math.max(1, Math.round(count * SCALE)) });

/** The client gives up after TIMEOUT_MS; a delayed answer comes later, a late apply lands well before the settle wait ends. */
const TIMEOUT_MS = 20;
const DELAY_MS = 25;
const LATE_MS = 2;
const SETTLE_MS = 10;
const RECHARGE = '/points/users/recharge';

const FAULTS: RechargeFault[] = [
  { kind: 'none' },
  { kind: 'none' },
  { kind: 'none' },
  { kind: 'drop-before' },
  { kind: 'error-before', status: 502 },
  { kind: 'conflict' },
  { kind: 'failed-attempt', status: 500 },
  { kind: 'drop' },
  { kind: 'error-after', status: 500 },
  { kind: 'error-after', status: 502 },
  { kind: 'error-after', status: 504 },
  { kind: 'delay', ms: DELAY_MS },
  { kind: 'late-apply', ms: LATE_MS },
];
const fault = fc.constantFrom(...FAULTS);
/**
 * A service the spec allows. The timing fields stay within what the client is told to wait for
 * (`windowFor`, the settle window): the contract docs/server.md states, not a guess of this machine's speed.
 */
const profile: fc.Arbitrary<ServiceProfile> = fc.record({
  reasonLimit: fc.option(
    fc.record({
      length: fc.integer({ min: 4, max: 80 }),
      unit: fc.constantFrom('bytes' as const, 'characters' as const),
    }),
    { nil: undefined },
  ),
  cutAtFourByte: fc.boolean(),
  trimReason: fc.boolean(),
  escapeReason: fc.constantFrom(undefined, 'html' as const, 'backslash' as const),
  logsOrder: fc.constantFrom('newest-first' as const, 'oldest-first' as const),
  logsTotal: fc.constantFrom('all' as const, 'missing' as const, 'page' as const, 'elsewhere' as const),
  pageSizeCap: fc.constantFrom(100, 50, 2),
  logsError: fc.option(
    fc.record({
      status: fc.constantFrom(404, 502),
      page: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
    }),
    { nil: undefined, freq: 6 },
  ),
  // Beyond the one read recharge() makes after SETTLE_MS: only the settle window covers them.
  logLagMs: fc.constantFrom(0, 0, 4, 40),
  applyDelayMs: fc.constantFrom(0, 0, 8, 25),
  gatewayTimeoutMs: fc.constantFrom(0, 0, 5),
  clockOffsetMs: fc.constantFrom(0, 0, 10 * 60_000, -10 * 60_000, 8 * 3600_000),
  proxyRepeatsPost: fc.constantFrom(false, false, false, true),
});
/**
 * Every built-in profile (docs/simulator.md), its times scaled to the run's as the draw's are: each one is
 * run first in every run, whatever the seed draws after it.
 */
const BUILT_IN: ServiceProfile[] = Object.values(PROFILES).map((named: ServiceProfile) => ({
  ...named,
  ...(named.logLagMs ? { logLagMs: 40 } : {}),
  ...(named.applyDelayMs ? { applyDelayMs: 25 } : {}),
  ...(named.gatewayTimeoutMs ? { gatewayTimeoutMs: 5 } : {}),
}));
/** The remarks sent: ASCII, and non-ASCII with a 4-byte character and a quote, as real top-ups are named. */
const remark = fc.constantFrom('Top-up', "Top-up for O'Brien", '充值 🎉 月卡 ');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The marker survives and the logs can be read: every lost answer must be resolved, none left pending. */
function provable(drawn: ServiceProfile): boolean {
  return (drawn.reasonLimit === undefined || drawn.reasonLimit.length >= 40) && drawn.logsError === undefined;
}

/**
 * The settle window for a profile: its log lag and late applies (a late-apply fault's too), with room (the
 * documented contract: the window covers how late the service may show a credit). The room is wide: a lag
 * is measured on the clock from a late apply's timer, and on a loaded machine that timer fires late.
 */
function windowFor(drawn: ServiceProfile): number {
  return 200 + 3 * ((drawn.logLagMs ?? 0) + (drawn.applyDelayMs ?? 0) + DELAY_MS + LATE_MS);
}

/** A simulator playing `drawn` whose recharges meet `faults` in order (then none), and a client of it that records what it sends. */
function service(faults: readonly RechargeFault[], drawn: ServiceProfile) {
  const queue = [...faults];
  const hub: Simulator = createSimulator({
    logLimit: 100_000,
    profile: drawn,
    rechargeFaults: { pick: () => queue.shift() },
  });
  const sent: { kind: 'recharge' | 'logs'; marker?: string }[] = [];
  const fetchImpl: typeof fetch = (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    if (url.includes(RECHARGE)) {
      const body = JSON.parse(String(init?.body)) as { reason: string };
      sent.push({ kind: 'recharge', marker: /^hub[0-9a-f]{32}/.exec(body.reason)?.[0] });
    } else if (url.includes('/points/users/logs')) sent.push({ kind: 'logs' });
    return hub.fetch(input, init);
  };
  const client = createServerClient({
    apiKey: hub.apiKey,
    baseUrl: hub.baseUrl,
    fetch: fetchImpl,
    timeoutMs: TIMEOUT_MS,
    recharge: { settleMs: SETTLE_MS, settleWindowMs: windowFor(drawn) },
  });
  const late = faults.some((f) => f.kind === 'late-apply') || (drawn.applyDelayMs ?? 0) > 0;
  return {
    hub,
    client,
    sent,
    stop: () => queue.splice(0),
    /** The recharges sent since `from` (an index into `sent`). */
    sendsSince: (from: number) => sent.slice(from).filter((entry) => entry.kind === 'recharge').length,
    /** Until every late apply has landed (a delayed answer's apply is already done). */
    settled: () => (late ? sleep(LATE_MS * 5 + 2 * (drawn.applyDelayMs ?? 0)) : Promise.resolve()),
  };
}

/**
 * How often the service credited each order: its transfer records, which keep `external_order_id` whatever
 * became of the remark (a cut reason can hide the marker, not the credit).
 */
function creditsOf(hub: Simulator): Map<string, number> {
  const counts = new Map<string, number>();
  for (const transfer of hub.transfers(1, 100).list) {
    const order = transfer.external_order_id ?? '(none)';
    counts.set(order, (counts.get(order) ?? 0) + 1);
  }
  return counts;
}

let sequence = 0;

/**
 * Resolves a pending order the way docs/server.md tells a caller to: resolveRecharge until it is no longer
 * waiting out the settle window; never sends.
 */
async function settle(client: ServerClient, order: { user: string; orderId: string; cents: number; sentAt: number }) {
  for (;;) {
    const found = await client.resolveRecharge({
      clientUserId: order.user,
      externalOrderId: order.orderId,
      amountCents: order.cents,
      sentAt: order.sentAt,
    });
    if (found.outcome !== 'pending' || found.retryAfterMs === undefined) return found.outcome;
    await sleep(found.retryAfterMs + 1);
  }
}

/** The sets outside the old assumptions, each counted apart: what a sequence drew. */
function setsOf(faults: readonly RechargeFault[], drawn: ServiceProfile): string[] {
  const sets: string[] = [];
  if ((drawn.logLagMs ?? 0) > SETTLE_MS) sets.push('log lag past the one read');
  if ((drawn.applyDelayMs ?? 0) > 0 || faults.some((f) => f.kind === 'late-apply')) sets.push('late applies');
  if ((drawn.clockOffsetMs ?? 0) !== 0) sets.push('clock skew or time zone');
  if (drawn.proxyRepeatsPost) sets.push('POSTs repeated by a proxy');
  if (faults.some((f) => f.kind === 'failed-attempt')) sets.push('failed-status records');
  return sets;
}

test('recharge(): sent once; each order credited 0 or 1 times; pending sent again only when proven not applied; 0 lost', async () => {
  const perSet = new Map<string, { sequences: number; orders: number }>();
  const step = fc.record({ order: fc.integer({ min: 0, max: 3 }), cents: fc.integer({ min: 1, max: 500 }) });
  let outcomes = { credited: 0, refused: 0, pending: 0, resent: 0, sequences: 0 };
  const started = performance.now();
  await fc.assert(
    fc.asyncProperty(
      fc.array(step, { minLength: 1, maxLength: 6 }),
      fc.array(fault, { maxLength: 16 }),
      profile,
      remark,
      async (steps, faults, drawn, reason) => {
        const run = ++sequence;
        const user = `prop-user-${run}`;
        const { hub, client, sent, sendsSince, stop, settled } = service(faults, drawn);
        const amounts = new Map<string, number>();
        const state = new Map<string, 'credited' | 'refused' | { sentAt: number }>();
        /** One recharge() call: it sends exactly once, whatever it meets. */
        const send = async (orderId: string, amountCents: number) => {
          const from = sent.length;
          try {
            await client.recharge({ clientUserId: user, amountCents, externalOrderId: orderId, reason });
            state.set(orderId, 'credited');
            assert.equal(creditsOf(hub).get(orderId), 1, `${orderId} reported credited is in the logs once`);
          } catch (error) {
            if (error instanceof HubRechargePendingError) state.set(orderId, { sentAt: error.sentAt });
            else {
              state.set(orderId, 'refused');
              assert.equal(creditsOf(hub).get(orderId) ?? 0, 0, `${orderId} refused (${String(error)}) is in the logs`);
            }
          }
          assert.equal(sendsSince(from), 1, `${orderId}: recharge() sends once, never again on its own`);
        };
        for (const { order, cents } of steps) {
          const orderId = `o-${run}-${order}`;
          const amountCents = amounts.get(orderId) ?? cents;
          amounts.set(orderId, amountCents);
          const before = state.get(orderId);
          if (before === 'credited') continue; // a caller that knows it is credited sends nothing
          if (typeof before === 'object') {
            // A caller retry of a pending order asks the logs first and sends only on proof.
            const from = sent.length;
            const found = await client.resolveRecharge({
              clientUserId: user,
              externalOrderId: orderId,
              amountCents,
              sentAt: before.sentAt,
            });
            assert.equal(sendsSince(from), 0, 'resolveRecharge sends nothing');
            if (found.outcome === 'applied') state.set(orderId, 'credited');
            if (found.outcome !== 'not-applied') continue;
            outcomes.resent++;
          }
          await send(orderId, amountCents);
        }
        // The faults pass, every late apply lands; each pending order is settled after its window.
        stop();
        await settled();
        // A resend may meet the profile's own slowness (a gateway's 504 before a late apply) and be pending
        // again: settled again, a few rounds at most.
        for (let round = 0; round < 3; round++) {
          for (const [orderId, outcome] of state) {
            if (typeof outcome !== 'object') continue;
            const amountCents = amounts.get(orderId)!;
            const found = await settle(client, { user, orderId, cents: amountCents, sentAt: outcome.sentAt });
            if (found === 'applied') state.set(orderId, 'credited');
            else if (found === 'not-applied') {
              outcomes.resent++;
              await send(orderId, amountCents);
            }
          }
        }
        const credits = creditsOf(hub);
        for (const [orderId, outcome] of state) {
          const count = credits.get(orderId) ?? 0;
          const name = typeof outcome === 'object' ? 'pending' : outcome;
          outcomes[name]++;
          assert.ok(count <= 1, `${orderId} credited ${count} times under ${JSON.stringify(drawn)}`);
          if (name === 'credited') assert.equal(count, 1, `${orderId} reported credited, not in the logs`);
          if (name === 'refused') assert.equal(count, 0, `${orderId} reported refused, in the logs`);
          // With the marker kept and the logs readable, the logs always tell: nothing is lost or left pending.
          if (provable(drawn)) assert.equal(name, 'credited', `${orderId}: ${name} under ${JSON.stringify(drawn)}`);
        }
        outcomes.sequences++;
        for (const set of setsOf(faults, drawn)) {
          const tally = perSet.get(set) ?? { sequences: 0, orders: 0 };
          tally.sequences++;
          tally.orders += state.size;
          perSet.set(set, tally);
        }
      },
    ),
    {
      ...runs(300),
      // The examples count as runs: each built-in profile is run on top of the drawn sequences.
      numRuns: runs(300).numRuns + BUILT_IN.length,
      // Each built-in profile meets the faults in turn, over caller retries of an order and further orders.
      examples: BUILT_IN.map((drawn) => [
        [
          { order: 0, cents: 500 },
          { order: 0, cents: 500 },
          { order: 1, cents: 29 },
          { order: 2, cents: 113 },
          { order: 1, cents: 29 },
          { order: 3, cents: 435 },
        ],
        FAULTS.filter((f) => f.kind !== 'none'),
        drawn,
        "充值 🎉 Top-up for O'Brien",
      ]),
    },
  );
  console.log(
    `recharge property: ${outcomes.sequences} sequences (the first ${BUILT_IN.length} the built-in profiles), 0 double credits, 0 lost top-ups, outcomes ` +
      `${JSON.stringify({ ...outcomes, sequences: undefined })} (pending: only where the marker is cut or the logs unreadable), ` +
      `${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  for (const [set, tally] of perSet)
    console.log(`  ${set}: ${tally.sequences} sequences, ${tally.orders} orders, 0 double credits, 0 lost`);
  outcomes = { credited: 0, refused: 0, pending: 0, resent: 0, sequences: 0 };
});

let database: Database;
before(async () => {
  database = await openDatabase({ databaseUrl: '' });
});
after(async () => {
  await database?.close();
});

test("examples/express's order ledger under faults, duplicate callbacks and restarts equals the service's logs", async () => {
  const action = fc.oneof(
    fc.record({
      kind: fc.constant('pay' as const),
      order: fc.integer({ min: 0, max: 3 }),
      cents: fc.integer({ min: 1, max: 500 }),
    }),
    fc.record({ kind: fc.constant('twice' as const), order: fc.integer({ min: 0, max: 3 }) }),
    fc.record({ kind: fc.constant('crash' as const), order: fc.integer({ min: 0, max: 3 }) }),
  );
  const tally = { sequences: 0, crashes: 0, credited: 0, pending: 0 };
  const started = performance.now();
  await fc.assert(
    fc.asyncProperty(
      fc.array(action, { minLength: 1, maxLength: 6 }),
      fc.array(fault, { maxLength: 12 }),
      profile,
      async (actions, faults, drawn) => {
        const run = ++sequence;
        const user = `ledger-user-${run}`;
        const { hub, client, stop, settled } = service(faults, drawn);
        await database.exec('DROP TABLE IF EXISTS orders');
        let view = processView(database);
        let orders: Orders = await createOrders(view.db, client as ServerClient);
        const paid = new Map<string, number>();
        const callback = async (current: Orders, orderId: string) => {
          try {
            await current.paid({ orderId, clientUserId: user, amountCents: paid.get(orderId)! });
            await current.credit(orderId);
          } catch {
            // A crash or a refusal mid-way: reconcile() settles it.
          }
        };
        for (const item of actions) {
          const orderId = `lo-${run}-${item.order}`;
          if (item.kind === 'pay') {
            if (!paid.has(orderId)) paid.set(orderId, item.cents);
            await callback(orders, orderId);
          } else if (!paid.has(orderId)) continue;
          else if (item.kind === 'twice') await Promise.all([callback(orders, orderId), callback(orders, orderId)]);
          else {
            // The process dies while the callback is in flight, and a new one starts and reconciles.
            const inFlight = callback(orders, orderId);
            await sleep(1);
            view.crash();
            await inFlight;
            tally.crashes++;
            view = processView(database);
            orders = await createOrders(view.db, client as ServerClient);
            await orders.releaseClaims();
            await orders.reconcile().catch(() => undefined);
          }
        }
        // The faults pass; a running app reconciles now and then, a settle window apart, until no order is
        // pending but those the logs cannot tell of.
        stop();
        await settled();
        for (let round = 0; round < 4; round++) {
          const outcome = await orders.reconcile();
          if (outcome.pending === 0 && outcome['in-progress'] === 0) break;
          await sleep(windowFor(drawn));
        }
        const credits = creditsOf(hub);
        const ledger = new Set((await orders.credited(user)).map((order) => order.orderId));
        let ledgerCents = 0;
        let serviceCents = 0;
        for (const [orderId, cents] of paid) {
          const count = credits.get(orderId) ?? 0;
          assert.ok(count <= 1, `${orderId} credited ${count} times`);
          if (ledger.has(orderId)) {
            assert.equal(count, 1, `${orderId}: the ledger says credited, the service's logs do not`);
            ledgerCents += cents;
            serviceCents += cents;
            tally.credited++;
          } else if (provable(drawn))
            assert.fail(`${orderId}: not credited though the faults passed under ${JSON.stringify(drawn)}`);
          else {
            // Pending for good (the marker cut, the logs unreadable): never credited twice, left to a person.
            tally.pending++;
          }
        }
        if (provable(drawn)) {
          const all = [...credits.values()].reduce((sum, count) => sum + count, 0);
          assert.equal(all, ledger.size, "every recharge in the service's logs is an order the ledger marked credited");
          const balance = ledger.size === 0 ? 0 : (hub.userLogs(user, 1, 1).list[0]?.balance_after ?? 0);
          assert.equal(balance, ledgerCents, "the service's balance equals the ledger's credited orders");
        }
        assert.equal(ledgerCents, serviceCents);
        tally.sequences++;
      },
    ),
    // Each sequence with a pending order waits out its settle window: fewer runs than the others.
    runs(100),
  );
  console.log(
    `order ledger property: ${JSON.stringify(tally)}, ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
});

/** examples/express served on a free port, with its ledger on the shared PGlite database. */
async function exampleApp(): Promise<{ ledger: Ledger; port: number; server: Server }> {
  const hub = createSimulator();
  const ledger = await createLedger(database);
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  const app = createExampleApp({
    apiKey: hub.apiKey,
    hubBaseUrl: hub.baseUrl,
    hubFormUrl: hub.formUrl,
    allowedOrigins: [origin],
    allowIps: ['127.0.0.1'],
    ledger,
    inbox: await createInbox(database),
    orders: await createOrders(database, createServerClient({ apiKey: hub.apiKey, baseUrl: hub.baseUrl })),
    sessions: createSessions(),
  });
  server.on('request', app);
  return { ledger, port, server };
}

function post(port: number, header: string | null, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/hooks/hub',
        headers: {
          host: `127.0.0.1:${port}`,
          'content-type': 'application/json',
          ...(header === null ? {} : { 'x-webhook-event': header }),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

test('webhooks to examples/express: charged once, never past the balance, refunds never more than charged', async () => {
  const { ledger, port, server } = await exampleApp();
  const amount = fc.oneof(
    fc
      .integer({ min: 1, max: 900 })
      .map((cents) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`),
    fc.constantFrom('-5.00', '+5.00', '5', '5.001', '0.00', '05.00', ' 5.00', '5.00\n', '1e2', '-0.01', 5),
  );
  const delivery = fc.record({
    event: fc.constantFrom('billing_deduct', 'billing_refund'),
    header: fc.constantFrom('same', 'same', 'same', 'billing_deduct', 'billing_refund', 'none'),
    table: fc.constantFrom('t1', 't2'),
    amount,
    second: fc.integer({ min: 0, max: 3 }),
    copies: fc.integer({ min: 1, max: 3 }),
    together: fc.boolean(),
  });
  const tally = { sequences: 0, deliveries: 0, charged: 0, refunded: 0 };
  const started = performance.now();
  try {
    await fc.assert(
      fc.asyncProperty(
        fc.array(delivery, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 0, max: 1500 }),
        async (deliveries, opening) => {
          const user = `hook-user-${++sequence}`;
          await ledger.open(user, opening);
          const answered = new Map<string, { body: Record<string, unknown>; ok: boolean; cents: number | undefined }>();
          for (const item of deliveries) {
            const body = {
              event: item.event,
              timestamp: `2026-11-26T10:00:0${item.second}+08:00`,
              short_code: item.table,
              project_icon_url: null,
              target: { client_user_id: user },
              billing: { amount: item.amount, reason: `Paid action on ${item.table}` },
            };
            const header = item.header === 'same' ? item.event : item.header === 'none' ? null : item.header;
            const text = JSON.stringify(body);
            const send = () => post(port, header, text);
            const answers = item.together
              ? await Promise.all(Array.from({ length: item.copies }, send))
              : await Array.from({ length: item.copies }).reduce<Promise<{ status: number; text: string }[]>>(
                  async (done) => [...(await done), await send()],
                  Promise.resolve([]),
                );
            tally.deliveries += answers.length;
            // The spec's yuan with exactly two decimals ("05.00" is 500 cents), above zero.
            const cents =
              typeof item.amount === 'string' && /^\d+\.\d{2}$/.test(item.amount)
                ? Number(item.amount.replace('.', ''))
                : undefined;
            const wellFormed = cents !== undefined && cents > 0;
            const key = eventKeyOf({ raw: body });
            for (const answer of answers) {
              if (item.event === 'billing_deduct' && header !== 'billing_refund') {
                assert.equal(answer.status, 200, `a deduction is answered 200 (${answer.text})`);
                const ok = (JSON.parse(answer.text) as { ok: boolean }).ok;
                if (ok) assert.ok(header === 'billing_deduct' && wellFormed, `ok:true for ${text} under ${header}`);
                if (ok) answered.set(key, { body, ok, cents });
              } else if (header !== item.event || !wellFormed) {
                assert.equal(answer.status, 400, `refused: ${text} under ${header} (${answer.text})`);
              } else if (answer.status === 200) answered.set(key, { body, ok: true, cents });
              else assert.equal(answer.status, 500, `a refund past the charges is not confirmed (${answer.text})`);
            }
          }
          const entries = await ledger.entries(user, 1000);
          const balance = await ledger.balance(user);
          assert.ok(balance !== undefined && balance >= 0, `never past the balance: ${balance}`);
          assert.equal(
            balance,
            opening +
              entries.filter((entry) => entry.kind !== 'opening').reduce((sum, entry) => sum + entry.changeCents, 0),
          );
          const deducts = entries.filter((entry) => entry.kind === 'deduct');
          const refunds = entries.filter((entry) => entry.kind === 'refund');
          // Each distinct body confirmed is one row: a duplicate or concurrent copy charged nothing more.
          assert.equal(deducts.length + refunds.length, answered.size, 'one ledger row per confirmed event');
          for (const table of ['t1', 't2']) {
            const charged = -deducts
              .filter((entry) => entry.shortCode === table)
              .reduce((sum, entry) => sum + entry.changeCents, 0);
            const given = refunds
              .filter((entry) => entry.shortCode === table)
              .reduce((sum, entry) => sum + entry.changeCents, 0);
            assert.ok(given <= charged, `${table}: refunded ${given} of ${charged} charged`);
            tally.charged += charged;
            tally.refunded += given;
          }
          for (const { cents } of answered.values())
            assert.ok(cents !== undefined && cents > 0, 'only well-formed positive amounts move points');
          tally.sequences++;
        },
      ),
      runs(300),
    );
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  console.log(`webhook property: ${JSON.stringify(tally)}, ${((performance.now() - started) / 1000).toFixed(1)} s`);
});
