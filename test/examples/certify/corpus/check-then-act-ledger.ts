import type { WrongBackend } from './harness.js';

/** The balance read, compared, then written: deducts in between all see the same balance. */
export const backend: WrongBackend = {
  mistake: 'a check-then-act ledger (SELECT the balance, compare, UPDATE it)',
  fails: ['receiver.concurrent-deducts-never-overdraw'],
  parts: {
    async deduct(ledger, { user, cents }, key) {
      if (await ledger.hasKey(key)) return 'seen';
      const balance = (await ledger.balance(user)) ?? 0;
      if (balance < cents) return 'insufficient';
      await ledger.setBalance(user, balance - cents);
      await ledger.recordCharge(user, cents, key);
      return 'charged';
    },
  },
};
