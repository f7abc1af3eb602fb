// Error messages were cut short for the <script> bundle; they must still tell the developer what to do.
import { describe, expect, it } from 'vitest';
import { WebClient } from '../../src/core/web-client.js';
import { tokenFromEndpoint } from '../../src/core/endpoint.js';
import { HubError } from '../../src/core/errors.js';
import { TokenSource, checkAccessToken } from '../../src/core/token-source.js';
import { buildFormUrl } from '../../src/core/token-links.js';
import { parseFormSite } from '../../src/core/urls.js';
import { createSimulator } from '../../packages/hub-embed-mock/src/hub.js';

const ACTION = /\b(set|check|retry|remove|get|fix|use|must)\b/i;

async function caught(fn: () => unknown): Promise<HubError> {
  try {
    await fn();
  } catch (error) {
    expect(error).toBeInstanceOf(HubError);
    return error as HubError;
  }
  throw new Error('expected a HubError');
}

describe('core error messages', () => {
  it('every message is short and says what to do', async () => {
    const hub = createSimulator({ latencyMs: 100 });
    const tokens = new TokenSource(async () => ({ access_token: 'not-issued', expires_in: 3600 }));
    const client = (fetch: typeof globalThis.fetch, timeoutMs?: number) =>
      new WebClient({ baseUrl: hub.baseUrl, tokens, fetch, ...(timeoutMs ? { timeoutMs } : {}) });
    const down = (async () => {
      throw new TypeError('Failed to fetch');
    }) as typeof fetch;
    const errors = [
      await caught(() => new WebClient({ baseUrl: '/relative', tokens })),
      await caught(() => client(hub.fetch).publishedList({ tags: ['a,b'] })),
      await caught(() => client(hub.fetch).publishedList({ limit: 0 })),
      await caught(() => client(hub.fetch).publishedTags()),
      await caught(() =>
        client(async () => Response.json({ code: 500, message: 'boom' }, { status: 500 })).publishedTags(),
      ),
      await caught(() => client(async () => new Response('<html>')).publishedTags()),
      await caught(() => client(async () => Response.json({ code: 200, message: 'ok', data: {} })).publishedTags()),
      await caught(() => client(hub.fetch, 10).publishedTags()),
      await caught(() => client(down).publishedTags()),
      await caught(() => tokenFromEndpoint('')),
      await caught(() => tokenFromEndpoint('/t', { fetch: down })({ reason: 'initial' })),
      await caught(() =>
        tokenFromEndpoint('/t', { fetch: async () => new Response('', { status: 403 }) })({ reason: 'initial' }),
      ),
      await caught(() => new TokenSource(async () => Promise.reject(new Error('offline'))).get()),
      await caught(() => checkAccessToken({}, 'The token provider')),
      await caught(() => parseFormSite('http://forms.example.com')),
      await caught(() => buildFormUrl('https://forms.example.com', '..', 't')),
      await caught(() => buildFormUrl('https://forms.example.com', 'x', '')),
      await caught(() => buildFormUrl('https://forms.example.com', 'x', '\uD800')),
    ];
    expect(errors.map((error) => error.kind)).toEqual([
      'config',
      'config',
      'config',
      'token',
      'api',
      'invalid-response',
      'invalid-response',
      'timeout',
      'network',
      'config',
      'network',
      'token',
      'token',
      'token',
      'config',
      'config',
      'config',
      'config',
    ]);
    for (const { message } of errors) {
      expect(message, message).toMatch(ACTION);
      expect(message.length, message).toBeLessThanOrEqual(110);
    }
  });

  it('messages name the setting to fix', async () => {
    const tokens = new TokenSource(async () => ({ access_token: 't', expires_in: 60 }));
    expect((await caught(() => new WebClient({ baseUrl: 'ftp://x', tokens }))).message).toContain('base-url');
    expect((await caught(() => parseFormSite('javascript:alert(1)'))).message).toMatch(/form-url.*https/);
    expect((await caught(() => tokenFromEndpoint(' '))).message).toContain('token-endpoint');
    expect(
      (await caught(() => new WebClient({ baseUrl: 'https://x.example', tokens }).publishedList({ limit: 1.5 })))
        .message,
    ).toContain('limit');
  });
});
