import { createHash, createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { base64url, hmacSha256, sha256, signAccessToken } from '../../packages/hub-embed-mock/src/jwt.js';
import { defaultSeed, parseSeed } from '../../packages/hub-embed-mock/src/seed.js';
import { HubState } from '../../packages/hub-embed-mock/src/state.js';
import {
  DOCUMENTED_EXPIRES_IN,
  DOCUMENTED_TOKEN_ANSWER,
  JWT_SHAPE,
  TOKEN_EXCHANGE_REQUIRED,
} from '../fixtures/service-examples.js';
import { HOSTILE_IDS, KEYS, P, T0, call, expectErrorEnvelope, newHub, stateOf, tokenFor } from './helpers.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** The JSON of a base64url part, as any JWT library reads it. */
function part(token: string, index: number): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[index]!, 'base64url').toString('utf8')) as Record<string, unknown>;
}

describe('SHA-256 and HMAC-SHA256 written out for the simulator agree with node:crypto', () => {
  it('at every padding boundary and on random data and keys (long keys are hashed first)', () => {
    for (const length of [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000]) {
      const data = randomBytes(length);
      expect(hex(sha256(data)), `sha256 ${length}`).toBe(createHash('sha256').update(data).digest('hex'));
    }
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.uint8Array({ maxLength: 150 }), (key, data) => {
        expect(hex(hmacSha256(key, data))).toBe(createHmac('sha256', key).update(data).digest('hex'));
      }),
      { numRuns: 200 },
    );
  });

  it('base64url has no padding and uses - and _ for + and /', () => {
    expect(base64url(Uint8Array.from([0xfb, 0xff, 0xfe]))).toBe('-__-');
    expect(base64url(Uint8Array.from([0x61]))).toBe('YQ');
  });
});

describe("access tokens have the shape of the service's published token answer", () => {
  it('the documented example itself has that shape (the fixture the tests hold clients to)', () => {
    expect(DOCUMENTED_TOKEN_ANSWER.data.access_token).toMatch(JWT_SHAPE);
    expect(DOCUMENTED_TOKEN_ANSWER.data.access_token.startsWith('eyJhbGciOi')).toBe(true);
    expect(part(DOCUMENTED_TOKEN_ANSWER.data.access_token, 0)).toEqual({ alg: 'HS256', typ: 'JWT' });
  });

  it('the simulator answers a JWT (eyJhbGciOi…, three base64url parts) and expires_in 7200, as documented', async () => {
    const hub = newHub();
    const res = await call(hub, 'POST', `${P}/apikeys/token`, {
      key: KEYS.active,
      json: { client_user_id: 'user-alice' },
    });
    expect(Object.keys(res.body.data).sort()).toEqual(Object.keys(DOCUMENTED_TOKEN_ANSWER.data).sort());
    const { access_token: token, expires_in: expiresIn } = res.body.data as {
      access_token: string;
      expires_in: number;
    };
    expect(expiresIn).toBe(DOCUMENTED_EXPIRES_IN);
    expect(token).toMatch(JWT_SHAPE);
    expect(token.startsWith('eyJhbGciOi')).toBe(true);
    expect(part(token, 0)).toEqual({ alg: 'HS256', typ: 'JWT' });
    // Real-world length: a few hundred characters, not a 48-character opaque id.
    expect(token.length).toBeGreaterThanOrEqual(280);
  });

  it('exp agrees with expires_in: exp - iat is expires_in, and exp is when the simulator stops taking it', async () => {
    for (const ttl of [1, 60, 7200]) {
      const hub = newHub({ tokenTtlSeconds: ttl });
      const res = await call(hub, 'POST', `${P}/apikeys/token`, { key: KEYS.active, json: { client_user_id: 'u' } });
      const claims = part(res.body.data.access_token as string, 1);
      expect(claims.exp).toBe((claims.iat as number) + res.body.data.expires_in);
      expect(claims.iat).toBe(Math.floor(T0 / 1000));
      expect(claims.sub).toBe('u');
      const token = res.body.data.access_token as string;
      hub.clock.set((claims.exp as number) * 1000 - 1);
      expect((await call(hub, 'GET', `${P}/projects/published-tags`, { bearer: token })).status).toBe(200);
      hub.clock.set((claims.exp as number) * 1000);
      expectErrorEnvelope(await call(hub, 'GET', `${P}/projects/published-tags`, { bearer: token }), 401);
    }
  });

  it("signed HS256 with the simulator's own secret: the signature verifies, and differs between simulators", () => {
    const claims = { sub: 'u', developer_id: 1, iat: 1, exp: 2, jti: 'j' };
    const one = new HubState(parseSeed(defaultSeed), T0);
    const token = one.issueToken(one.developer(), 'user-alice', T0, 60).access_token;
    const [header, payload, signature] = token.split('.');
    expect(signature).toBe(createHmac('sha256', one.tokenSecret).update(`${header}.${payload}`).digest('base64url'));
    const two = new HubState(parseSeed(defaultSeed), T0);
    expect(signAccessToken(one.tokenSecret, claims)).not.toBe(signAccessToken(two.tokenSecret, claims));
  });

  it('every exchange gives a new token, even for one user in one second; a changed token is refused', async () => {
    const hub = newHub();
    const [a, b] = [await tokenFor(hub, 'user-alice'), await tokenFor(hub, 'user-alice')];
    expect(a).not.toBe(b);
    expect((await call(hub, 'GET', `${P}/projects/published-tags`, { bearer: a })).status).toBe(200);
    const [header, , signature] = a.split('.');
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...part(a, 1), sub: 'user-bob' })).toString('base64url')}.${signature}`;
    expectErrorEnvelope(await call(hub, 'GET', `${P}/projects/published-tags`, { bearer: forged }), 401);
  });

  it('Reset still revokes every token issued before it', async () => {
    const hub = newHub();
    const token = await tokenFor(hub, 'user-alice');
    hub.reset();
    expectErrorEnvelope(await call(hub, 'GET', `${P}/projects/published-tags`, { bearer: token }), 401);
  });

  it('any client_user_id, hostile or 256 characters long, gives a JWT of that shape bound to it', async () => {
    const hub = newHub();
    for (const id of [...HOSTILE_IDS, 'x'.repeat(256), '用'.repeat(256)]) {
      const token = await tokenFor(hub, id);
      expect(token).toMatch(JWT_SHAPE);
      expect(part(token, 1).sub).toBe(id);
      const res = await call(hub, 'GET', `${P}/projects/published-tags`, { bearer: token });
      expect(res.status).toBe(200);
    }
  });
});

describe('what the documentation marks required for the token exchange is required', () => {
  const exchange = (hub: ReturnType<typeof newHub>, omit: string) =>
    hub.handleApi(
      new Request(`${hub.apiUrl}/apikeys/token`, {
        method: 'POST',
        headers: {
          ...(omit === 'X-API-Key' ? {} : { 'X-API-Key': KEYS.active }),
          ...(omit === 'Content-Type' ? {} : { 'Content-Type': 'application/json' }),
        },
        body: JSON.stringify(omit === 'client_user_id' ? {} : { client_user_id: 'user-alice' }),
      }),
    );

  it('without any one of X-API-Key, Content-Type or client_user_id: refused, and nothing changes', async () => {
    const hub = newHub();
    const before = stateOf(hub);
    const required = [...TOKEN_EXCHANGE_REQUIRED.headers, ...TOKEN_EXCHANGE_REQUIRED.body];
    const statuses = await Promise.all(required.map(async (name) => (await exchange(hub, name)).status));
    expect(Object.fromEntries(required.map((name, i) => [name, statuses[i]]))).toEqual({
      'X-API-Key': 401,
      'Content-Type': 415,
      client_user_id: 400,
    });
    expect(stateOf(hub)).toBe(before);
    expect((await exchange(hub, 'nothing')).status).toBe(200);
  });
});
