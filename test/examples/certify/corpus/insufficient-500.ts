import type { WrongBackend } from './harness.js';

/** An insufficient balance thrown as an error: the framework answers 500. */
export const backend: WrongBackend = {
  mistake: 'an insufficient balance answered 500 (thrown)',
  fails: ['receiver.deduct-insufficient-ok-false'],
  parts: {
    insufficient: () => {
      throw new Error('insufficient balance');
    },
  },
};
