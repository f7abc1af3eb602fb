import type { WrongBackend } from './harness.js';

/** "The service sends each refund once", so refunds are not deduplicated. */
export const backend: WrongBackend = {
  mistake: 'a refund given back twice (refunds kept without an event key)',
  fails: ['receiver.refund-given-back-once', 'receiver.replay-after-window-not-applied'],
  parts: { refund: (ledger, { user, cents }) => ledger.refund(user, cents, undefined) },
};
