import { createHash } from 'node:crypto';
import type { WrongBackend } from './harness.js';

/**
 * "The same user, amount and reason is the same event": the key leaves out the body's timestamp, so a
 * second paid unlock of the same table is taken for a duplicate of the first.
 */
export const backend: WrongBackend = {
  mistake: 'the event key leaves out the body\u2019s timestamp (two real paid unlocks charged once)',
  fails: ['receiver.distinct-timestamps-both-charged'],
  parts: {
    eventKey: ({ raw }) => {
      const { timestamp: _left, ...rest } = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
      return createHash('sha256').update(JSON.stringify(rest)).digest('hex');
    },
  },
};
