import { describe, expect, it } from 'vitest';
import { createServerClient } from '../../src/server/index.js';
import { isWellFormedId } from '../../src/server/ids.js';

describe('end-user ids that have no UTF-8 spelling are refused wherever they enter (issue 30, item 2)', () => {
  it.each([
    ['alice', true],
    ['用户😀', true],
    ['alice\uFFFD', true],
    ['alice\uD800', false],
    ['\uDC00alice', false],
    ['a\uDBFF\uDBFF\uDC00', false],
  ])('isWellFormedId(%j) is %s', (id, wellFormed) => {
    expect(isWellFormedId(id)).toBe(wellFormed);
  });

  it('the server client refuses a lone surrogate before any request (a config HubError), in the body and in the query', async () => {
    let requests = 0;
    const client = createServerClient({
      apiKey: 'k',
      baseUrl: 'https://hub.example',
      fetch: async () => {
        requests++;
        return new Response('{}');
      },
    });
    await expect(client.exchangeToken('alice\uD800')).rejects.toMatchObject({ kind: 'config', message: /well-formed/ });
    await expect(client.balance('alice\uDC00')).rejects.toMatchObject({ kind: 'config' });
    expect(requests).toBe(0);
  });
});
