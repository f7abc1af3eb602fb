import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { isHubError } from '../../src/core/errors.js';
import { createSimulator } from '../../packages/hub-embed-mock/src/hub.js';
import { toNodeListener } from '../../src/server/node.js';
import { createServerClient, type ServerClientOptions } from '../../src/server/server-client.js';
import { createTokenHandler } from '../../src/server/token-handler.js';
import { createWebhookHandler } from '../../src/server/webhook-handler.js';
import type { WebhookRejection } from '../../src/server/webhook-rejections.js';
import { rejectionOf } from '../rejection.js';
import { ALLOWED, deductBody, webhookRequest } from './webhook-helpers.js';

/** A build's environment: none of the service's settings. */
const BUILD_ENV: Record<string, string | undefined> = {};

const signedIn = () => 'user-alice';
const tokenRequest = () => new Request('https://app.example.com/api/hub-token', { method: 'POST' });

/** The token route as the README writes it, from an environment that may lack the settings. */
function tokenRoute(options: ServerClientOptions, fetchImpl?: typeof fetch) {
  const reports: unknown[] = [];
  const client = createServerClient(fetchImpl ? { ...options, fetch: fetchImpl } : options);
  const handler = createTokenHandler({ client, resolveClientUserId: signedIn, onError: (e) => reports.push(e) });
  return { client, handler, reports };
}

async function errorOf(response: Response): Promise<string> {
  return ((await response.json()) as { error: string }).error;
}

describe('settings from the environment are checked when they are used, not when a module loads', () => {
  it('created with no environment, none of the three throws', () => {
    expect(() => {
      const client = createServerClient({ apiKey: BUILD_ENV.HUB_API_KEY, baseUrl: BUILD_ENV.HUB_BASE_URL });
      createTokenHandler({ client, resolveClientUserId: signedIn });
      createWebhookHandler({
        allowIps: BUILD_ENV.HUB_WEBHOOK_IPS?.split(','),
        onBillingDeduct: () => true,
        refunds: 'decline',
      });
      // The docs' spelling, `?? ''`, and an unset list split from '' are unset too.
      createServerClient({ apiKey: BUILD_ENV.HUB_API_KEY ?? '', baseUrl: BUILD_ENV.HUB_BASE_URL ?? '' });
      createWebhookHandler({
        allowIps: (BUILD_ENV.HUB_WEBHOOK_IPS ?? '').split(','),
        onBillingDeduct: () => true,
        refunds: 'decline',
      });
    }).not.toThrow();
  });

  it('an unconfigured client can still be logged: toString, JSON and inspect do not throw', () => {
    const client = createServerClient({ apiKey: undefined, baseUrl: undefined });
    expect(String(client)).toBe('ServerClient(not configured)');
    expect(JSON.stringify(client)).toContain('not configured');
  });

  it.each([
    ['apiKey', { apiKey: undefined, baseUrl: 'https://hub.example.com' }, /HUB_API_KEY/],
    ['a malformed apiKey', { apiKey: 'sk-a\nb', baseUrl: 'https://hub.example.com' }, /HUB_API_KEY/],
    ['baseUrl', { apiKey: 'sk-a', baseUrl: undefined }, /HUB_BASE_URL/],
    ['a malformed baseUrl', { apiKey: 'sk-a', baseUrl: 'hub.example.com' }, /HUB_BASE_URL/],
  ])(
    'without %s, the first call is a config error naming the variable, and sends nothing',
    async (_, options, named) => {
      const hub = createSimulator();
      const client = createServerClient({ ...options, fetch: hub.fetch });
      for (const call of [
        () => client.exchangeToken('user-alice'),
        () => client.recharge({ clientUserId: 'user-alice', amountCents: 100, externalOrderId: 'o-1' }),
        () => client.findRecharge({ clientUserId: 'user-alice', amountCents: 100, externalOrderId: 'o-1' }),
        () => client.logs('user-alice'),
      ]) {
        const error = await rejectionOf(call());
        // A recharge without a key is not an unknown outcome to resolve from the logs: it was never sent.
        expect(isHubError(error, 'config')).toBe(true);
        expect((error as Error).message).toMatch(named);
      }
      expect(() => client.apiRoot).toThrow(named);
      expect(hub.requestLog).toEqual([]);
    },
  );

  it('a malformed key is never quoted in the error', async () => {
    const client = createServerClient({ apiKey: 'sk-secret\n', baseUrl: 'https://hub.example.com' });
    expect(String(await rejectionOf(client.balance('u')))).not.toContain('sk-secret');
  });

  it('the token route without HUB_API_KEY answers its first request 500, naming the variable', async () => {
    const { handler } = tokenRoute({ apiKey: BUILD_ENV.HUB_API_KEY, baseUrl: 'https://hub.example.com' });
    const response = await handler(tokenRequest());
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await errorOf(response)).toMatch(/HUB_API_KEY.*apiKey/);
  });

  it('the token route without HUB_BASE_URL answers 500 naming HUB_BASE_URL', async () => {
    const { handler } = tokenRoute({ apiKey: 'sk-a', baseUrl: BUILD_ENV.HUB_BASE_URL });
    const response = await handler(tokenRequest());
    expect(response.status).toBe(500);
    expect(await errorOf(response)).toMatch(/HUB_BASE_URL.*baseUrl/);
  });

  it('the missing setting is logged once, not once per request', async () => {
    const { handler, reports } = tokenRoute({ apiKey: undefined, baseUrl: 'https://hub.example.com' });
    for (let request = 0; request < 5; request++) expect((await handler(tokenRequest())).status).toBe(500);
    expect(reports).toHaveLength(1);
    expect(String(reports[0])).toMatch(/HUB_API_KEY/);
  });

  it('settings given later are read at the next use; once valid they are kept', async () => {
    const hub = createSimulator();
    const options: ServerClientOptions = { apiKey: undefined, baseUrl: undefined, fetch: hub.fetch };
    const { client, handler, reports } = tokenRoute(options);
    expect((await handler(tokenRequest())).status).toBe(500);
    options.apiKey = hub.apiKey;
    options.baseUrl = hub.baseUrl;
    expect((await handler(tokenRequest())).status).toBe(200);
    // Kept: a later change of the options object changes nothing under requests in flight.
    options.apiKey = '';
    expect((await client.balance('user-alice')).clientUserId).toBe('user-alice');
    expect(reports).toHaveLength(1);
  });

  it('the same 500 through toNodeListener (the token route on node:http)', async () => {
    const { handler } = tokenRoute({ apiKey: undefined, baseUrl: 'https://hub.example.com' });
    const url = await listen(toNodeListener(handler));
    const response = await fetch(url, { method: 'POST' });
    expect(response.status).toBe(500);
    expect(await errorOf(response)).toMatch(/HUB_API_KEY/);
  });

  it('the webhook receiver without HUB_WEBHOOK_IPS answers 500 naming allowIps, reported once', async () => {
    const rejections: WebhookRejection[] = [];
    const deducts: unknown[] = [];
    const handler = createWebhookHandler({
      allowIps: BUILD_ENV.HUB_WEBHOOK_IPS?.split(','),
      onBillingDeduct: (event) => (deducts.push(event), true),
      refunds: 'decline',
      onRejected: (rejection) => rejections.push(rejection),
    });
    for (let delivery = 0; delivery < 3; delivery++) {
      const response = await handler(webhookRequest(deductBody('1.00')), { remoteAddress: ALLOWED });
      expect(response.status).toBe(500);
      expect(await errorOf(response)).toMatch(/allowIps.*HUB_WEBHOOK_IPS/);
    }
    expect(deducts).toEqual([]);
    expect(rejections).toEqual([expect.objectContaining({ reason: 'not-configured', status: 500 })]);
    expect(rejections[0]!.message).toMatch(/HUB_WEBHOOK_IPS/);
  });

  it('a callback of the wrong type, a mistake in code rather than environment, still throws at creation', () => {
    expect(() =>
      createWebhookHandler({ allowIps: undefined, onBillingDeduct: 'yes' as never, refunds: 'decline' }),
    ).toThrow(/onBillingDeduct/);
    expect(() =>
      createTokenHandler({ client: createServerClient({ apiKey: undefined, baseUrl: undefined }) } as never),
    ).toThrow(/resolveClientUserId/);
  });
});

let server: Server | undefined;
afterEach(() => {
  server?.close();
  server = undefined;
});

async function listen(listener: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer(listener);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}
