import type { WrongBackend } from './harness.js';

/**
 * The allow-list written inside the deduct branch, where the money is: a stranger's refund is given back
 * and a stranger's notification makes a link with the user's token.
 */
export const backend: WrongBackend = {
  mistake: 'the allow-list checked for billing_deduct only (anyone can refund, and push notifications)',
  fails: ['receiver.address-not-allowed', 'receiver.address-prefix-not-allowed'],
  parts: { addressChecked: (event) => event === 'billing_deduct' },
};
