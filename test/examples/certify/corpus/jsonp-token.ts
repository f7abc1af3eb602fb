import type { WrongBackend } from './harness.js';

/** The token route also answers GET ?callback=fn as script, for an old page that loads it with <script src>. */
export const backend: WrongBackend = {
  mistake: 'the token answered as JSONP to a GET with a callback',
  fails: ['token.jsonp-refused'],
  parts: { jsonp: true },
};
