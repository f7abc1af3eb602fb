import type { WrongBackend } from './harness.js';

/** WebLogic's plug-in header, read as Java code behind Oracle HTTP Server reads it, with no plug-in in front. */
export const backend: WrongBackend = {
  mistake: 'the peer taken from WL-Proxy-Client-IP',
  fails: ['receiver.forwarded-for-not-believed'],
  parts: {
    peer: (req) => {
      const header = req.headers['wl-proxy-client-ip'];
      return typeof header === 'string' && header !== '' ? header : req.socket.remoteAddress;
    },
  },
};
