import { describe, expect, it, vi } from 'vitest';
import { isHubError } from '../../src/core/errors.js';
import { createWebhookHandler } from '../../src/server/webhook-handler.js';
import { ALLOWED, deductBody, webhookRequest } from './webhook-helpers.js';

function receiver(allowIps: string[], trustedProxies?: string[]) {
  const onBillingDeduct = vi.fn(() => true);
  const handler = createWebhookHandler({
    allowIps,
    ...(trustedProxies ? { trustedProxies } : {}),
    onBillingDeduct,
    onError: () => {},
  });
  return { handler, onBillingDeduct };
}

async function statusFrom(
  allowIps: string[],
  remoteAddress: string | undefined,
  headers: Record<string, string> = {},
  trustedProxies?: string[],
) {
  const { handler, onBillingDeduct } = receiver(allowIps, trustedProxies);
  const response = await handler(webhookRequest(deductBody('1.00'), { headers }), { remoteAddress });
  return { status: response.status, called: onBillingDeduct.mock.calls.length };
}

describe('webhook address allow-list', () => {
  it('a source IP not on the allow-list gets 403 and reaches no callback', async () => {
    expect(await statusFrom([ALLOWED], '198.51.100.1')).toEqual({ status: 403, called: 0 });
  });

  it('an allowed socket address is let through', async () => {
    expect(await statusFrom([ALLOWED], ALLOWED)).toEqual({ status: 200, called: 1 });
  });

  it('a request without a socket address gets 403', async () => {
    expect(await statusFrom([ALLOWED], undefined)).toEqual({ status: 403, called: 0 });
    expect(await statusFrom([ALLOWED], '')).toEqual({ status: 403, called: 0 });
  });

  it('a spoofed X-Forwarded-For naming an allowed address from an untrusted socket gets 403', async () => {
    expect(await statusFrom([ALLOWED], '198.51.100.1', { 'x-forwarded-for': ALLOWED })).toEqual({
      status: 403,
      called: 0,
    });
  });

  it('a spoofed X-Real-IP from an untrusted socket gets 403', async () => {
    expect(await statusFrom([ALLOWED], '198.51.100.1', { 'x-real-ip': ALLOWED })).toEqual({ status: 403, called: 0 });
  });

  it('forwarded headers are ignored even from an allowed socket when no proxy is trusted', async () => {
    expect(await statusFrom(['10.0.0.5'], '10.0.0.5', { 'x-forwarded-for': '198.51.100.1' })).toEqual({
      status: 200,
      called: 1,
    });
  });

  it('the same X-Forwarded-For through a trusted proxy is allowed', async () => {
    expect(await statusFrom([ALLOWED], '10.0.0.2', { 'x-forwarded-for': ALLOWED }, ['10.0.0.0/8'])).toEqual({
      status: 200,
      called: 1,
    });
  });

  it('X-Real-IP through a trusted proxy is allowed when there is no X-Forwarded-For', async () => {
    expect(await statusFrom([ALLOWED], '10.0.0.2', { 'x-real-ip': ALLOWED }, ['10.0.0.2'])).toEqual({
      status: 200,
      called: 1,
    });
  });

  it('takes the right-most address that is not a trusted proxy, so a prepended allowed address does not help', async () => {
    const spoofed = { 'x-forwarded-for': `${ALLOWED}, 198.51.100.1` };
    expect(await statusFrom([ALLOWED], '10.0.0.2', spoofed, ['10.0.0.0/8'])).toEqual({ status: 403, called: 0 });
  });

  it('walks through several trusted proxies to the real source', async () => {
    const chain = { 'x-forwarded-for': `198.51.100.1, ${ALLOWED}, 10.0.0.9` };
    expect(await statusFrom([ALLOWED], '10.0.0.2', chain, ['10.0.0.0/8'])).toEqual({ status: 200, called: 1 });
  });

  it('a trusted proxy without forwarded headers is judged by its own address', async () => {
    expect(await statusFrom([ALLOWED], '10.0.0.2', {}, ['10.0.0.0/8'])).toEqual({ status: 403, called: 0 });
  });

  // Header values arrive as bytes; non-Latin-1 text shows up as its UTF-8 bytes read as Latin-1.
  const asHeaderBytes = (text: string) => Buffer.from(text, 'utf8').toString('latin1');
  it.each([
    ['<script>alert(1)</script>'],
    ['javascript:alert(1)'],
    [asHeaderBytes('203.0.113.7\u2028')],
    [asHeaderBytes('🙂')],
    ['999.1.1.1'],
  ])('a hostile forwarded value %j through a trusted proxy gets 403', async (value) => {
    expect(await statusFrom([ALLOWED], '10.0.0.2', { 'x-forwarded-for': value }, ['10.0.0.0/8'])).toEqual({
      status: 403,
      called: 0,
    });
  });

  it.each([
    ['10.0.0.0/8', '10.200.3.4', 200],
    ['10.0.0.0/8', '11.0.0.1', 403],
    ['192.168.1.0/255.255.255.0', '192.168.1.77', 200],
    ['2001:db8::1', '2001:db8::1', 200],
    ['2001:db8::1', '2001:db8::2', 403],
    ['2001:db8::/32', '2001:db8:ffff::1', 200],
    ['2001:db8::/32', '2001:db9::1', 403],
    ['::1', '::1', 200],
    ['127.0.0.1', '::ffff:127.0.0.1', 200],
    ['10.0.0.0/8', '::ffff:10.1.2.3', 200],
    ['10.0.0.0/8', '::ffff:11.1.2.3', 403],
    ['::ffff:127.0.0.1', '127.0.0.1', 200],
    ['2001:db8::/32', '10.0.0.1', 403],
  ])('IPv4/IPv6/CIDR/IPv4-mapped: allow %s, socket %s -> %d', async (allow, socket, status) => {
    expect((await statusFrom([allow], socket)).status).toBe(status);
  });

  it('an IPv6 client behind a trusted IPv4-mapped proxy address is judged by the forwarded address', async () => {
    expect(
      (await statusFrom(['2001:db8::/32'], '::ffff:10.0.0.2', { 'x-forwarded-for': '2001:db8::5' }, ['10.0.0.0/8']))
        .status,
    ).toBe(200);
  });

  it('an empty allow-list lets nothing through', async () => {
    expect(await statusFrom([], '127.0.0.1')).toEqual({ status: 403, called: 0 });
  });

  it.each([[['not-an-ip']], [['10.0.0.0/33']], [['']], ['127.0.0.1' as never]])(
    'a bad allowIps %j is a config error',
    (allowIps) => {
      let thrown: unknown;
      try {
        receiver(allowIps as string[]);
      } catch (error) {
        thrown = error;
      }
      expect(isHubError(thrown, 'config')).toBe(true);
    },
  );

  it('a bad trustedProxies entry is a config error', () => {
    expect(() => receiver([ALLOWED], ['10.0.0.0/99'])).toThrow(/trustedProxies/);
  });
});
