import type { WrongBackend } from './harness.js';

/** `allowed.some((ip) => peer.startsWith(ip))`: 127.0.0.10 and 127.0.0.100 pass for 127.0.0.1. */
export const backend: WrongBackend = {
  mistake: 'the allow-list matched with startsWith (127.0.0.10 passes for 127.0.0.1)',
  fails: ['receiver.address-prefix-not-allowed'],
  parts: { allows: (allowed, peer) => allowed.some((ip) => peer.startsWith(ip)) },
};
