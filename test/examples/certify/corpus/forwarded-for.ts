import type { WrongBackend } from './harness.js';

/** The first X-Forwarded-For entry, without a trusted proxy in front. */
export const backend: WrongBackend = {
  mistake: 'the receiver takes the peer from X-Forwarded-For without a proxy of its own',
  fails: ['receiver.forwarded-for-not-believed'],
  parts: {
    peer: (req) => {
      const header = req.headers['x-forwarded-for'];
      return typeof header === 'string' ? header.split(',')[0]!.trim() : req.socket.remoteAddress;
    },
  },
};
