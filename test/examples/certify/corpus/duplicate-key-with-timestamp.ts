import { createHash } from 'node:crypto';
import type { WrongBackend } from './harness.js';

/**
 * The delivery's timestamp header in the event key: the next configuration's call, a second later, is a
 * new event, for deducts and refunds alike.
 */
export const backend: WrongBackend = {
  mistake: 'a deduct charged twice on a duplicate (the event key includes X-Webhook-Timestamp)',
  // A replay, whenever it comes, carries a later timestamp header too.
  fails: [
    'receiver.deduct-charged-once',
    'receiver.refund-given-back-once',
    'receiver.replay-after-window-not-applied',
  ],
  parts: {
    eventKey: ({ req, raw }) =>
      createHash('sha256').update(String(req.headers['x-webhook-timestamp'])).update(raw).digest('hex'),
  },
};
