// The Express example's ledger on a real database: PGlite always, and Postgres too when DATABASE_URL
// is set. The rules are the issue's: a deduct never overdraws, however many run at once; a refund is
// recorded once; a deduct past its deadline is rolled back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../examples/express/database.js';
import { createLedger, eventKeyOf } from '../../examples/express/ledger.js';

const kinds = [
  { name: 'PGlite', options: { databaseUrl: '' } },
  ...(process.env.DATABASE_URL ? [{ name: 'Postgres', options: { databaseUrl: process.env.DATABASE_URL } }] : []),
];

describe.each(kinds)('the example ledger on $name', { timeout: 60_000 }, ({ options }) => {
  // One database for the file (PGlite takes seconds to start); each test has its own user.
  let db: Database;
  // Generous limits, not timing assertions: PGlite compiles its WebAssembly on start, slowly on a busy machine.
  beforeAll(async () => {
    db = await openDatabase({ ...options, pgliteDataDir: undefined });
  }, 120_000);
  afterAll(() => db.close());

  /** A ledger with one new user holding `cents`. */
  async function ledgerWith(cents: number) {
    const ledger = await createLedger(db);
    const user = `user-${crypto.randomUUID()}`;
    await ledger.open(user, cents);
    return { ledger, user };
  }

  /** A charge with a key of its own: each call is another event, as two real paid actions are. */
  const charge = (clientUserId: string, amountCents: number, eventKey: string = crypto.randomUUID()) => ({
    clientUserId,
    amountCents,
    reason: 'Paid action on 钢结构安装',
    shortCode: 'k3Xp9a',
    eventKey,
  });

  it('200 concurrent deducts against a small balance never overdraw', async () => {
    const { ledger, user } = await ledgerWith(1000);
    const results = await Promise.all(Array.from({ length: 200 }, () => ledger.deduct(charge(user, 30))));
    const taken = results.filter(Boolean).length;
    expect(taken).toBe(33); // 33 × 30 = 990 <= 1000 < 34 × 30
    expect(await ledger.balance(user)).toBe(10);
    const deducts = (await ledger.entries(user, 500)).filter((entry) => entry.kind === 'deduct');
    expect(deducts).toHaveLength(33);
    // Every row's balance is what the account held right after it: a chain from 1000 down to 10.
    expect(deducts.map((entry) => entry.balanceAfterCents).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 33 }, (_, i) => 10 + 30 * i),
    );
  });

  it('a deduct the balance cannot cover changes nothing', async () => {
    const { ledger, user } = await ledgerWith(100);
    expect(await ledger.deduct(charge(user, 101))).toBe(false);
    expect(await ledger.deduct(charge('user-nobody-knows', 1))).toBe(false);
    expect(await ledger.balance(user)).toBe(100);
    expect((await ledger.entries(user)).map((entry) => entry.kind)).toEqual(['opening']);
  });

  it('a deduct whose deadline has passed is rolled back', async () => {
    const { ledger, user } = await ledgerWith(100);
    expect(await ledger.deduct(charge(user, 40), AbortSignal.abort())).toBe(false);
    expect(await ledger.balance(user)).toBe(100);
    expect((await ledger.entries(user)).map((entry) => entry.kind)).toEqual(['opening']);
  });

  it('a refund is recorded once, however often and concurrently it arrives', async () => {
    const { ledger, user } = await ledgerWith(500);
    expect(await ledger.deduct(charge(user, 300))).toBe(true);
    const refund = { ...charge(user, 100, 'refund-event-1'), reason: 'Refund after complaint review' };
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => ledger.refund(refund)));
    expect(outcomes.filter((outcome) => outcome === 'refunded')).toHaveLength(1);
    expect(await ledger.refund(refund)).toBe('already-refunded');
    expect(await ledger.balance(user)).toBe(300);
    // A different refund event (another key) is another refund.
    expect(await ledger.refund({ ...refund, eventKey: 'refund-event-2' })).toBe('refunded');
    expect(await ledger.balance(user)).toBe(400);
    expect((await ledger.entries(user)).filter((entry) => entry.kind === 'refund')).toHaveLength(2);
  });

  it('refunds are capped at what was charged for that table and not refunded yet', async () => {
    const { ledger, user } = await ledgerWith(1000);
    const refund = (cents: number, shortCode = 'k3Xp9a') => ({
      ...charge(user, cents),
      shortCode,
      reason: 'Refund',
    });
    // No charge at all: nothing to give back, however it is spelled.
    expect(await ledger.refund(refund(50_000))).toBe('exceeds-charges');
    expect(await ledger.refund(refund(1))).toBe('exceeds-charges');
    expect(await ledger.deduct(charge(user, 300))).toBe(true);
    expect(await ledger.refund(refund(301))).toBe('exceeds-charges');
    expect(await ledger.refund(refund(300, 'another-table'))).toBe('exceeds-charges');
    expect(await ledger.balance(user)).toBe(700);
    expect(await ledger.refund(refund(200))).toBe('refunded');
    expect(await ledger.refund(refund(101))).toBe('exceeds-charges');
    expect(await ledger.refund(refund(100))).toBe('refunded');
    expect(await ledger.refund(refund(1))).toBe('exceeds-charges');
    expect(await ledger.balance(user)).toBe(1000);
    // 20 refunds of the whole charge at once: the account lock lets exactly one through.
    expect(await ledger.deduct(charge(user, 250))).toBe(true);
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => ledger.refund(refund(250))));
    expect(outcomes.filter((outcome) => outcome === 'refunded')).toHaveLength(1);
    expect(await ledger.balance(user)).toBe(1000);
    expect((await ledger.entries(user, 100)).filter((entry) => entry.kind === 'refund')).toHaveLength(3);
  });

  it('the same deduct event delivered again (a resend) is paid once and answered true', async () => {
    const { ledger, user } = await ledgerWith(400);
    const once = charge(user, 300, 'deduct-event-1');
    expect(await ledger.deduct(once)).toBe(true);
    // The balance (100) no longer covers it, and it is still "paid": it was, by this very event.
    expect(await ledger.deduct(once)).toBe(true);
    expect(await ledger.balance(user)).toBe(100);
    const twice = charge(user, 50, 'deduct-event-2');
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => ledger.deduct(twice)));
    expect(outcomes.every(Boolean)).toBe(true);
    expect(await ledger.balance(user)).toBe(50);
    expect((await ledger.entries(user)).filter((entry) => entry.kind === 'deduct')).toHaveLength(2);
    // Another event with the same price is another charge.
    expect(await ledger.deduct(charge(user, 50, 'deduct-event-3'))).toBe(true);
    expect(await ledger.balance(user)).toBe(0);
  });

  it('an event key is the body: the same body gives the same key, any difference another', () => {
    const raw = {
      event: 'billing_deduct',
      timestamp: '2026-11-22T10:00:00+08:00',
      short_code: 'k3Xp9a',
      target: { client_user_id: 'user-alice' },
      billing: { amount: '1.50', reason: 'Unlock' },
    };
    expect(eventKeyOf({ raw })).toBe(eventKeyOf({ raw: structuredClone(raw) }));
    expect(eventKeyOf({ raw })).not.toBe(eventKeyOf({ raw: { ...raw, timestamp: '2026-11-22T10:00:01+08:00' } }));
    expect(eventKeyOf({ raw })).not.toBe(eventKeyOf({ raw: { ...raw, event: 'billing_refund' } }));
  });

  it('a refund for a user without an account is refused and writes nothing', async () => {
    const { ledger } = await ledgerWith(0);
    await expect(ledger.refund(charge('user-nobody-knows', 5))).rejects.toThrow(/No ledger account/);
    expect(await ledger.entries('user-nobody-knows')).toEqual([]);
  });
});
