import type { WrongBackend } from './harness.js';

/** examples/python/receiver.py with cents as int(float(amount) * 100): 0.29 is 28 cents. */
export const backend: WrongBackend = {
  mistake: 'cents as int(float(amount) * 100) in Python (0.29 -> 28)',
  fails: ['receiver.amounts-exact-cents'],
  command: ['/usr/bin/python3', 'test/examples/certify/corpus/int-float-cents.py'],
};
