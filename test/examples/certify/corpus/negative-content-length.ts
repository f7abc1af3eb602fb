import type { WrongBackend } from './harness.js';

/** examples/python/receiver.py as it was: Content-Length read with int(), so -1 reads to the end. */
export const backend: WrongBackend = {
  mistake: 'a negative Content-Length believed (Python: read(-1) reads until the sender stops)',
  fails: ['receiver.bad-content-length-refused'],
  // The grader sees the socket: Python's own server answered nothing, with nothing in front of it.
  reasons: { 'receiver.bad-content-length-refused': { never: 'in front of your code waited' } },
  command: ['/usr/bin/python3', 'test/examples/certify/corpus/negative-content-length.py'],
};
