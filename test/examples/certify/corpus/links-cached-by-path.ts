import type { WrongBackend } from './harness.js';

/** Built links kept by link_url, to save an exchange: the next user notified of the same path gets the first's token. */
export const backend: WrongBackend = {
  mistake: 'notification links cached by their path, across users',
  fails: ['receiver.notification-link-by-rule'],
  parts: { linkCacheKey: (_user, linkUrl) => linkUrl },
};
