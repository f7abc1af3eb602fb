// What the docs say about behaviour, checked against the code (issue 16: docs/server.md claimed a
// disabled key makes the token handler answer 502, but a user whose token is cached still gets 200).
import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../packages/hub-embed-mock/src/index.js';
import { createServerClient, createTokenHandler } from '../../src/server/index.js';

describe('docs/server.md, testing against the simulator', () => {
  it('after disableKey a user whose token is cached still gets 200, and the next exchange answers 502', async () => {
    const hub = createSimulator();
    const client = createServerClient({ apiKey: hub.apiKey, baseUrl: hub.baseUrl, fetch: hub.fetch });
    let user = 'user-alice';
    const handler = createTokenHandler({ client, resolveClientUserId: () => user, onError: () => {} });
    const ask = () => handler(new Request('http://app.test/api/hub-token', { method: 'POST' }));

    expect((await ask()).status).toBe(200);
    hub.disableKey(hub.apiKey);
    expect((await ask()).status).toBe(200); // alice's token is cached
    user = 'user-bob';
    expect((await ask()).status).toBe(502); // bob needs an exchange, which the disabled key cannot do
  });
});

describe('README.md and docs/*.md snippets', () => {
  // A copied `request.headers.get('x-user-id')` lets any browser pick its user: the browser never picks
  // the client_user_id (issue 30, item 9).
  it('resolve the user from the session, never from a request header the browser can set', async () => {
    const { readFileSync, readdirSync } = await import('node:fs');
    const root = new URL('../../', import.meta.url);
    const files = [
      'README.md',
      ...readdirSync(new URL('docs/', root))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    const lookups = files.flatMap((file) =>
      [...readFileSync(new URL(file, root), 'utf8').matchAll(/resolveClientUserId:[^\n]*/g)].map(
        (m) => `${file}: ${m[0]}`,
      ),
    );
    expect(lookups.length).toBeGreaterThan(3);
    expect(lookups.filter((line) => /headers\.get\('(?!cookie)/i.test(line))).toEqual([]);
  });

  it("the README's token route turns on the prefetch: its handler answers the token with the first tags and list", async () => {
    const { readFileSync } = await import('node:fs');
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## Your token route'));
    const route = /```ts\n[^`]*createTokenHandler\(\{([^`]*?)\}\);\n```/.exec(section)?.[1];
    expect(route, "README's token route snippet").toBeDefined();
    expect(route).toMatch(/^\s*prefetch: true,$/m);

    // The same options against the simulator: the widget's load comes back beside the token.
    const hub = createSimulator();
    const client = createServerClient({ apiKey: hub.apiKey, baseUrl: hub.baseUrl, fetch: hub.fetch });
    const handler = createTokenHandler({ client, resolveClientUserId: () => 'user-alice', prefetch: true });
    const answer = await handler(
      new Request('http://app.test/api/hub-token', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ load: { tags: [] } }),
      }),
    );
    const body = (await answer.json()) as { access_token?: string; prefetched?: Record<string, unknown[]> };
    expect(body.access_token).toBeTruthy();
    expect(Object.keys(body.prefetched ?? {})).toContain('published-tags');
    expect(Object.keys(body.prefetched ?? {}).length).toBe(2);
  });
});
