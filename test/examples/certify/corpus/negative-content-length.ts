import type { WrongBackend } from './harness.js';

/** examples/python/receiver.py as it was: Content-Length read with int(), so -1 reads to the end. */
export const backend: WrongBackend = {
  mistake: 'a negative Content-Length believed (Python: read(-1) reads until the sender stops)',
  fails: ['receiver.bad-content-length-refused'],
  command: ['/usr/bin/python3', 'test/examples/certify/corpus/negative-content-length.py'],
};
