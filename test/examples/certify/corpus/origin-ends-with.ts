import type { WrongBackend } from './harness.js';

/** `origin.endsWith(host)`, meant to allow the app's subdomains: evil-app.example ends with app.example too. */
export const backend: WrongBackend = {
  mistake: 'the Origin matched by the suffix of its host',
  fails: ['token.origin-classes-refused'],
  parts: { originAllowed: (origin, own) => origin.endsWith(new URL(own).host) },
};
