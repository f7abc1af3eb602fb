import type { WrongBackend } from './harness.js';

/** Charged whenever the body arrives, even after the service stopped waiting and counted it unpaid. */
export const backend: WrongBackend = {
  mistake: 'no deadline: a deduct answered after the service\u2019s timeout is still charged',
  // No deadline is none counted from arrival either: the slow body is charged too.
  fails: ['receiver.late-answer-not-charged', 'receiver.deadline-counts-from-arrival'],
  parts: { deadline: false },
  // It has no deadline: a reason may say that the deduct was charged late, not how a deadline was counted.
  reasons: {
    'receiver.deadline-counts-from-arrival': { says: 'had passed since the request arrived', never: 'counted from' },
  },
};
