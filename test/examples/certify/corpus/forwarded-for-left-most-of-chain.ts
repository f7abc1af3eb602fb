import type { WrongBackend } from './harness.js';

/**
 * "Behind the load balancer X-Forwarded-For is `client, balancer`": the left-most entry believed once a
 * proxy seems to have appended itself. A stranger writes `127.0.0.1` and the first proxy appends the rest.
 */
export const backend: WrongBackend = {
  mistake: 'the left-most X-Forwarded-For entry believed whenever the header holds a chain',
  fails: ['receiver.forwarded-for-not-believed'],
  parts: {
    peer: (req) => {
      const chain = String(req.headers['x-forwarded-for'] ?? '').split(',');
      return chain.length > 1 ? chain[0]!.trim() : req.socket.remoteAddress;
    },
  },
};
