import type { WrongBackend } from './harness.js';

/** The amount matched as yuan with two decimals, then `Math.floor(Number(a) * 100)`: 0.29 is 28 cents. */
export const backend: WrongBackend = {
  mistake: 'cents as Math.floor(Number(amount) * 100) (0.29 -> 28)',
  fails: ['receiver.amounts-exact-cents'],
  parts: { cents: (amount) => Math.floor(Number(amount) * 100) },
};
