import type { WrongBackend } from './harness.js';

/** A cookie of base64url JSON for "faster exchanges next time", with the key inside. */
export const backend: WrongBackend = {
  mistake: 'the API key sent back in a base64url cookie',
  fails: ['api-key-never-answered'],
  parts: {
    tokenHeaders: (config) => ({
      'set-cookie': `hub=${Buffer.from(JSON.stringify({ k: config.apiKey, v: 2 })).toString('base64url')}; Path=/`,
    }),
  },
};
