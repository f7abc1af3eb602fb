import { describe, expect, it, vi } from 'vitest';
import { sharedTokenSource, tokenFromEndpoint } from '../../src/core/endpoint.js';
import { HubError } from '../../src/core/errors.js';

// The developer's token endpoint is the integrator's own code, so these tests play it with whatever a
// broken or odd backend may answer (HTML error pages, empty bodies, envelopes).
function endpoint(answer: () => Response | Promise<Response>) {
  const requests: Request[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    requests.push(new Request(input, init));
    return answer();
  }) as typeof globalThis.fetch;
  return { requests, fetch };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

async function tokenError(fetch: typeof globalThis.fetch): Promise<HubError> {
  const error = await tokenFromEndpoint('https://app.example.com/hub-token', { fetch })({ reason: 'initial' }).catch(
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HubError);
  return error as HubError;
}

describe('tokenFromEndpoint', () => {
  it('POSTs JSON with credentials same-origin by default and no client_user_id', async () => {
    const dev = endpoint(() => json({ access_token: 'tok', expires_in: 7200 }));
    const token = await tokenFromEndpoint('https://app.example.com/hub-token', { fetch: dev.fetch })({
      reason: 'initial',
    });
    expect(token).toEqual({ access_token: 'tok', expires_in: 7200 });
    const request = dev.requests[0]!;
    expect(request.method).toBe('POST');
    expect(request.credentials).toBe('same-origin');
    expect(request.headers.get('content-type')).toBe('application/json');
    const body = await request.text();
    expect(JSON.parse(body)).toEqual({ reason: 'initial' });
    expect(body).not.toContain('client_user_id');
  });

  it('after a 401 it tells the backend which token was refused, so a cached copy is not served again', async () => {
    const dev = endpoint(() => json({ access_token: 'new', expires_in: 60 }));
    await tokenFromEndpoint('/t', { fetch: dev.fetch })({ reason: 'unauthorized', previous: 'old' });
    expect(JSON.parse(await dev.requests[0]!.text())).toEqual({ reason: 'unauthorized', previous: 'old' });
    await tokenFromEndpoint('/t', { fetch: dev.fetch })({ reason: 'expiring', previous: 'old' });
    expect(JSON.parse(await dev.requests[1]!.text())).toEqual({ reason: 'expiring' });
  });

  it('passes the credentials and extra headers it is given', async () => {
    const dev = endpoint(() => json({ access_token: 'tok', expires_in: 60 }));
    await tokenFromEndpoint('https://api.example.com/token', {
      fetch: dev.fetch,
      credentials: 'include',
      headers: { 'X-CSRF': 'abc' },
    })({ reason: 'expiring' });
    expect(dev.requests[0]!.credentials).toBe('include');
    expect(dev.requests[0]!.headers.get('x-csrf')).toBe('abc');
  });

  it('accepts the service envelope {code: 200, message, data: {access_token, expires_in}}', async () => {
    const dev = endpoint(() => json({ code: 200, message: 'success', data: { access_token: 'env', expires_in: 30 } }));
    expect(await tokenFromEndpoint('/t', { fetch: dev.fetch })({ reason: 'initial' })).toEqual({
      access_token: 'env',
      expires_in: 30,
    });
  });

  it('a bare token with a stray code 200 beside it is still accepted', async () => {
    const dev = endpoint(() => json({ code: 200, access_token: 'bare', expires_in: 30 }));
    expect(await tokenFromEndpoint('/t', { fetch: dev.fetch })({ reason: 'initial' })).toEqual({
      access_token: 'bare',
      expires_in: 30,
    });
  });

  it('a 401 is an unauthorized error (nobody is signed in) naming the endpoint and status', async () => {
    const error = await tokenError(endpoint(() => json({ error: 'no session' }, 401)).fetch);
    expect(error.kind).toBe('unauthorized');
    expect(error.status).toBe(401);
    expect(error.message).toContain('https://app.example.com/hub-token');
    expect(error.message).toContain('401');
  });

  it('an envelope with a code other than 200 is a token error carrying that code and its message', async () => {
    const error = await tokenError(endpoint(() => json({ code: 40101, message: 'session expired', data: null })).fetch);
    expect(error).toMatchObject({ kind: 'token', status: 200, code: 40101 });
    expect(error.message).toContain('https://app.example.com/hub-token');
    expect(error.message).toContain('40101 (session expired)');
  });

  it.each([
    [
      'an HTML page',
      () => new Response('<!doctype html><h1>Login</h1>', { status: 200, headers: { 'Content-Type': 'text/html' } }),
    ],
    ['an empty body', () => new Response('', { status: 200 })],
    ['a missing access_token', () => json({ expires_in: 60 })],
    ['a numeric access_token', () => json({ access_token: 42, expires_in: 60 })],
    ['expires_in as a string', () => json({ access_token: 't', expires_in: '60' })],
    ['expires_in 0', () => json({ access_token: 't', expires_in: 0 })],
    ['an envelope with code 500', () => json({ code: 500, message: 'boom', data: null })],
    ['a JSON array', () => json([1, 2])],
  ])('%s is a token error naming the endpoint and status', async (_, answer) => {
    const error = await tokenError(endpoint(answer).fetch);
    expect(error.kind).toBe('token');
    expect(error.message).toContain('https://app.example.com/hub-token');
    expect(error.status).toBe(200);
  });

  it('a network failure is a network error, an abort is aborted', async () => {
    const down = (async () => {
      throw new TypeError('Failed to fetch');
    }) as typeof fetch;
    expect((await tokenError(down)).kind).toBe('network');
    const controller = new AbortController();
    controller.abort();
    const aborting = (async () => {
      throw new DOMException('aborted', 'AbortError');
    }) as typeof fetch;
    const error = await tokenFromEndpoint('/t', { fetch: aborting })({
      reason: 'initial',
      signal: controller.signal,
    }).catch((e: unknown) => e);
    expect((error as HubError).kind).toBe('aborted');
  });

  it('an endpoint that never answers is a timeout error (default 15 s), and its request is aborted', async () => {
    vi.useFakeTimers();
    try {
      let aborted = false;
      const hanging = ((_url: string, init: RequestInit) =>
        new Promise((_resolve, reject) => {
          init.signal!.addEventListener('abort', () => {
            aborted = true;
            reject(new DOMException('aborted', 'AbortError'));
          });
        })) as unknown as typeof fetch;
      const pending = tokenFromEndpoint('/t', { fetch: hanging })({ reason: 'initial' }).catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(14_999);
      expect(aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await pending).toMatchObject({ kind: 'timeout' });
      expect(aborted).toBe(true);
      const quick = tokenFromEndpoint('/t', { fetch: hanging, timeoutMs: 50 })({ reason: 'initial' }).catch(
        (e: unknown) => e,
      );
      await vi.advanceTimersByTimeAsync(50);
      expect(await quick).toMatchObject({ kind: 'timeout' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses an empty endpoint URL with a config error', () => {
    expect(() => tokenFromEndpoint('  ')).toThrow(HubError);
  });
});

describe('sharedTokenSource', () => {
  it('returns one TokenSource per endpoint', () => {
    const a = sharedTokenSource('https://app.example.com/t');
    expect(sharedTokenSource('https://app.example.com/t')).toBe(a);
    expect(sharedTokenSource('https://app.example.com/other')).not.toBe(a);
  });
});

describe('tokenFromEndpoint for an app on another origin', () => {
  it('a headers function is asked before each request, so a renewed bearer token goes along', async () => {
    const dev = endpoint(() => json({ access_token: 'tok', expires_in: 60 }));
    let session = 'first';
    const provider = tokenFromEndpoint('https://api.example.com/token', {
      fetch: dev.fetch,
      headers: async () => ({ Authorization: `Bearer ${session}` }),
    });
    await provider({ reason: 'initial' });
    session = 'second';
    await provider({ reason: 'expiring' });
    expect(dev.requests.map((request) => request.headers.get('authorization'))).toEqual([
      'Bearer first',
      'Bearer second',
    ]);
    expect(dev.requests[0]!.headers.get('content-type')).toBe('application/json');
    expect(dev.requests[0]!.credentials).toBe('same-origin');
  });

  it('a headers function that fails sends nothing and rejects with its error', async () => {
    const dev = endpoint(() => json({ access_token: 'tok', expires_in: 60 }));
    const failure = new Error('signed out');
    const provider = tokenFromEndpoint('https://api.example.com/token', {
      fetch: dev.fetch,
      headers: () => Promise.reject(failure),
    });
    await expect(provider({ reason: 'initial' })).rejects.toBe(failure);
    expect(dev.requests).toEqual([]);
  });
});
