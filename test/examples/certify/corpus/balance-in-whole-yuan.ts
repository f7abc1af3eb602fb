import type { WrongBackend } from './harness.js';

/** `Math.round(balanceYuan) >= Math.round(amountYuan)`: 1.00 passes against 0.51, leaving -0.49. */
export const backend: WrongBackend = {
  mistake: 'the balance compared with the amount in whole yuan (-0.49 allowed)',
  // A user the ledger never saw has 0, and 0.01 rounds to 0 yuan too: charged into -0.01.
  fails: ['receiver.deduct-insufficient-by-fractions', 'receiver.deduct-unknown-user-refused'],
  parts: {
    deduct: (ledger, { user, cents }, key) =>
      ledger.deductIfCovered(user, cents, key, (balance) => Math.round(balance / 100) >= Math.round(cents / 100)),
  },
};
