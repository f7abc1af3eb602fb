import type { WrongBackend } from './harness.js';

/** A debug link to the exchange with its query percent-encoded byte by byte, key included. */
export const backend: WrongBackend = {
  mistake: 'the API key in the answer, percent-encoded',
  fails: ['api-key-never-answered'],
  parts: {
    tokenAnswer: (data, config) => ({
      ...data,
      debug: `${config.baseUrl}/api/v1/hub/apikeys/token?key=${[...Buffer.from(config.apiKey)].map((byte) => `%${byte.toString(16)}`).join('')}`,
    }),
  },
};
