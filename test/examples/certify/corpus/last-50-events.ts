import type { WrongBackend } from './harness.js';

/** "Duplicates come within seconds": the processed events kept in a list of the last 50. */
export const backend: WrongBackend = {
  mistake: 'processed events kept in a list of the last 50 (a refund replayed after 55 events credits again)',
  fails: ['receiver.replay-after-window-not-applied'],
  parts: { keysKept: 50 },
};
