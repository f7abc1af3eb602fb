import { createHmac } from 'node:crypto';
import type { WrongBackend } from './harness.js';

const SECRET = 'corpus-session-secret';
const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** The session is a signed JWT; it is read by decoding its payload, the signature never checked. */
export const backend: WrongBackend = {
  mistake: 'a session JWT decoded, never verified (alg:none gets Alice\u2019s token)',
  fails: ['token.tampered-session-refused'],
  reasons: { 'token.tampered-session-refused': { says: 'the session is not verified' } },
  parts: {
    newSession(user) {
      const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: user, iat: Math.floor(Date.now() / 1000) })}`;
      return `${unsigned}.${createHmac('sha256', SECRET).update(unsigned).digest('base64url')}`;
    },
    sessionOf(value) {
      try {
        const { sub } = JSON.parse(Buffer.from(value.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
          sub?: unknown;
        };
        return typeof sub === 'string' ? sub : undefined;
      } catch {
        return undefined;
      }
    },
  },
};
