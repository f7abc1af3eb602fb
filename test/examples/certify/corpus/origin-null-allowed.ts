import type { WrongBackend } from './harness.js';

/** "null" on the allow-list so that the app's file:// WebView pages work: every sandboxed frame of any site sends it. */
export const backend: WrongBackend = {
  mistake: 'tokens given to Origin: null',
  fails: ['token.origin-classes-refused'],
  parts: { originAllowed: (origin, own) => origin === own || origin === 'null' },
};
