import type { WrongBackend } from './harness.js';

/** `?token=` appended whether or not link_url has a query already. */
export const backend: WrongBackend = {
  mistake: 'notification links always join the token with ?',
  fails: ['receiver.notification-link-by-rule'],
  parts: { linkJoiner: () => '?' },
};
