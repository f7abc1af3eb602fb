import type { WrongBackend } from './harness.js';

/** The key written in hex as a "key id" header. */
export const backend: WrongBackend = {
  mistake: 'the API key in a header, hex-encoded',
  fails: ['api-key-never-answered'],
  parts: {
    tokenHeaders: (config) => ({ 'cache-control': 'no-store', 'x-key-id': Buffer.from(config.apiKey).toString('hex') }),
  },
};
