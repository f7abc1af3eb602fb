import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WrongBackend } from './harness.js';

/** A verified HS256 session JWT, signed with the README's `process.env.JWT_SECRET || 'keyboard cat'`. */
const SECRET = 'keyboard cat';
const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const sign = (unsigned: string) => createHmac('sha256', SECRET).update(unsigned).digest('base64url');

export const backend: WrongBackend = {
  mistake: 'the session JWT signed with a well-known default secret ("keyboard cat")',
  fails: ['token.tampered-session-refused'],
  // Its sessions are verified, with a secret from a README: a forged one with a character changed gets none.
  reasons: { 'token.tampered-session-refused': { says: 'a secret anyone can look up', never: 'not verified' } },
  parts: {
    newSession(user) {
      const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: user })}`;
      return `${unsigned}.${sign(unsigned)}`;
    },
    sessionOf(value) {
      const [head = '', payload = '', signature = ''] = value.split('.');
      const expected = Buffer.from(sign(`${head}.${payload}`));
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      try {
        const { sub } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sub?: unknown };
        return typeof sub === 'string' ? sub : undefined;
      } catch {
        return undefined;
      }
    },
  },
};
