import type { WrongBackend } from './harness.js';

/**
 * Cents written as yuan for the comparison, then compared with `billing.amount` as text: "100.00" is
 * covered by 19.97, and "4.35" is not covered by 17.98.
 */
const yuan = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

export const backend: WrongBackend = {
  mistake: 'the balance compared with billing.amount as strings ("100.00" < "19.97", so it is charged)',
  fails: ['receiver.deduct-insufficient-longer-amount', 'receiver.amounts-exact-cents'],
  parts: {
    deduct: (ledger, { user, cents, event }, key) =>
      ledger.deductIfCovered(user, cents, key, (balance) => yuan(balance) >= String(event.billing.amount)),
  },
};
