import type { WrongBackend } from './harness.js';

/** The deadline's clock started once the body is read: the time a slow body took is never counted. */
export const backend: WrongBackend = {
  mistake: 'the deduct deadline counted from the body\u2019s end, not the request\u2019s arrival',
  // At the end of the service's time the body's end is "now": the late deduct is charged as well.
  fails: ['receiver.deadline-counts-from-arrival', 'receiver.late-answer-not-charged'],
  parts: { deadlineFrom: 'body-end' },
};
