/**
 * Sessions an attacker can make from their own: the user id written inside a session value (as text,
 * percent-encoded, or in base64 JSON) changed to another user's, and a signed session re-signed with a
 * well-known default secret. A backend that reads the user from an unsigned value, or signs with a secret
 * from a README, gives such a session a token.
 */
import { createHmac } from 'node:crypto';

export interface Forgery {
  value: string;
  what: string;
  /**
   * What a token for it shows of the backend, the reason certify gives: only what this forgery proves (a
   * session re-signed with a well-known secret proves the secret, not that sessions go unchecked).
   */
  shows: string;
}

/** A changed session that still got a token: whatever checks the session let the change through. */
export const NOT_VERIFIED = 'the session is not verified: check its signature (or look it up) before reading its user';

/** A session signed with a secret from a README got a token: the check ran, with a secret anyone has. */
export const KNOWN_SECRET =
  'your sessions are verified with a secret anyone can look up: sign them with a secret of your own, from your environment';

/**
 * Secrets that tutorials, READMEs and framework defaults print, and that code keeps when nobody sets one:
 * jwt.io's example, express-session's and cookie-session's docs, jsonwebtoken's README, generators' defaults.
 */
export const WELL_KNOWN_SECRETS = [
  'secret',
  'your-256-bit-secret',
  'your-secret-key',
  'keyboard cat',
  'shhhhh',
  'changeme',
  'change-me',
  'supersecret',
  'super-secret',
  'secretkey',
  'secret_key',
  'secret-key',
  'mysecret',
  'my-secret',
  'jwt_secret',
  'jwt-secret',
  'your_jwt_secret',
  'session-secret',
  'development',
  'dev-secret',
  'default',
  'test',
  'password',
  '123456',
];

/** One encoding a session part may be written in, with its inverse. */
interface Encoding {
  name: string;
  decode(text: string): string | undefined;
  encode(text: string): string;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Text that decoding produced, when it is text at all (no replacement characters or controls). */
const asText = (text: string) => (/[\ufffd\u0000-\u0008\u000e-\u001f]/.test(text) ? undefined : text);

const ENCODINGS: Encoding[] = [
  { name: 'as text', decode: (text) => text, encode: (text) => text },
  {
    name: 'percent-encoded',
    decode: (text) => {
      try {
        return decodeURIComponent(text);
      } catch {
        return undefined;
      }
    },
    encode: encodeURIComponent,
  },
  {
    name: 'in base64url',
    decode: (text) => (BASE64URL.test(text) ? asText(Buffer.from(text, 'base64url').toString('utf8')) : undefined),
    encode: (text) => Buffer.from(text).toString('base64url'),
  },
  {
    name: 'in base64',
    decode: (text) => (BASE64.test(text) ? asText(Buffer.from(text, 'base64').toString('utf8')) : undefined),
    encode: (text) => Buffer.from(text).toString('base64'),
  },
];

/** The parts of a session header's value that carry credentials: each cookie's value, or a scheme's token. */
function credentials(value: string): { start: number; text: string }[] {
  const out: { start: number; text: string }[] = [];
  const cookie = /(?:^|;)\s*[^=;\s]+=([^;]*)/g;
  for (const match of value.matchAll(cookie)) {
    const text = match[1]!.trim();
    if (text !== '') out.push({ start: match.index + match[0].indexOf(match[1]!) + match[1]!.indexOf(text), text });
  }
  if (out.length === 0) {
    const token = /\S+$/.exec(value);
    if (token) out.push({ start: token.index, text: token[0] });
  }
  return out;
}

/** `text` with `user` replaced by `other` under one encoding, its forms named; one per encoding that holds it. */
function substitutions(text: string, user: string, other: string): { text: string; how: string }[] {
  const out: { text: string; how: string }[] = [];
  for (const encoding of ENCODINGS) {
    const decoded = encoding.decode(text);
    if (decoded === undefined || !decoded.includes(user)) continue;
    out.push({ text: encoding.encode(decoded.replaceAll(user, other)), how: encoding.name });
  }
  return out;
}

/** cookie-signature's `s:value.signature` (Express's signed cookies, express-session): HMAC-SHA256, base64 without padding. */
const SIGNED_COOKIE = /^(s:)?(.*)\.([A-Za-z0-9+/]{43})$/;

function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

const HMAC: Record<string, string> = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' };

/** The well-known secret a JWT or a `s:value.signature` cookie (cookie-signature) is signed with, if any. */
export function wellKnownSecret(credential: string): { secret: string; sign(payload: string): string } | undefined {
  const jwt = credential.split('.');
  if (jwt.length === 3) {
    const [head = '', body = '', signature = ''] = jwt;
    let alg: unknown;
    try {
      alg = (JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as { alg?: unknown }).alg;
    } catch {
      alg = undefined;
    }
    const hash = typeof alg === 'string' ? HMAC[alg] : undefined;
    if (hash !== undefined) {
      const mac = (secret: string, signed: string) => createHmac(hash, secret).update(signed).digest('base64url');
      const secret = WELL_KNOWN_SECRETS.find((candidate) => mac(candidate, `${head}.${body}`) === signature);
      if (secret !== undefined)
        return { secret, sign: (payload) => `${head}.${payload}.${mac(secret, `${head}.${payload}`)}` };
    }
  }
  const signed = SIGNED_COOKIE.exec(percentDecoded(credential));
  if (signed) {
    const mac = (secret: string, value: string) =>
      createHmac('sha256', secret).update(value).digest('base64').replace(/=+$/, '');
    const [, prefix = '', value = '', signature] = signed;
    const secret = WELL_KNOWN_SECRETS.find((candidate) => mac(candidate, value) === signature);
    if (secret !== undefined)
      return { secret, sign: (payload) => encodeURIComponent(`${prefix}${payload}.${mac(secret, payload)}`) };
  }
  return undefined;
}

/**
 * Sessions of `other` made from the session of `user` without any secret the backend should hold: the user
 * id inside a credential replaced (its signature, if any, left as is), and a credential signed with a
 * well-known secret re-signed over the replaced value. `value` is the session header's value.
 */
export function impersonations(value: string, user: string, other: string): Forgery[] {
  const out: Forgery[] = [];
  for (const { start, text } of credentials(value)) {
    const within = (changed: string) => value.slice(0, start) + changed + value.slice(start + text.length);
    const known = wellKnownSecret(text);
    // A JWT: the id sits in its payload segment; a cookie-signature value: before its signature.
    const jwt = text.split('.');
    const [head = '', , signature = ''] = jwt;
    const signedCookie = SIGNED_COOKIE.exec(percentDecoded(text));
    const payload = jwt.length === 3 ? jwt[1]! : signedCookie ? signedCookie[2]! : text;
    for (const swap of substitutions(payload, user, other)) {
      const unsigned =
        jwt.length === 3
          ? `${head}.${swap.text}.${signature}`
          : signedCookie
            ? encodeURIComponent(`${signedCookie[1] ?? ''}${swap.text}.${signedCookie[3] ?? ''}`)
            : swap.text;
      out.push({
        value: within(unsigned),
        what: `the session with the user id inside it (${swap.how}) changed to ${other}`,
        shows: NOT_VERIFIED,
      });
      if (known)
        out.push({
          value: within(known.sign(swap.text)),
          what: `a session for ${other} signed with the well-known secret ${JSON.stringify(known.secret)}, which signs yours`,
          shows: KNOWN_SECRET,
        });
    }
    // Signed with a well-known secret but no id to find (an opaque session id): the secret alone is the finding.
    if (known && substitutions(payload, user, other).length === 0)
      out.push({
        value: within(known.sign(Buffer.from(JSON.stringify({ sub: other, user: other })).toString('base64url'))),
        what: `a session for ${other} signed with the well-known secret ${JSON.stringify(known.secret)}, which signs yours`,
        shows: KNOWN_SECRET,
      });
  }
  return out;
}
