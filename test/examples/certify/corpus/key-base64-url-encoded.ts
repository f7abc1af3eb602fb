import type { WrongBackend } from './harness.js';

/** Base64 (with + / =) then URL-encoded into a link: the key is under two encodings. */
export const backend: WrongBackend = {
  mistake: 'the API key base64-encoded, then URL-encoded into a link',
  fails: ['api-key-never-answered'],
  parts: {
    tokenAnswer: (data, config) => ({
      ...data,
      refresh: `/api/hub-token?s=${encodeURIComponent(Buffer.from(`~~${config.apiKey}??>`).toString('base64'))}`,
    }),
  },
};
