import type { WrongBackend } from './harness.js';

/** A CDN's header read as the sender's address: anyone who sends it is on the allow-list. */
export const backend: WrongBackend = {
  mistake: 'the receiver takes the peer from true-client-ip',
  fails: ['receiver.forwarded-for-not-believed'],
  parts: {
    peer: (req) => {
      const header = req.headers['true-client-ip'];
      return typeof header === 'string' ? header.trim() : req.socket.remoteAddress;
    },
  },
};
