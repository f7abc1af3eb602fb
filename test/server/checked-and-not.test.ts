// docs/server.md says what the webhook receiver and the token handler check and what they do not
// ("Replay and freshness: not checked", "What the receiver checks...", "What the token handler
// checks..."). The "not checked" rows are behaviour too: these tests pin them, so a change to either
// side must change the docs with it.
import { describe, expect, it, vi } from 'vitest';
import { createSimulator } from '../../packages/hub-embed-mock/src/hub.js';
import { createServerClient } from '../../src/server/server-client.js';
import { createTokenHandler } from '../../src/server/token-handler.js';
import { createWebhookHandler } from '../../src/server/webhook-handler.js';
import { ALLOWED, deductBody, webhookRequest } from './webhook-helpers.js';

function receiver() {
  const onBillingDeduct = vi.fn(() => true);
  const onRejected = vi.fn();
  const handler = createWebhookHandler({ allowIps: [ALLOWED], onBillingDeduct, refunds: 'decline', onRejected });
  return { handler, onBillingDeduct, onRejected };
}

describe('the webhook receiver: replay and freshness are not checked; the address is what stops a replay', () => {
  it('a deduct stamped 2001 (body and X-Webhook-Timestamp) reaches the callback: times are checked for form only', async () => {
    const { handler, onBillingDeduct } = receiver();
    const old = { ...deductBody('1.00'), timestamp: '2001-01-01T00:00:00+08:00' };
    const response = await handler(webhookRequest(old, { headers: { 'x-webhook-timestamp': '0' } }), {
      remoteAddress: ALLOWED,
    });
    expect(await response.json()).toEqual({ ok: true });
    expect(onBillingDeduct).toHaveBeenCalledTimes(1);
  });

  it('the same delivery twice reaches the callback twice: repeats are the ledger’s to recognise', async () => {
    const { handler, onBillingDeduct } = receiver();
    for (let i = 0; i < 2; i++) {
      const response = await handler(webhookRequest(deductBody('1.00')), { remoteAddress: ALLOWED });
      expect(await response.json()).toEqual({ ok: true });
    }
    expect(onBillingDeduct).toHaveBeenCalledTimes(2);
  });

  it('that delivery replayed from an address not allowed gets 403 and reaches nothing', async () => {
    const { handler, onBillingDeduct, onRejected } = receiver();
    const response = await handler(webhookRequest(deductBody('1.00')), { remoteAddress: '198.51.100.1' });
    expect(response.status).toBe(403);
    expect(onBillingDeduct).not.toHaveBeenCalled();
    expect(onRejected).toHaveBeenCalledWith(expect.objectContaining({ reason: 'address-not-allowed' }));
  });
});

describe('the token handler: what it does not read', () => {
  function setup(allowedOrigins?: string[]) {
    const hub = createSimulator();
    const client = createServerClient({ apiKey: hub.apiKey, baseUrl: hub.baseUrl, fetch: hub.fetch });
    return createTokenHandler({
      client,
      resolveClientUserId: (request) => request.headers.get('x-test-session'),
      onError: () => {},
      ...(allowedOrigins ? { allowedOrigins } : {}),
    });
  }
  const post = (headers: Record<string, string>, body?: string) =>
    new Request('https://app.example.com/api/hub-token', {
      method: 'POST',
      headers: { 'x-test-session': 'user-1', ...headers },
      ...(body === undefined ? {} : { body }),
    });

  it('any Content-Type and a body that is not its JSON are ignored, never refused', async () => {
    const handler = setup();
    const response = await handler(post({ 'content-type': 'text/plain' }, 'client_user_id=someone-else'));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ access_token: expect.any(String) });
  });

  it('without allowedOrigins a foreign Origin is answered, but with no CORS header that would let it read', async () => {
    const response = await setup()(post({ origin: 'https://evil.example' }));
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('with allowedOrigins a foreign or missing Origin gets 403', async () => {
    const handler = setup(['https://app.example.com']);
    expect((await handler(post({ origin: 'https://evil.example' }))).status).toBe(403);
    expect((await handler(post({}))).status).toBe(403);
    expect((await handler(post({ origin: 'https://app.example.com' }))).status).toBe(200);
  });
});
