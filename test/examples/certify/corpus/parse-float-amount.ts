import type { WrongBackend } from './harness.js';

/** parseFloat reads "1e3" as 1000 yuan and "1.5" as 150 cents. */
export const backend: WrongBackend = {
  mistake: 'the amount read with parseFloat instead of matched as yuan with two decimals',
  fails: ['receiver.bad-amounts-change-nothing'],
  parts: { amount: /^\s*[-+]?(\d+\.?\d*(e\d+)?)/ },
};
