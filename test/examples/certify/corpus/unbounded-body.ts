import type { WrongBackend } from './harness.js';

/** A body parser with a 10 MB limit "to be safe". */
export const backend: WrongBackend = {
  mistake: 'the receiver reads bodies of any size (10 MB limit)',
  fails: ['receiver.huge-body-changes-nothing'],
  parts: { maxBody: 10 * 1024 * 1024 },
};
