// docs/server.md's node:http example (examples/node-http) as its users meet it: a notification whose
// link_url is unsafe, sessions that must end, and a points page asked for again and again. The app runs
// on node:http against the real simulator.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../packages/hub-embed-mock/src/node.js';
import { createServerClient } from '../../src/server/server-client.js';
import type { TokenCache } from '../../src/server/token-cache.js';
import { createTokenHandler } from '../../src/server/token-handler.js';

// The example imports the toolkit as a package (built by `npm run build`); here it gets it from the sources.
vi.mock('hub-embed/server', async () => await import('../../src/server/index.js'));
vi.mock('hub-embed/core', async () => await import('../../src/core/index.js'));

type Listener = (req: unknown, res: unknown) => void;
interface ExampleApp {
  app: Listener;
  tokens: TokenCache;
  inbox: { add(userId: string | null, notification: { title: string; content: string; linkUrl: string }): void };
}

let mock: RunningSimulator;
let server: Server;
let origin = '';
let example: ExampleApp;

beforeAll(async () => {
  mock = await startSimulator();
  // The example reads its settings from the environment, as it would in production.
  process.env.HUB_API_KEY = mock.apiKey;
  process.env.HUB_BASE_URL = mock.apiUrl;
  process.env.HUB_FORM_URL = mock.formUrl;
  // A specifier the type checker does not follow: app.ts imports 'hub-embed/server', which only a build gives tsc.
  const APP = '../../examples/node-http/app.js';
  example = (await import(/* @vite-ignore */ APP)) as ExampleApp;
  server = createServer((req, res) => example.app(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  vi.useRealTimers();
  await new Promise((resolve) => server.close(resolve));
  await mock.close();
});

async function signIn(user: 'alice' | 'bob'): Promise<string> {
  const response = await fetch(`${origin}/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `user=${user}`,
  });
  expect(response.status).toBe(200);
  return response.headers.getSetCookie()[0]!.split(';')[0]!;
}

const points = (cookie: string) => fetch(`${origin}/api/points`, { headers: { cookie } });
const exchanges = (userId: string) =>
  mock.hub.requestLog.filter((entry) => entry.path.endsWith('/apikeys/token') && entry.clientUserId === userId);

describe('examples/node-http', () => {
  it('a bad link_url spoils only its own link: the points page still answers 200 with the good ones', async () => {
    const cookie = await signIn('alice');
    example.inbox.add('user-alice', { title: 'Good', content: 'c', linkUrl: '/orders/1' });
    example.inbox.add('user-alice', { title: 'Bad', content: 'c', linkUrl: '//evil.example/steal' });
    example.inbox.add('user-alice', { title: 'Also good', content: 'c', linkUrl: '/orders/2' });
    const response = await points(cookie);
    expect(response.status).toBe(200);
    const { links } = (await response.json()) as { links: (string | null)[] };
    expect(links).toHaveLength(3);
    expect(links[0]).toMatch(/\/orders\/1\?token=/);
    expect(links[1]).toBeNull();
    expect(links[2]).toMatch(/\/orders\/2\?token=/);
  });

  it('keeps one token per user: ten points pages make one exchange, shared with the token route', async () => {
    const cookie = await signIn('bob');
    expect(exchanges('user-bob')).toHaveLength(0);
    for (let page = 0; page < 10; page++) expect((await points(cookie)).status).toBe(200);
    expect(exchanges('user-bob')).toHaveLength(1);
    // server.ts gives the token route the same cache: its answer is that token, with no exchange of its own.
    const route = createTokenHandler({
      client: createServerClient({ apiKey: mock.apiKey, baseUrl: mock.apiUrl }),
      cache: example.tokens,
      resolveClientUserId: () => 'user-bob',
    });
    const answer = (await (await route(new Request(`${origin}/api/hub-token`, { method: 'POST' }))).json()) as {
      access_token: string;
    };
    expect(answer.access_token).toBe((await example.tokens.get('user-bob'))?.accessToken);
    expect(exchanges('user-bob')).toHaveLength(1);
  });

  it('keeps one token per user under concurrency: ten points pages at once make one exchange', async () => {
    const cookie = await signIn('alice');
    // No token held for alice (an earlier test's is dropped), so each of the ten pages needs one.
    await example.tokens.delete('user-alice');
    const before = exchanges('user-alice').length;
    const statuses = await Promise.all(Array.from({ length: 10 }, async () => (await points(cookie)).status));
    expect(statuses).toEqual(Array(10).fill(200));
    expect(exchanges('user-alice').length - before).toBe(1);
  });

  it('expires sessions: a cookie past its lifetime is signed out (401), and says its lifetime', async () => {
    const response = await fetch(`${origin}/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'user=alice',
    });
    const setCookie = response.headers.getSetCookie()[0]!;
    expect(setCookie).toMatch(/Max-Age=28800/);
    const cookie = setCookie.split(';')[0]!;
    expect((await points(cookie)).status).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 8 * 60 * 60 * 1000 + 1 });
    try {
      expect((await points(cookie)).status).toBe(401);
    } finally {
      vi.useRealTimers();
    }
    // Dropped, not only refused: back at the present the same cookie is still signed out.
    expect((await points(cookie)).status).toBe(401);
  });
});
