/**
 * Access tokens shaped as the service's: its published token answer has a JWT (`eyJhbGciOi…`, three
 * base64url parts), so every client of the simulator carries tokens of that length and those characters
 * (`.`, `-`, `_`) through its Bearer header and form URLs. Signed HS256 with a secret of the simulator's
 * own. The simulator still looks each token up (tokens.ts): the lookup, not the signature, decides
 * expiry and revocation, as a server-side session would.
 *
 * Synchronous and Web-only on purpose: `crypto.subtle` is async and missing outside secure contexts, and
 * the simulator runs in any browser tab. So SHA-256 and HMAC are written out here (FIPS 180-4, RFC 2104),
 * checked against node:crypto in test/mock/jwt.test.ts.
 */
/* eslint-disable id-length -- FIPS 180-4's own names (K, w, a…h, x, n, i), so the code reads against the standard */

const K = Uint32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));

/** SHA-256 of `data`. */
export function sha256(data: Uint8Array): Uint8Array {
  // The message, a 1 bit, zeros, and its length in bits as a 64-bit big-endian number: whole 64-byte blocks.
  const blocks = Math.ceil((data.length + 9) / 64);
  const padded = new Uint8Array(blocks * 64);
  padded.set(data);
  padded[data.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(data.length / 0x20000000));
  view.setUint32(padded.length - 4, (data.length * 8) >>> 0);
  const hash = Uint32Array.from([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const w = new Uint32Array(64);
  for (let block = 0; block < blocks; block++) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(block * 64 + i * 4);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15]!, 7) ^ rotr(w[i - 15]!, 18) ^ (w[i - 15]! >>> 3);
      const s1 = rotr(w[i - 2]!, 17) ^ rotr(w[i - 2]!, 19) ^ (w[i - 2]! >>> 10);
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) >>> 0;
    }
    let a = hash[0]!,
      b = hash[1]!,
      c = hash[2]!,
      d = hash[3]!,
      e = hash[4]!,
      f = hash[5]!,
      g = hash[6]!,
      h = hash[7]!;
    for (let i = 0; i < 64; i++) {
      const t1 = (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    hash[0]! += a;
    hash[1]! += b;
    hash[2]! += c;
    hash[3]! += d;
    hash[4]! += e;
    hash[5]! += f;
    hash[6]! += g;
    hash[7]! += h;
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  hash.forEach((value, i) => outView.setUint32(i * 4, value));
  return out;
}

/** HMAC-SHA256 (RFC 2104) of `data` under `key`. */
export function hmacSha256(key: Uint8Array, data: Uint8Array): Uint8Array {
  const block = new Uint8Array(64);
  block.set(key.length > 64 ? sha256(key) : key);
  const inner = new Uint8Array(64 + data.length);
  const outer = new Uint8Array(64 + 32);
  for (let i = 0; i < 64; i++) {
    inner[i] = block[i]! ^ 0x36;
    outer[i] = block[i]! ^ 0x5c;
  }
  inner.set(data, 64);
  outer.set(sha256(inner), 64);
  return sha256(outer);
}

/** base64url without padding (RFC 7515, section 2). */
export function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const utf8 = (text: string) => new TextEncoder().encode(text);

/** What the simulator puts in a token: who it is for, which developer, and its lifetime in seconds. */
export interface AccessTokenClaims {
  /** The developer's id of the end user (`client_user_id`). */
  sub: string;
  developer_id: number;
  /** Issued at, Unix seconds. */
  iat: number;
  /** Expires at, Unix seconds: `iat + expires_in`. */
  exp: number;
  /** Unique per exchange: two exchanges in one second still give two tokens. */
  jti: string;
}

const HEADER = base64url(utf8(JSON.stringify({ alg: 'HS256', typ: 'JWT' })));

/** A compact JWS (`header.payload.signature`) of `claims`, HS256 under `secret`. */
export function signAccessToken(secret: Uint8Array, claims: AccessTokenClaims): string {
  const payload = base64url(
    utf8(JSON.stringify({ iss: 'hub-embed-mock', aud: 'open-integration-service', ...claims })),
  );
  const signingInput = `${HEADER}.${payload}`;
  return `${signingInput}.${base64url(hmacSha256(secret, utf8(signingInput)))}`;
}
