import type { Config, WrongBackend } from './harness.js';

/**
 * A "state" blob for the page, base64 of JSON that holds the key: the key's base64 depends on where in
 * the blob it starts (its offset modulo 3), so there is one backend per alignment.
 */
const state = (prefix: string, apiKey: string) => JSON.stringify({ [prefix]: 1, via: apiKey });

export const backends: WrongBackend[] = ['a', 'ab', 'abc'].map((prefix) => ({
  mistake: `the token answer carries the API key inside a base64 blob (at byte ${state(prefix, '').length - 2}, ${(state(prefix, '').length - 2) % 3} mod 3)`,
  fails: ['api-key-never-answered'],
  parts: {
    tokenAnswer: (data: { access_token: string; expires_in: number }, config: Config) => ({
      ...data,
      state: Buffer.from(state(prefix, config.apiKey)).toString('base64'),
    }),
  },
}));
