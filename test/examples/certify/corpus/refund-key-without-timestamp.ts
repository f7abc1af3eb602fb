import { createHash } from 'node:crypto';
import type { WrongBackend } from './harness.js';

/**
 * Deducts keyed by the whole body, refunds by "user, amount, reason": two complaints refunded alike a
 * second apart are taken for one, and the second refund is never given.
 */
export const backend: WrongBackend = {
  mistake: 'the refund\u2019s event key leaves out the timestamp (a second refund of the same amount never given)',
  fails: ['receiver.distinct-timestamps-both-charged'],
  parts: {
    eventKey: ({ raw }) => {
      const event = JSON.parse(raw.toString('utf8')) as Record<string, any>;
      const basis =
        event.event === 'billing_refund'
          ? JSON.stringify([event.event, event.target?.client_user_id, event.billing?.amount, event.billing?.reason])
          : raw;
      return createHash('sha256').update(basis).digest('hex');
    },
  },
};
