import { describe, expect, it } from 'vitest';
import { inspect } from 'node:util';
import { HubError, isHubError } from '../../src/core/errors.js';
import { createSimulator, type Simulator } from '../../packages/hub-embed-mock/src/hub.js';
import { WebClient } from '../../src/core/web-client.js';
import { TokenSource } from '../../src/core/token-source.js';
import { createServerClient, type ServerClient } from '../../src/server/server-client.js';
import { HubApiError, HubAuthError, HubPoolInsufficientError } from '../../src/server/errors.js';
import { rejectionOf } from '../rejection.js';
import {
  DEPLOYMENT_BASE_URL,
  DOCUMENTED_EXPIRES_IN,
  DOCUMENTED_TOKEN_ANSWER,
  DOCUMENTED_URLS,
  JWT_SHAPE,
  TOKEN_EXCHANGE_REQUIRED,
} from '../fixtures/service-examples.js';

function setup(options: Parameters<typeof createSimulator>[0] = {}): { hub: Simulator; client: ServerClient } {
  const hub = createSimulator(options);
  return { hub, client: createServerClient({ apiKey: hub.apiKey, baseUrl: hub.baseUrl, fetch: hub.fetch }) };
}

function apiRequests(hub: Simulator) {
  return hub.requestLog.filter((entry) => entry.site === 'api');
}

describe('createServerClient against the simulator', () => {
  it('exchangeToken returns a token bound to the user and its lifetime', async () => {
    const { hub, client } = setup({ tokenTtlSeconds: 600 });
    const token = await client.exchangeToken('user-alice');
    expect(token.expiresIn).toBe(600);
    expect(typeof token.accessToken).toBe('string');
    const tags = await hub.fetch(`${hub.apiUrl}/projects/published-tags`, {
      headers: { authorization: `Bearer ${token.accessToken}` },
    });
    expect(tags.status).toBe(200);
    expect(apiRequests(hub).at(-1)).toMatchObject({ clientUserId: 'user-alice', auth: 'bearer' });
  });

  it('balance returns typed fields in cents', async () => {
    const { client } = setup();
    expect(await client.balance('user-alice')).toEqual({
      clientUserId: 'user-alice',
      userId: expect.any(Number),
      balanceCents: 5000,
    });
  });

  it('recharge credits the user, echoes the order number and reports both balances', async () => {
    const { client } = setup();
    const result = await client.recharge({
      clientUserId: 'user-bob',
      amountCents: 250,
      externalOrderId: 'order-1',
      reason: 'Paid <b>order</b> 🙂',
    });
    expect(result).toMatchObject({
      clientUserId: 'user-bob',
      amountCents: 250,
      externalOrderId: 'order-1',
      userBalanceCents: 250,
      developerBalanceCents: 1_000_000 - 250,
    });
    expect((await client.balance('user-bob')).balanceCents).toBe(250);
  });

  it('logs returns typed records and paging, newest first', async () => {
    const { client } = setup();
    for (let i = 1; i <= 3; i++) await client.recharge({ clientUserId: 'user-bob', amountCents: i * 100 });
    const page = await client.logs('user-bob', { page: 1, pageSize: 2 });
    expect(page).toMatchObject({ clientUserId: 'user-bob', total: 3, page: 1, pageSize: 2 });
    expect(page.list.map((r) => r.changeCents)).toEqual([300, 200]);
    expect(page.list[0]).toMatchObject({
      source: 'transfer',
      recordType: 'recharge',
      amountCents: 300,
      balanceAfter: 600,
      status: 'success',
      shortCode: null,
      projectId: null,
    });
    const second = await client.logs('user-bob', { page: 2, pageSize: 2 });
    expect(second.list.map((r) => r.changeCents)).toEqual([100]);
  });

  it('logs defaults to page 1 and page size 20', async () => {
    const { client } = setup();
    expect(await client.logs('user-alice')).toMatchObject({ page: 1, pageSize: 20 });
  });

  it('a disabled key gives HubAuthError (401) with status, code and message', async () => {
    const { hub, client } = setup();
    hub.disableKey(hub.apiKey);
    const error = await rejectionOf(client.exchangeToken('user-alice'));
    expect(error).toBeInstanceOf(HubAuthError);
    expect(error).toBeInstanceOf(HubApiError);
    expect(error).toBeInstanceOf(HubError);
    expect(error).toMatchObject({ name: 'HubAuthError', kind: 'unauthorized', status: 401, code: 401 });
    expect((error as Error).message).toMatch(/HTTP 401, code 401.*check apiKey/);
  });

  it('an expired key gives HubAuthError', async () => {
    const { hub, client } = setup();
    hub.expireKey(hub.apiKey);
    expect(await rejectionOf(client.balance('user-alice'))).toBeInstanceOf(HubAuthError);
  });

  it('an insufficient pool gives HubPoolInsufficientError (402) and credits nothing', async () => {
    const { client } = setup();
    const error = await rejectionOf(client.recharge({ clientUserId: 'user-bob', amountCents: 1_000_001 }));
    expect(error).toBeInstanceOf(HubPoolInsufficientError);
    expect(error).toMatchObject({ name: 'HubPoolInsufficientError', status: 402, code: 402 });
    expect((await client.balance('user-bob')).balanceCents).toBe(0);
  });

  it('other failures give HubApiError with the status (unknown user: 404)', async () => {
    const { client } = setup();
    const error = await rejectionOf(client.balance('nobody-here'));
    expect(error).toBeInstanceOf(HubApiError);
    expect(error).not.toBeInstanceOf(HubAuthError);
    expect(error).toMatchObject({ name: 'HubApiError', kind: 'api', status: 404 });
  });

  it('a slow service fails with HubError kind timeout', async () => {
    const hub = createSimulator({ latencyMs: 2000 });
    const client = createServerClient({ apiKey: hub.apiKey, baseUrl: hub.baseUrl, fetch: hub.fetch, timeoutMs: 20 });
    const error = await rejectionOf(client.balance('user-alice'));
    expect(isHubError(error, 'timeout')).toBe(true);
  });

  it('an unreachable service fails with HubError kind network', async () => {
    const client = createServerClient({ apiKey: 'sk-x', baseUrl: 'http://127.0.0.1:1' });
    expect(isHubError(await rejectionOf(client.balance('user-alice')), 'network')).toBe(true);
  });

  it('accepts a baseUrl with a trailing slash or already ending in /api/v1/hub', async () => {
    const hub = createSimulator();
    for (const baseUrl of [`${hub.baseUrl}/`, `${hub.baseUrl}/api/v1/hub`, `${hub.baseUrl}/api/v1/hub/`]) {
      const client = createServerClient({ apiKey: hub.apiKey, baseUrl, fetch: hub.fetch });
      expect((await client.balance('user-alice')).balanceCents).toBe(5000);
    }
  });
});

describe('base URL: one rule for the widget and the server (core/urls apiBaseUrl)', () => {
  it('the server client and the widget client accept and refuse the same values and ask the same URL', async () => {
    const hub = createSimulator();
    const reference = createServerClient({ apiKey: hub.apiKey, baseUrl: hub.baseUrl, fetch: hub.fetch });
    const token = (await reference.exchangeToken('user-alice')).accessToken;
    const tokens = new TokenSource(async () => ({ access_token: token, expires_in: 600 }));
    const values = [
      hub.baseUrl,
      `${hub.baseUrl}/`,
      `${hub.baseUrl}/api/v1/hub`,
      `${hub.baseUrl}/api/v1/hub/`,
      `${hub.baseUrl}/api/v1`,
      `${hub.baseUrl}/api/v1/hub/projects`,
      `${hub.baseUrl}/api%2Fv1%2Fhub`,
      `${hub.baseUrl}/?region=cn`,
      `${hub.baseUrl}/#top`,
      hub.baseUrl.replace('//', '//user:pw@'),
      'ftp://hub.example.com',
      'hub.example.com',
    ];
    for (const baseUrl of values) {
      const asked: string[] = [];
      const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
        const request = new Request(input, init);
        asked.push(request.url);
        return hub.fetch(request);
      }) as typeof globalThis.fetch;
      /** The URL a first request went to, or 'config' when the client refused the value. */
      const outcome = async (ask: () => Promise<unknown>) => {
        try {
          await ask();
          return asked.pop();
        } catch (error) {
          return isHubError(error, 'config') ? 'config' : error;
        }
      };
      const server = await outcome(() =>
        createServerClient({ apiKey: hub.apiKey, baseUrl, fetch }).publishedTags(token),
      );
      const widget = await outcome(() => new WebClient({ baseUrl, tokens, fetch }).publishedTags());
      expect({ baseUrl, server }).toEqual({ baseUrl, server: widget });
    }
  });
});

describe('createServerClient input checks (before any request)', () => {
  const cases: [string, (client: ServerClient) => Promise<unknown>][] = [
    ['empty clientUserId', (c) => c.exchangeToken('')],
    ['blank clientUserId', (c) => c.balance('   ')],
    ['non-string clientUserId', (c) => c.balance(42 as unknown as string)],
    ['amountCents 0', (c) => c.recharge({ clientUserId: 'u', amountCents: 0 })],
    ['negative amountCents', (c) => c.recharge({ clientUserId: 'u', amountCents: -5 })],
    ['fractional amountCents', (c) => c.recharge({ clientUserId: 'u', amountCents: 1.5 })],
    ['unsafe amountCents', (c) => c.recharge({ clientUserId: 'u', amountCents: 2 ** 53 })],
    ['string amountCents', (c) => c.recharge({ clientUserId: 'u', amountCents: '100' as unknown as number })],
    ['NaN amountCents', (c) => c.recharge({ clientUserId: 'u', amountCents: Number.NaN })],
    [
      'non-string externalOrderId',
      (c) => c.recharge({ clientUserId: 'u', amountCents: 1, externalOrderId: 7 as unknown as string }),
    ],
    ['pageSize 0', (c) => c.logs('u', { pageSize: 0 })],
    ['pageSize 101', (c) => c.logs('u', { pageSize: 101 })],
    ['page 0', (c) => c.logs('u', { page: 0 })],
    ['fractional page', (c) => c.logs('u', { page: 1.5 })],
  ];

  it.each(cases)('%s is a config error and sends nothing', async (_label, call) => {
    const { hub, client } = setup();
    const error = await rejectionOf(call(client));
    expect(isHubError(error, 'config')).toBe(true);
    expect(hub.requestLog).toEqual([]);
  });

  it.each([[1], [100]])('pageSize %d is accepted', async (pageSize) => {
    const { client } = setup();
    expect((await client.logs('user-alice', { pageSize })).pageSize).toBe(pageSize);
  });

  it.each([
    [{ apiKey: '', baseUrl: 'https://hub.example.com' }, /apiKey/],
    [{ apiKey: 'sk-a\nb', baseUrl: 'https://hub.example.com' }, /apiKey/],
    [{ apiKey: 'sk-a', baseUrl: 'hub.example.com' }, /baseUrl/],
    [{ apiKey: 'sk-a', baseUrl: 'javascript:alert(1)' }, /baseUrl/],
    [{ apiKey: 'sk-a', baseUrl: 'https://user:pw@hub.example.com' }, /baseUrl/],
  ])('bad settings %j are a config error of the first call, which sends nothing', async (options, named) => {
    const hub = createSimulator();
    const client = createServerClient({ ...options, fetch: hub.fetch });
    const error = await rejectionOf(client.balance('user-alice'));
    expect(isHubError(error, 'config')).toBe(true);
    expect((error as Error).message).toMatch(named);
    expect(hub.requestLog).toEqual([]);
  });

  it('a bad timeoutMs, a literal of your code, is a config error when the client is made', () => {
    let thrown: unknown;
    try {
      createServerClient({ apiKey: 'sk-a', baseUrl: 'https://hub.example.com', timeoutMs: 0 });
    } catch (error) {
      thrown = error;
    }
    expect(isHubError(thrown, 'config')).toBe(true);
  });
});

describe('the API key stays secret', () => {
  const secret = 'sk-mock-active-0123456789abcdef';

  it('never appears in toString(), JSON.stringify(client) or util.inspect(client)', () => {
    const client = createServerClient({ apiKey: secret, baseUrl: 'https://hub.example.com' });
    expect(String(client)).not.toContain(secret);
    expect(`${client}`).toContain('hub.example.com');
    expect(JSON.stringify(client)).not.toContain(secret);
    expect(inspect(client, { showHidden: true, depth: 10 })).not.toContain(secret);
    expect(Object.values(client).map(String).join(' ')).not.toContain(secret);
  });

  it('never appears in errors, even when the bad key itself is rejected by the simulator', async () => {
    const hub = createSimulator();
    const client = createServerClient({ apiKey: 'sk-wrong-key-value-123', baseUrl: hub.baseUrl, fetch: hub.fetch });
    const error = await rejectionOf(client.exchangeToken('user-alice'));
    expect(error).toBeInstanceOf(HubAuthError);
    for (const text of [
      String(error),
      (error as Error).stack ?? '',
      inspect(error, { showHidden: true, depth: 10 }),
      JSON.stringify(error),
    ]) {
      expect(text).not.toContain('sk-wrong-key-value-123');
    }
  });

  it('never appears in a network error, even when the fetch error carries it', async () => {
    const leaky = (async () => {
      throw new TypeError(`fetch failed with headers X-API-Key: ${secret}`);
    }) as typeof fetch;
    const client = createServerClient({ apiKey: secret, baseUrl: 'https://hub.example.com', fetch: leaky });
    const error = await rejectionOf(client.balance('u'));
    expect(isHubError(error, 'network')).toBe(true);
    expect(inspect(error, { showHidden: true, depth: 10 })).not.toContain(secret);
  });

  it('a non-envelope answer is an invalid-response error', async () => {
    const html = (async () => new Response('<html>proxy</html>', { status: 200 })) as typeof fetch;
    const client = createServerClient({ apiKey: secret, baseUrl: 'https://hub.example.com', fetch: html });
    expect(isHubError(await rejectionOf(client.balance('u')), 'invalid-response')).toBe(true);
  });

  it('an HTTP 200 whose envelope code says 402 is a HubPoolInsufficientError', async () => {
    const envelope = (async () =>
      new Response(JSON.stringify({ code: 402, message: 'pool empty', data: null }), { status: 200 })) as typeof fetch;
    const client = createServerClient({ apiKey: secret, baseUrl: 'https://hub.example.com', fetch: envelope });
    expect(await rejectionOf(client.recharge({ clientUserId: 'u', amountCents: 1 }))).toBeInstanceOf(
      HubPoolInsufficientError,
    );
  });
});

describe("the service's documented examples (test/fixtures/service-examples.ts)", () => {
  /** A stand-in for the deployment that answers exactly what its documentation shows, recording each request. */
  function documentedService() {
    const requests: Request[] = [];
    const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      requests.push(request.clone());
      const body = request.url === DOCUMENTED_URLS.token ? DOCUMENTED_TOKEN_ANSWER : { code: 404, message: 'x' };
      return Response.json(body, { status: request.url === DOCUMENTED_URLS.token ? 200 : 404 });
    }) as typeof globalThis.fetch;
    return { requests, fetch };
  }

  it('baseUrl https://host/api/v1/apihub: the exchange goes to the documented URL with every required field', async () => {
    const service = documentedService();
    const client = createServerClient({
      apiKey: 'sk-live-documented',
      baseUrl: DEPLOYMENT_BASE_URL,
      fetch: service.fetch,
    });
    const token = await client.exchangeToken('user-alice');
    expect(token).toEqual({
      accessToken: DOCUMENTED_TOKEN_ANSWER.data.access_token,
      expiresIn: DOCUMENTED_EXPIRES_IN,
    });
    expect(token.accessToken).toMatch(JWT_SHAPE);
    const [request] = service.requests;
    expect(request!.url).toBe(DOCUMENTED_URLS.token);
    for (const header of TOKEN_EXCHANGE_REQUIRED.headers) expect(request!.headers.has(header), header).toBe(true);
    expect(request!.headers.get('Content-Type')).toBe('application/json');
    const body = (await request!.json()) as Record<string, unknown>;
    for (const field of TOKEN_EXCHANGE_REQUIRED.body) expect(body[field], field).toBe('user-alice');
  });

  it('the Bearer calls go under the same root, with the documented JWT intact in the header', async () => {
    const service = documentedService();
    const client = createServerClient({
      apiKey: 'sk-live-documented',
      baseUrl: DEPLOYMENT_BASE_URL,
      fetch: service.fetch,
    });
    await client.publishedList(DOCUMENTED_TOKEN_ANSWER.data.access_token).catch(() => undefined);
    const [request] = service.requests;
    expect(request!.url.startsWith(DOCUMENTED_URLS.publishedList.split('?')[0]!)).toBe(true);
    expect(request!.headers.get('authorization')).toBe(`Bearer ${DOCUMENTED_TOKEN_ANSWER.data.access_token}`);
  });

  it('against the simulator: the token answer has the documented keys, a JWT and expires_in 7200', async () => {
    const { client } = setup();
    const token = await client.exchangeToken('user-alice');
    expect(token.accessToken).toMatch(JWT_SHAPE);
    expect(token.expiresIn).toBe(DOCUMENTED_EXPIRES_IN);
  });
});
