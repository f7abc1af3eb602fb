import { createHash } from 'node:crypto';
import type { WrongBackend } from './harness.js';

/**
 * "The time, the table and the amount make the event": two users paying for the same table in the same
 * second send bodies that differ only in target, and the second is answered as the first's duplicate.
 */
export const backend: WrongBackend = {
  mistake: 'the event key leaves out the user (a second user\u2019s deduct answered ok: true, never charged)',
  fails: ['receiver.distinct-users-both-charged'],
  parts: {
    eventKey: ({ raw }) => {
      const { target: _left, ...rest } = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
      return createHash('sha256').update(JSON.stringify(rest)).digest('hex');
    },
  },
};
