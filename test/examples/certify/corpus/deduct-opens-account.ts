import type { WrongBackend } from './harness.js';

/**
 * `INSERT … VALUES (user, -amount) ON CONFLICT (user) DO UPDATE SET cents = cents - amount WHERE cents >= amount`:
 * the conflict branch checks the balance, the insert branch charges a user who never paid.
 */
export const backend: WrongBackend = {
  mistake: 'a deduct upserts an account for a user who never paid, and charges it',
  fails: ['receiver.deduct-unknown-user-refused'],
  parts: {
    async deduct(ledger, { user, cents }, key) {
      if ((await ledger.balance(user)) !== undefined) return ledger.deductIfCovered(user, cents, key);
      await ledger.open(user, -cents);
      await ledger.recordCharge(user, cents, key);
      return 'charged';
    },
  },
};
