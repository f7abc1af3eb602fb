import type { WrongBackend } from './harness.js';

/** A sign allowed in the amount: a deduct of "-5.00" adds 5 yuan. */
export const backend: WrongBackend = {
  mistake: 'an amount pattern that accepts a sign ("-5.00" adds 500 cents)',
  // The deduct of "-5.00" also counts as 5 yuan charged back, so later refunds exceed what was charged.
  // The "-5.00" deduct it credits is written down as a charge of -500 cents, so the refunds graded after it
  // exceed what the ledger believes was charged and are refused.
  fails: [
    'receiver.bad-amounts-change-nothing',
    'receiver.amounts-exact-cents',
    'receiver.distinct-timestamps-both-charged',
  ],
  parts: { amount: /^[-+]?\d{1,10}\.\d{2}$/ },
};
