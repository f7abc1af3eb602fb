// The Express example's ledger on a real database: PGlite always, and Postgres too when DATABASE_URL
// is set. The rules are the issue's: a deduct never overdraws, however many run at once; a refund is
// recorded once; a deduct past its deadline is rolled back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../examples/express/database.js';
import { createLedger } from '../../examples/express/ledger.js';

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

  const charge = (clientUserId: string, amountCents: number) => ({
    clientUserId,
    amountCents,
    reason: 'Paid action on 钢结构安装',
    shortCode: 'k3Xp9a',
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
    const refund = {
      ...charge(user, 300),
      reason: 'Refund after complaint review',
      timestamp: '2026-11-22T02:00:00.000Z',
    };
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => ledger.refund(refund)));
    expect(outcomes.filter((outcome) => outcome === 'refunded')).toHaveLength(1);
    expect(await ledger.refund(refund)).toBe('already-refunded');
    expect(await ledger.balance(user)).toBe(500);
    // A different refund (another time) is another refund.
    expect(await ledger.refund({ ...refund, timestamp: '2026-11-22T02:00:01.000Z' })).toBe('refunded');
    expect(await ledger.balance(user)).toBe(800);
    expect((await ledger.entries(user)).filter((entry) => entry.kind === 'refund')).toHaveLength(2);
  });

  it('a refund for a user without an account is refused and writes nothing', async () => {
    const { ledger } = await ledgerWith(0);
    await expect(
      ledger.refund({ ...charge('user-nobody-knows', 5), timestamp: '2026-11-22T02:00:00.000Z' }),
    ).rejects.toThrow(/No ledger account/);
    expect(await ledger.entries('user-nobody-knows')).toEqual([]);
  });
});
