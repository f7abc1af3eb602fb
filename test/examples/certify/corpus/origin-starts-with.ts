import type { WrongBackend } from './harness.js';

/** `origin.startsWith(allowed)`: http://app.example.attacker.example passes for http://app.example. */
export const backend: WrongBackend = {
  mistake: 'the Origin matched with startsWith (<origin>.evil.example reads tokens)',
  fails: ['token.origin-prefix-refused'],
  parts: { originAllowed: (origin, own) => origin.startsWith(own) },
};
