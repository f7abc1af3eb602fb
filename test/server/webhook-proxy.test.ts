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

function receiverBehindProxy(clientAddressHeader: WebhookHandlerOptions['clientAddressHeader']) {
  return receiverWith({
    allowIps: [ALLOWED],
    trustedProxies: ['127.0.0.1'],
    ...(clientAddressHeader ? { clientAddressHeader } : {}),
  });
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
        refunds: 'decline',
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

  it('the named header alone still decides', async () => {
    const forwardedFor = await receiver('x-forwarded-for');
    expect(await forwardedFor.deliver({ 'x-forwarded-for': ALLOWED })).toEqual({ status: 200, called: 1 });
    const realIp = await receiver('x-real-ip');
    expect(await realIp.deliver({ 'x-real-ip': ATTACKER })).toEqual({ status: 403, called: 0 });
    expect(realIp.onRejected).toHaveBeenCalledWith(expect.objectContaining({ reason: 'address-not-allowed' }));
  });
});

/** A receiver on node:http; this test's fetch plays the proxy (or the client, without trustedProxies). */
async function receiverWith(
  options: Pick<WebhookHandlerOptions, 'allowIps' | 'trustedProxies' | 'clientAddressHeader'>,
) {
  const onBillingDeduct = vi.fn(() => true);
  const onRejected = vi.fn();
  const listener = toNodeListener(
    createWebhookHandler({ ...options, onBillingDeduct, refunds: 'decline', onError: () => {}, onRejected }),
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
  const reasons = () => onRejected.mock.calls.map(([rejection]) => (rejection as { reason: string }).reason);
  return { deliver, onRejected, reasons };
}

// The proxy's own 127.0.0.1 is allowed too, as in the simulator set-up: judged by its own address, every
// client it forwards would pass.
const BEHIND_PROXY = { allowIps: [ALLOWED, '127.0.0.1'], trustedProxies: ['127.0.0.1'] };
const OTHER_HEADERS = ['cf-connecting-ip', 'true-client-ip', 'x-client-ip'];

describe('a trusted proxy that names the client in another header, or in none, fails closed (issue 35, item 5a)', () => {
  it('a trusted proxy that forwards no address at all is refused (forwarded-header-missing), not judged by its own', async () => {
    const { deliver, onRejected } = await receiverWith({ ...BEHIND_PROXY, clientAddressHeader: 'x-forwarded-for' });
    expect(await deliver({})).toEqual({ status: 403, called: 0 });
    expect(onRejected).toHaveBeenCalledWith(
      expect.objectContaining({
        reason: 'forwarded-header-missing',
        address: '127.0.0.1',
        message: expect.stringMatching(/no client address in the header named by clientAddressHeader/),
      }),
    );
  });

  for (const other of OTHER_HEADERS) {
    it(`a proxy that sets only ${other}: refused (forwarded-header-not-named), the message names it`, async () => {
      const { deliver, onRejected } = await receiverWith({ ...BEHIND_PROXY, clientAddressHeader: 'x-forwarded-for' });
      expect(await deliver({ [other]: ATTACKER })).toEqual({ status: 403, called: 0 });
      const [rejection] = onRejected.mock.calls[0]! as [{ reason: string; message: string }];
      expect(rejection.reason).toBe('forwarded-header-not-named');
      expect(rejection.message.toLowerCase()).toContain(other);
    });

    it(`a proxy that sets only ${other}, with the client's own X-Forwarded-For naming an allowed address: refused (forwarded-headers-conflict)`, async () => {
      const { deliver, reasons } = await receiverWith({ ...BEHIND_PROXY, clientAddressHeader: 'x-forwarded-for' });
      expect(await deliver({ [other]: ATTACKER, 'x-forwarded-for': ALLOWED })).toEqual({ status: 403, called: 0 });
      expect(reasons()).toEqual(['forwarded-headers-conflict']);
    });

    it(`${other} naming the same client as the named header (a CDN that sets both) is let through`, async () => {
      const { deliver } = await receiverWith({ ...BEHIND_PROXY, clientAddressHeader: 'x-forwarded-for' });
      expect(await deliver({ [other]: ALLOWED, 'x-forwarded-for': `${ATTACKER}, ${ALLOWED}` })).toEqual({
        status: 200,
        called: 1,
      });
    });
  }

  it('without trustedProxies nothing changes: no header is read, the socket decides', async () => {
    const open = await receiverWith({ allowIps: ['127.0.0.1'] });
    expect(await open.deliver({})).toEqual({ status: 200, called: 1 });
    expect(await open.deliver({ 'cf-connecting-ip': ATTACKER, 'x-forwarded-for': ATTACKER })).toEqual({
      status: 200,
      called: 2,
    });
    const closed = await receiverWith({ allowIps: [ALLOWED] });
    expect(await closed.deliver({ 'cf-connecting-ip': ALLOWED, 'x-forwarded-for': ALLOWED })).toEqual({
      status: 403,
      called: 0,
    });
    expect(closed.reasons()).toEqual(['address-not-allowed']);
  });
});

describe('Forwarded is cross-checked with the named header (issue 35, item 5b)', () => {
  it("a proxy that sets only Forwarded, with the client's own X-Forwarded-For naming an allowed address: refused", async () => {
    const { deliver, reasons, onRejected } = await receiverWith({
      ...BEHIND_PROXY,
      clientAddressHeader: 'x-forwarded-for',
    });
    expect(await deliver({ forwarded: `for=${ATTACKER};proto=https`, 'x-forwarded-for': ALLOWED })).toEqual({
      status: 403,
      called: 0,
    });
    // The proxy appends its element to the client's own Forwarded: the right-most one counts.
    expect(await deliver({ forwarded: `for=${ALLOWED}, for=${ATTACKER}`, 'x-forwarded-for': ALLOWED })).toEqual({
      status: 403,
      called: 0,
    });
    expect(reasons()).toEqual(['forwarded-headers-conflict', 'forwarded-headers-conflict']);
    expect(onRejected.mock.calls[0]![0].message).toMatch(
      /^Forwarded from trusted proxy 127\.0\.0\.1 names another client than X-Forwarded-For/,
    );
  });

  it('Forwarded and X-Forwarded-For set alike by the proxy are let through, in every RFC 7239 spelling', async () => {
    const { deliver } = await receiverWith({ ...BEHIND_PROXY, clientAddressHeader: 'x-forwarded-for' });
    for (const forwarded of [
      `for=${ALLOWED}`,
      `For="${ALLOWED}:4711";proto=https`,
      `for=${ATTACKER}, for=${ALLOWED};by=127.0.0.1`,
      `proto=https;for="${ALLOWED}"`,
    ]) {
      expect((await deliver({ forwarded, 'x-forwarded-for': ALLOWED })).status, forwarded).toBe(200);
    }
  });

  it('an unreadable Forwarded beside the named header is refused: unknown, obfuscated, no for=, an unquoted port', async () => {
    const { deliver, reasons } = await receiverWith({ ...BEHIND_PROXY, clientAddressHeader: 'x-forwarded-for' });
    const unreadable = ['for=unknown', 'for=_hidden', 'proto=https', `for=${ALLOWED}:80`, 'for="[2001:db8::1"'];
    for (const forwarded of unreadable) {
      expect(await deliver({ forwarded, 'x-forwarded-for': ALLOWED }), forwarded).toEqual({ status: 403, called: 0 });
    }
    expect(new Set(reasons())).toEqual(new Set(['forwarded-headers-conflict']));
  });

  it('clientAddressHeader "forwarded": the right-most for= that is not a trusted proxy decides', async () => {
    const { deliver, reasons } = await receiverWith({
      allowIps: [ALLOWED, '2001:db8::7'],
      trustedProxies: ['127.0.0.1'],
      clientAddressHeader: 'forwarded',
    });
    expect((await deliver({ forwarded: `for=${ALLOWED}` })).status).toBe(200);
    expect((await deliver({ forwarded: 'for="[2001:db8::7]:4711"' })).status).toBe(200);
    expect((await deliver({ forwarded: `for=${ATTACKER}, for=${ALLOWED}, for=127.0.0.1` })).status).toBe(200);
    expect((await deliver({ forwarded: `for=${ALLOWED}, for=${ATTACKER}` })).status).toBe(403);
    // The client's own X-Forwarded-For and X-Real-IP do not help it either.
    expect(
      (await deliver({ forwarded: `for=${ATTACKER}`, 'x-forwarded-for': ALLOWED, 'x-real-ip': ALLOWED })).status,
    ).toBe(403);
    expect((await deliver({ forwarded: 'for=unknown' })).status).toBe(403);
    expect(reasons()).toEqual(['address-not-allowed', 'forwarded-headers-conflict', 'forwarded-address-invalid']);
  });
});
