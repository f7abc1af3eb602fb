import { describe, expect, it } from 'vitest';
import { originAllowed } from '../../packages/hub-embed-mock/src/cors.js';
import { P, call, newHub, tokenFor } from './helpers.js';

function preflight(hub: ReturnType<typeof newHub>, origin: string, headers = 'authorization') {
  return hub.handleApi(
    new Request(`${hub.baseUrl}${P}/projects/published-list`, {
      method: 'OPTIONS',
      headers: { Origin: origin, 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': headers },
    }),
  );
}

describe('CORS', () => {
  it('answers a preflight from a loopback origin by default', async () => {
    const res = await preflight(newHub(), 'http://localhost:5173');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(res.headers.get('access-control-allow-headers')).toMatch(/authorization/i);
    expect(res.headers.get('access-control-allow-methods')).toContain('GET');
  });

  it('never allows the X-API-Key header cross-origin', async () => {
    const res = await preflight(newHub(), 'http://127.0.0.1:3000', 'x-api-key');
    expect((res.headers.get('access-control-allow-headers') ?? '').toLowerCase()).not.toContain('x-api-key');
  });

  it('refuses a preflight from a non-loopback origin by default (403, no grant)', async () => {
    const res = await preflight(newHub(), 'https://evil.example');
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('sends CORS headers on Bearer responses for allowed origins only', async () => {
    const hub = newHub({ corsOrigins: ['https://app.example'] });
    const token = await tokenFor(hub, 'u');
    const ok = await call(hub, 'GET', `${P}/projects/published-tags`, {
      bearer: token,
      headers: { Origin: 'https://app.example' },
    });
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(ok.headers.get('vary')).toContain('Origin');
    const other = await call(hub, 'GET', `${P}/projects/published-tags`, {
      bearer: token,
      headers: { Origin: 'http://localhost:1' },
    });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('error responses carry CORS headers too, so a browser can read the 401', async () => {
    const res = await call(newHub(), 'GET', `${P}/projects/published-tags`, {
      bearer: 'bad',
      headers: { Origin: 'http://[::1]:8080' },
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://[::1]:8080');
  });

  it('loopback means localhost, *.localhost, 127.0.0.0/8 and [::1] over http(s), nothing else', () => {
    for (const o of [
      'http://localhost',
      'https://a.localhost:1',
      'http://127.0.0.1:5173',
      'http://127.9.9.9',
      'http://[::1]:8080',
    ])
      expect(originAllowed(o, 'loopback')).toBe(true);
    for (const o of [
      'http://localhost.evil.com',
      'http://128.0.0.1',
      'file://',
      'null',
      'javascript:alert(1)',
      'http://127.0.0.1.nip.io',
      'http://localhost/path',
    ]) {
      expect(originAllowed(o, 'loopback')).toBe(false);
    }
  });
});
