import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../packages/hub-embed-mock/src/hub.js';
import { createServerClient } from '../../src/server/server-client.js';
import { createTokenHandler, type TokenHandlerOptions } from '../../src/server/token-handler.js';
import { parseOrigin } from '../../src/server/token-origins.js';

const HYBRID = ['capacitor://localhost', 'ionic://localhost', 'https://localhost', 'http://localhost'];

function handlerWith(options: Omit<TokenHandlerOptions, 'client' | 'resolveClientUserId'>) {
  const hub = createSimulator();
  const client = createServerClient({ apiKey: hub.apiKey, baseUrl: hub.baseUrl, fetch: hub.fetch });
  // The app's own session: a bearer token, as a hybrid app signs its requests.
  const resolveClientUserId = (request: Request) =>
    request.headers.get('authorization') === 'Bearer app-session-alice' ? 'user-alice' : null;
  return createTokenHandler({ client, resolveClientUserId, ...options });
}

function post(origin: string | undefined, method = 'POST'): Request {
  const headers: Record<string, string> = { authorization: 'Bearer app-session-alice' };
  if (origin !== undefined) headers.origin = origin;
  return new Request('https://api.example.com/api/hub-token', {
    method,
    headers,
    ...(method === 'POST' ? { body: '{}' } : {}),
  });
}

/** Strings an attacker would try against `allowed`: prefixes, suffixes, other cases, ports, paths. */
function lookalikes(allowed: string): string[] {
  const [scheme, hostname] = allowed.split('://') as [string, string];
  return [
    `${allowed}.evil.example`,
    `${allowed}:8080`,
    `${allowed}x`,
    `${allowed}/`,
    `${allowed}/path`,
    allowed.slice(0, -1),
    allowed.toUpperCase(),
    `${scheme}s://${hostname}`,
    `${scheme}://evil.${hostname}`,
    `${scheme}://${hostname}@evil.example`,
    'null',
    '',
  ];
}

describe('the token route for hybrid apps', () => {
  it.each(HYBRID)('a hybrid shell origin is admitted exactly: %s', async (origin) => {
    const handler = handlerWith({ allowedOrigins: [origin] });
    const response = await handler(post(origin));
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(origin);
    for (const stranger of [...lookalikes(origin), ...HYBRID.filter((other) => other !== origin)])
      expect((await handler(post(stranger))).status, stranger).toBe(403);
  });

  it('an app-configured scheme://host[:port] is admitted exactly, never by prefix', async () => {
    const handler = handlerWith({ allowedOrigins: ['myapp://app.example.com', 'ionic://localhost:8100'] });
    expect((await handler(post('myapp://app.example.com'))).status).toBe(200);
    expect((await handler(post('ionic://localhost:8100'))).status).toBe(200);
    for (const stranger of [...lookalikes('myapp://app.example.com'), 'ionic://localhost', 'ionic://localhost:81'])
      expect((await handler(post(stranger))).status, stranger).toBe(403);
  });

  it('an Origin that is not exactly an allowed one is refused (generated)', async () => {
    const allowed = 'capacitor://localhost';
    const handler = handlerWith({ allowedOrigins: [allowed], allowedHeaders: ['authorization'] });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string(),
          fc.constantFrom(...lookalikes(allowed)),
          fc.tuple(fc.string(), fc.string()).map(([before, after]) => before + allowed + after),
        ),
        async (origin) => {
          // Headers drop the whitespace around a value, as HTTP does.
          fc.pre(origin.trim() !== allowed && /^[\t\x20-\x7e]*$/.test(origin));
          const response = await handler(post(origin));
          expect(response.status).toBe(403);
          expect(response.headers.get('access-control-allow-origin')).toBeNull();
        },
      ),
      { numRuns: 200 },
    );
  });

  it('"null" is never an allowed origin, though Node reports a custom scheme origin as "null"', async () => {
    expect(new URL('capacitor://localhost').origin).toBe('null');
    const handler = handlerWith({ allowedOrigins: ['capacitor://localhost'] });
    expect((await handler(post('null'))).status).toBe(403);
    expect(() => handlerWith({ allowedOrigins: ['null'] })).toThrow(/not an origin/);
  });

  it.each([
    'capacitor://',
    'capacitor://localhost/path',
    'capacitor://user@localhost',
    'capacitor://local host',
    'Capacitor://localhost',
    'capacitor://LOCALHOST',
    'capacitor://localhost:99999',
    'capacitor://localhost:0080',
    'capacitor://-localhost',
    'capacitor:localhost',
    'file://localhost',
    'javascript://localhost',
    'data://localhost',
    'blob://localhost',
    'ws://localhost',
    '1app://localhost',
    'https://localhost/path',
  ])('allowedOrigins entry %j is a config error', (origin) => {
    expect(() => handlerWith({ allowedOrigins: [origin] })).toThrow(/allowedOrigins entry .* is not an origin/);
  });

  it('parseOrigin gives back the origin a WebView sends, and nothing for what is not one', () => {
    expect(parseOrigin('capacitor://localhost/')).toBe('capacitor://localhost');
    expect(parseOrigin('myapp://app.example.com:8443')).toBe('myapp://app.example.com:8443');
    expect(parseOrigin('https://localhost:8443')).toBe('https://localhost:8443');
    // A browser never writes the default port; an entry with it would match nothing.
    expect(parseOrigin('https://localhost:443')).toBeUndefined();
    expect(parseOrigin('http://[::1]:8080')).toBe('http://[::1]:8080');
    expect(parseOrigin('capacitor://localhost?x')).toBeUndefined();
    expect(parseOrigin('capacitor://localhost#x')).toBeUndefined();
  });
});

describe('allowedHeaders', () => {
  const preflight = async (handler: ReturnType<typeof handlerWith>, origin: string) => handler(post(origin, 'OPTIONS'));

  it('the preflight allows content-type by default, as before', async () => {
    const response = await preflight(
      handlerWith({ allowedOrigins: ['capacitor://localhost'] }),
      'capacitor://localhost',
    );
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-headers')).toBe('content-type');
  });

  it('the preflight allows exactly the headers the integrator names, beside content-type', async () => {
    const handler = handlerWith({
      allowedOrigins: ['capacitor://localhost'],
      allowedHeaders: ['Authorization', 'x-app-version', 'authorization'],
    });
    const response = await preflight(handler, 'capacitor://localhost');
    expect(response.headers.get('access-control-allow-headers')).toBe('content-type, authorization, x-app-version');
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
  });

  it('a stranger origin still gets no preflight and no token with allowedHeaders', async () => {
    const handler = handlerWith({ allowedOrigins: ['capacitor://localhost'], allowedHeaders: ['authorization'] });
    const refused = await preflight(handler, 'https://evil.example');
    expect(refused.status).toBe(405);
    expect(refused.headers.get('access-control-allow-headers')).toBeNull();
    expect((await handler(post('https://evil.example'))).status).toBe(403);
  });

  it.each([['*'], ['bad header'], [''], ['x:y'], [7]])('allowedHeaders entry %j is a config error', (name) => {
    expect(() => handlerWith({ allowedOrigins: ['capacitor://localhost'], allowedHeaders: [name as string] })).toThrow(
      /allowedHeaders entry .* is not a header name/,
    );
  });

  it('allowedHeaders needs allowedOrigins', () => {
    expect(() => handlerWith({ allowedHeaders: ['authorization'] })).toThrow(/only apply with allowedOrigins/);
  });
});

describe('allowMissingOrigin', () => {
  it('a request without Origin is refused by default once allowedOrigins is set', async () => {
    const handler = handlerWith({ allowedOrigins: ['capacitor://localhost'] });
    expect((await handler(post(undefined))).status).toBe(403);
  });

  it('a native HTTP client without Origin gets its token when the integrator says so', async () => {
    const handler = handlerWith({ allowedOrigins: ['capacitor://localhost'], allowMissingOrigin: true });
    const response = await handler(post(undefined));
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('a stranger origin still fails with allowMissingOrigin', async () => {
    const handler = handlerWith({ allowedOrigins: ['capacitor://localhost'], allowMissingOrigin: true });
    for (const stranger of ['https://evil.example', 'null', '', 'capacitor://localhost.evil.example'])
      expect((await handler(post(stranger))).status, stranger).toBe(403);
  });

  it('allowMissingOrigin needs allowedOrigins and a boolean', () => {
    expect(() => handlerWith({ allowMissingOrigin: true })).toThrow(/only apply with allowedOrigins/);
    expect(() =>
      handlerWith({ allowedOrigins: ['capacitor://localhost'], allowMissingOrigin: 'yes' as unknown as boolean }),
    ).toThrow(/true or false/);
  });
});
