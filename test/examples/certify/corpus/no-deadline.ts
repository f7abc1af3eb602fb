import type { WrongBackend } from './harness.js';

/** Charged whenever the body arrives, even after the service stopped waiting and counted it unpaid. */
export const backend: WrongBackend = {
  mistake: 'no deadline: a deduct answered after the service\u2019s timeout is still charged',
  fails: ['receiver.late-answer-not-charged'],
  parts: { deadline: false },
};
