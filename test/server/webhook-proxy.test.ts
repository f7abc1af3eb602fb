import { afterEach, describe, expect, it, vi } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeListener } from '../../src/server/node.js';
import { createWebhookHandler, type WebhookHandlerOptions } from '../../src/server/webhook-handler.js';
import { ALLOWED, deductBody } from './webhook-helpers.js';

// End to end on node:http: this test's fetch plays the reverse proxy, so the socket the receiver sees
// is 127.0.0.1, listed in trustedProxies. The headers are what that proxy would pass on.

const ATTACKER = '198.51.100.1';
const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function receiverBehindProxy(clientAddressHeader: WebhookHandlerOptions['clientAddressHeader']) {
  const onBillingDeduct = vi.fn(() => true);
  const listener = toNodeListener(
    createWebhookHandler({
      allowIps: [ALLOWED],
      trustedProxies: ['127.0.0.1'],
      ...(clientAddressHeader ? { clientAddressHeader } : {}),
      onBillingDeduct,
      onError: () => {},
      onRejected: () => {},
    }),
  );
  const server = createServer((req, res) => listener(req, res));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const deliver = async (headers: Record<string, string>) => {
    const response = await fetch(base, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-event': 'billing_deduct', ...headers },
      body: JSON.stringify(deductBody('1.00')),
    });
    return { status: response.status, called: onBillingDeduct.mock.calls.length };
  };
  return { deliver };
}

describe('webhook source address through a trusted proxy, on node:http', () => {
  it('nginx "proxy_set_header X-Real-IP $remote_addr" with a client-supplied X-Forwarded-For: 403', async () => {
    // The attacker at 198.51.100.1 sends X-Forwarded-For: <an allowed address>; nginx sets X-Real-IP to
    // the attacker and passes X-Forwarded-For through untouched. This used to reach onBillingDeduct.
    const { deliver } = await receiverBehindProxy('x-real-ip');
    expect(await deliver({ 'x-real-ip': ATTACKER, 'x-forwarded-for': ALLOWED })).toEqual({ status: 403, called: 0 });
  });

  it('the same attack with clientAddressHeader set to x-forwarded-for by mistake: still 403 (the headers disagree)', async () => {
    const { deliver } = await receiverBehindProxy('x-forwarded-for');
    expect(await deliver({ 'x-real-ip': ATTACKER, 'x-forwarded-for': ALLOWED })).toEqual({ status: 403, called: 0 });
  });

  it('the platform behind the same nginx is let through', async () => {
    const { deliver } = await receiverBehindProxy('x-real-ip');
    expect(await deliver({ 'x-real-ip': ALLOWED })).toEqual({ status: 200, called: 1 });
  });

  it('the nginx recipe of docs/server.md (both headers set by the proxy) lets the platform through', async () => {
    const { deliver } = await receiverBehindProxy('x-real-ip');
    // $proxy_add_x_forwarded_for appends $remote_addr to whatever the sender put there.
    expect(await deliver({ 'x-real-ip': ALLOWED, 'x-forwarded-for': `10.9.9.9, ${ALLOWED}` })).toEqual({
      status: 200,
      called: 1,
    });
  });

  it('a cloud load balancer appending to X-Forwarded-For: only the appended address counts', async () => {
    const { deliver } = await receiverBehindProxy('x-forwarded-for');
    expect(await deliver({ 'x-forwarded-for': `${ALLOWED}, ${ATTACKER}` })).toEqual({ status: 403, called: 0 });
    expect(await deliver({ 'x-forwarded-for': `${ATTACKER}, ${ALLOWED}` })).toEqual({ status: 200, called: 1 });
  });

  it('an octal spelling of the allowed address in the forwarded header: 403', async () => {
    const { deliver } = await receiverBehindProxy('x-real-ip');
    expect(await deliver({ 'x-real-ip': '203.0.113.07' })).toEqual({ status: 403, called: 0 });
  });
});

describe('a trusted proxy that forwards an address, but not in the named header, fails closed (issue 30, item 1)', () => {
  // The simulator setup docs/server.md suggests: the proxy's own 127.0.0.1 is allowed too. Judging such a
  // request by the proxy's address let every client through.
  async function receiver(clientAddressHeader: 'x-forwarded-for' | 'x-real-ip') {
    const onBillingDeduct = vi.fn(() => true);
    const onRejected = vi.fn();
    const listener = toNodeListener(
      createWebhookHandler({
        allowIps: [ALLOWED, '127.0.0.1'],
        trustedProxies: ['127.0.0.1'],
        clientAddressHeader,
        onBillingDeduct,
        onError: () => {},
        onRejected,
      }),
    );
    const server = createServer((req, res) => listener(req, res));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const deliver = async (headers: Record<string, string>) => {
      const response = await fetch(base, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-webhook-event': 'billing_deduct', ...headers },
        body: JSON.stringify(deductBody('1.00')),
      });
      return { status: response.status, called: onBillingDeduct.mock.calls.length };
    };
    return { deliver, onRejected };
  }

  const notNamed: Array<['x-forwarded-for' | 'x-real-ip', Record<string, string>]> = [
    ['x-forwarded-for', { 'x-real-ip': ATTACKER }],
    ['x-forwarded-for', { forwarded: `for=${ATTACKER}` }],
    ['x-forwarded-for', { 'x-real-ip': ATTACKER, forwarded: `for=${ATTACKER};proto=https` }],
    ['x-real-ip', { 'x-forwarded-for': ATTACKER }],
    ['x-real-ip', { 'x-forwarded-for': `${ALLOWED}, ${ATTACKER}` }],
    ['x-real-ip', { forwarded: 'for="[2001:db8::1]"' }],
    ['x-real-ip', { 'x-forwarded-for': '', forwarded: `for=${ATTACKER}` }],
  ];
  for (const [named, headers] of notNamed) {
    it(`clientAddressHeader ${named}, the proxy sends ${Object.keys(headers).join(' + ')}: 403 and onRejected says why`, async () => {
      const { deliver, onRejected } = await receiver(named);
      expect(await deliver(headers)).toEqual({ status: 403, called: 0 });
      expect(onRejected).toHaveBeenCalledWith(
        expect.objectContaining({
          reason: 'forwarded-header-not-named',
          status: 403,
          message: expect.stringContaining('clientAddressHeader'),
        }),
      );
    });
  }

  it('a trusted proxy that forwards no address at all is still judged by its own address', async () => {
    const { deliver, onRejected } = await receiver('x-forwarded-for');
    expect(await deliver({})).toEqual({ status: 200, called: 1 });
    expect(onRejected).not.toHaveBeenCalled();
  });

  it('the named header alone still decides', async () => {
    const forwardedFor = await receiver('x-forwarded-for');
    expect(await forwardedFor.deliver({ 'x-forwarded-for': ALLOWED })).toEqual({ status: 200, called: 1 });
    const realIp = await receiver('x-real-ip');
    expect(await realIp.deliver({ 'x-real-ip': ATTACKER })).toEqual({ status: 403, called: 0 });
    expect(realIp.onRejected).toHaveBeenCalledWith(expect.objectContaining({ reason: 'address-not-allowed' }));
  });
});
