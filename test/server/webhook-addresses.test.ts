import { describe, expect, it, vi } from 'vitest';
import type { ClientAddressHeader } from '../../src/server/addresses.js';
import { createWebhookHandler, type WebhookHandlerOptions } from '../../src/server/webhook-handler.js';
import type { WebhookRejection } from '../../src/server/webhook-rejections.js';
import { ALLOWED, deductBody, webhookRequest } from './webhook-helpers.js';

function receiver(allowIps: string[], trustedProxies?: string[], clientAddressHeader?: ClientAddressHeader) {
  const onBillingDeduct = vi.fn(() => true);
  const rejections: WebhookRejection[] = [];
  const handler = createWebhookHandler({
    allowIps,
    refunds: 'decline',
    ...(trustedProxies ? { trustedProxies, clientAddressHeader: clientAddressHeader ?? 'x-forwarded-for' } : {}),
    onBillingDeduct,
    onError: () => {},
    onRejected: (rejection) => rejections.push(rejection),
  });
  return { handler, onBillingDeduct, rejections };
}

/**
 * What a receiver made with these address settings says on its first delivery: the one line reported to
 * onRejected beside its 500, or undefined when it judged the delivery by its address. Address settings
 * come from the environment, so they are checked there, not when the handler is made.
 */
async function settingProblem(
  settings: Pick<WebhookHandlerOptions, 'allowIps' | 'trustedProxies' | 'clientAddressHeader'>,
): Promise<string | undefined> {
  const rejections: WebhookRejection[] = [];
  const handler = createWebhookHandler({
    refunds: 'decline',
    onBillingDeduct: () => true,
    onRejected: (rejection) => rejections.push(rejection),
    ...settings,
  });
  const response = await handler(webhookRequest(deductBody('1.00')), { remoteAddress: ALLOWED });
  const unset = rejections.filter((rejection) => rejection.reason === 'not-configured');
  if (response.status !== 500) return undefined;
  expect(unset).toHaveLength(1);
  return unset[0]!.message;
}

async function statusFrom(
  allowIps: string[],
  remoteAddress: string | undefined,
  headers: Record<string, string> = {},
  trustedProxies?: string[],
  clientAddressHeader?: ClientAddressHeader,
) {
  const { handler, onBillingDeduct } = receiver(allowIps, trustedProxies, clientAddressHeader);
  const response = await handler(webhookRequest(deductBody('1.00'), { headers }), { remoteAddress });
  return { status: response.status, called: onBillingDeduct.mock.calls.length };
}

const PROXY = '10.0.0.2';
const ATTACKER = '198.51.100.1';

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

  it('X-Real-IP through a trusted proxy is allowed when clientAddressHeader names it', async () => {
    expect(await statusFrom([ALLOWED], '10.0.0.2', { 'x-real-ip': ALLOWED }, ['10.0.0.2'], 'x-real-ip')).toEqual({
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

  it('a trusted proxy without forwarded headers is refused, even when its own address is allowed', async () => {
    expect(await statusFrom([ALLOWED], '10.0.0.2', {}, ['10.0.0.0/8'])).toEqual({ status: 403, called: 0 });
    expect(await statusFrom([ALLOWED, '10.0.0.2'], '10.0.0.2', {}, ['10.0.0.0/8'])).toEqual({ status: 403, called: 0 });
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

  it('an empty allow-list is an unset one: nothing gets through, each delivery is answered 500', async () => {
    expect(await statusFrom([], '127.0.0.1')).toEqual({ status: 500, called: 0 });
  });

  it.each([[['not-an-ip']], [['10.0.0.0/33']], [['']], ['127.0.0.1' as never]])(
    'a bad allowIps %j is a config error, answered 500 at the first delivery',
    async (allowIps) => {
      expect(await settingProblem({ allowIps: allowIps as string[] })).toMatch(/allowIps/);
    },
  );

  it('a bad trustedProxies entry is a config error', async () => {
    expect(
      await settingProblem({ allowIps: [ALLOWED], trustedProxies: ['10.0.0.0/99'], clientAddressHeader: 'x-real-ip' }),
    ).toMatch(/trustedProxies/);
  });
});

describe('clientAddressHeader: the one header the trusted proxy sets', () => {
  // nginx with only `proxy_set_header X-Real-IP $remote_addr` passes the client's own X-Forwarded-For
  // through untouched. Before clientAddressHeader, that client-supplied header won.
  it('the nginx X-Real-IP set-up with a client-supplied X-Forwarded-For naming an allowed address gets 403', async () => {
    const attack = { 'x-real-ip': ATTACKER, 'x-forwarded-for': ALLOWED };
    for (const header of ['x-real-ip', 'x-forwarded-for'] as const) {
      expect(await statusFrom([ALLOWED], PROXY, attack, [PROXY], header), header).toEqual({ status: 403, called: 0 });
    }
  });

  it('with x-real-ip, X-Forwarded-For alone is ignored for the decision', async () => {
    const only = { 'x-forwarded-for': ALLOWED };
    expect(await statusFrom([ALLOWED], PROXY, only, [PROXY], 'x-real-ip')).toEqual({ status: 403, called: 0 });
  });

  it('with x-forwarded-for, X-Real-IP alone is ignored for the decision', async () => {
    const only = { 'x-real-ip': ALLOWED };
    expect(await statusFrom([ALLOWED], PROXY, only, [PROXY], 'x-forwarded-for')).toEqual({ status: 403, called: 0 });
  });

  it('both headers naming the same client through a trusted proxy are allowed, whichever is named', async () => {
    const both = { 'x-real-ip': ALLOWED, 'x-forwarded-for': `${ATTACKER}, ${ALLOWED}` };
    for (const header of ['x-real-ip', 'x-forwarded-for'] as const) {
      expect(await statusFrom([ALLOWED], PROXY, both, [PROXY], header), header).toEqual({ status: 200, called: 1 });
    }
    const mapped = { 'x-real-ip': `::ffff:${ALLOWED}`, 'x-forwarded-for': ALLOWED };
    expect((await statusFrom([ALLOWED], PROXY, mapped, [PROXY], 'x-real-ip')).status).toBe(200);
  });

  it('both headers naming different clients through a trusted proxy get 403, even when both are allowed', async () => {
    const both = { 'x-real-ip': ALLOWED, 'x-forwarded-for': '203.0.113.8' };
    for (const header of ['x-real-ip', 'x-forwarded-for'] as const) {
      expect(await statusFrom([ALLOWED, '203.0.113.8'], PROXY, both, [PROXY], header), header).toEqual({
        status: 403,
        called: 0,
      });
    }
  });

  it('an X-Real-IP naming an inner trusted proxy of a chain is not a different client', async () => {
    // load balancer 10.0.0.9 -> nginx 10.0.0.2 (X-Real-IP $remote_addr = the balancer)
    const chain = { 'x-forwarded-for': `${ALLOWED}, 10.0.0.9`, 'x-real-ip': '10.0.0.9' };
    expect(await statusFrom([ALLOWED], PROXY, chain, ['10.0.0.0/8'], 'x-forwarded-for')).toEqual({
      status: 200,
      called: 1,
    });
  });

  it('a conflict reaches onRejected with what to do', async () => {
    const { handler, rejections } = receiver([ALLOWED], [PROXY], 'x-real-ip');
    await handler(
      webhookRequest(deductBody('1.00'), { headers: { 'x-real-ip': ATTACKER, 'x-forwarded-for': ALLOWED } }),
      {
        remoteAddress: PROXY,
      },
    );
    expect(rejections).toEqual([
      expect.objectContaining({ reason: 'forwarded-headers-conflict', address: ATTACKER, status: 403 }),
    ]);
    expect(rejections[0]!.message).toMatch(/proxy_set_header X-Real-IP \$remote_addr/);
  });

  it('trustedProxies without clientAddressHeader is a config error that names both choices', async () => {
    expect(await settingProblem({ allowIps: [ALLOWED], trustedProxies: [PROXY] })).toMatch(
      /clientAddressHeader "x-forwarded-for".*"x-real-ip".*"forwarded"/,
    );
  });

  it('an unknown clientAddressHeader is a config error', async () => {
    expect(
      await settingProblem({
        allowIps: [ALLOWED],
        trustedProxies: [PROXY],
        clientAddressHeader: 'cf-connecting-ip' as ClientAddressHeader,
      }),
    ).toMatch(/clientAddressHeader/);
  });

  it('without trustedProxies, clientAddressHeader changes nothing: the socket decides', async () => {
    const onBillingDeduct = vi.fn(() => true);
    const handler = createWebhookHandler({
      refunds: 'decline',
      allowIps: [ALLOWED],
      clientAddressHeader: 'x-real-ip',
      onBillingDeduct,
      onRejected: () => {},
    });
    const response = await handler(webhookRequest(deductBody('1.00'), { headers: { 'x-real-ip': ALLOWED } }), {
      remoteAddress: ATTACKER,
    });
    expect(response.status).toBe(403);
  });
});

describe('only canonical dotted-decimal IPv4', () => {
  // 203.0.113.10 written as octal, hex, one integer, with leading zeros, and mixed into IPv6.
  const oddSpellings = [
    '203.0.113.010',
    '0xCB.0.113.10',
    '0313.0.113.10',
    '3405803786',
    '203.0.113.0010',
    '203.000.113.10',
    '::ffff:203.0.113.010',
    '::ffff:0xCB.0.113.10',
    '203.0.113.10%eth0',
    'fe80::1%eth0',
  ];

  it.each(oddSpellings.map((entry) => [entry]))('allowIps entry %j is refused at the first delivery', async (entry) => {
    expect(await settingProblem({ allowIps: [entry] })).toMatch(/allowIps.*dotted decimal without leading zeros/);
  });

  it.each(oddSpellings.map((entry) => [entry]))(
    'trustedProxies entry %j is refused at the first delivery',
    async (entry) => {
      expect(
        await settingProblem({ allowIps: [ALLOWED], trustedProxies: [entry], clientAddressHeader: 'x-forwarded-for' }),
      ).toMatch(/trustedProxies/);
    },
  );

  it.each([
    ['203.0.113.010/32'],
    ['0xCB.0.113.0/24'],
    ['203.0.113.0/024'],
    ['203.0.113.0/255.255.255.00'],
    ['1.2.3.4/8/8'],
  ])('a CIDR range %j with an odd spelling is refused at the first delivery', async (entry) => {
    expect(await settingProblem({ allowIps: [entry] })).toMatch(/allowIps/);
  });

  it.each([['203.0.113.0/24'], ['203.0.113.0/255.255.255.0'], ['10.0.0.0/8'], ['2001:db8::/32'], ['2001:0db8::0001']])(
    'a canonical entry %j is accepted',
    async (entry) => {
      expect(await settingProblem({ allowIps: [entry] })).toBeUndefined();
    },
  );

  it.each(oddSpellings.map((value) => [value]))(
    'a forwarded %j never matches the allowed 203.0.113.10, in either header',
    async (value) => {
      const allow = ['203.0.113.10'];
      expect(await statusFrom(allow, PROXY, { 'x-forwarded-for': value }, [PROXY], 'x-forwarded-for')).toEqual({
        status: 403,
        called: 0,
      });
      expect(await statusFrom(allow, PROXY, { 'x-real-ip': value }, [PROXY], 'x-real-ip')).toEqual({
        status: 403,
        called: 0,
      });
    },
  );

  it('an odd spelling of a trusted proxy inside X-Forwarded-For is not walked through', async () => {
    // 0x0A.0.0.9 is 10.0.0.9 to a lenient parser, which would then step over it to the allowed address.
    const chain = { 'x-forwarded-for': `${ALLOWED}, 0x0A.0.0.9` };
    expect(await statusFrom([ALLOWED], PROXY, chain, ['10.0.0.0/8'])).toEqual({ status: 403, called: 0 });
  });

  it('the canonical spelling through the same proxy is allowed', async () => {
    expect(
      await statusFrom(['203.0.113.10'], PROXY, { 'x-forwarded-for': '203.0.113.10' }, [PROXY], 'x-forwarded-for'),
    ).toEqual({ status: 200, called: 1 });
  });
});

describe('a range that admits every IPv4 source is refused at start-up, as 0.0.0.0/0 is (issue 30, item 9)', () => {
  it.each(['::ffff:0:0/96', '::ffff:0.0.0.0/96', '::/80', '::/1', '::ffff:0:0/95'])(
    'allowIps %s: a config error, every delivery answered 500',
    async (range) => {
      expect(await settingProblem({ allowIps: [range] })).toMatch(/every IPv4 source/);
      expect(
        await settingProblem({ allowIps: ['203.0.113.10'], trustedProxies: [range], clientAddressHeader: 'x-real-ip' }),
      ).toMatch(/every IPv4 source/);
    },
  );

  it.each(['::ffff:203.0.113.0/120', '::ffff:0:0/97', '2001:db8::/32', '::1'])(
    'allowIps %s is a narrower range, accepted',
    async (range) => {
      expect(await settingProblem({ allowIps: [range] })).toBeUndefined();
    },
  );
});

describe('allowIps and trustedProxies that together admit every IPv4 source are refused at start-up (issue 35, item 6)', () => {
  const everyone: string[][] = [
    ['0.0.0.0/1', '128.0.0.0/1'],
    ['128.0.0.0/1', '0.0.0.0/2', '64.0.0.0/2'],
    ['0.0.0.0/128.0.0.0', '128.0.0.0/1'],
    ['::ffff:0:0/97', '128.0.0.0/1'],
    ['::ffff:0.0.0.0/97', '::ffff:128.0.0.0/97'],
    Array.from({ length: 256 }, (_, octet) => `${octet}.0.0.0/8`),
    ['0.0.0.0/1', '10.0.0.0/8', '128.0.0.0/2', '192.0.0.0/2'],
  ];

  it.each(everyone.map((list) => [list.length > 4 ? `${list.length} ranges` : list.join(' + '), list]))(
    'allowIps %s: a config error naming the widest ranges',
    async (_, list) => {
      expect(await settingProblem({ allowIps: list })).toMatch(
        /^allowIps: its ranges together admit every IPv4 source \(the widest: "/,
      );
      expect(
        await settingProblem({ allowIps: [ALLOWED], trustedProxies: list, clientAddressHeader: 'x-forwarded-for' }),
      ).toMatch(/^trustedProxies: its ranges together admit every IPv4 source/);
    },
  );

  const notEveryone: string[][] = [
    ['0.0.0.0/1'],
    [
      '0.0.0.0/1',
      '128.0.0.0/2',
      '192.0.0.0/3',
      '224.0.0.0/4',
      '240.0.0.0/5',
      '248.0.0.0/6',
      '252.0.0.0/7',
      '254.0.0.0/8',
      '255.0.0.0/9',
    ],
    Array.from({ length: 255 }, (_, octet) => `${octet}.0.0.0/8`),
    ['0.0.0.0/1', '::ffff:128.0.0.0/98', '2001:db8::/32', '::1'],
    ['0.0.0.0/1', '::ffff:0:0:0/97', '64:ff9b::/96'],
  ];

  it.each(notEveryone.map((list) => [list.length > 4 ? `${list.length} ranges` : list.join(' + '), list]))(
    'allowIps %s leaves some IPv4 address out: accepted',
    async (_, list) => {
      expect(await settingProblem({ allowIps: list })).toBeUndefined();
    },
  );

  it('the last address of IPv4 matters: everything but 255.255.255.255 is accepted, with it refused', async () => {
    const allButLast = Array.from({ length: 32 }, (_, bit) => {
      // 0.0.0.0/1, 128.0.0.0/2, 192.0.0.0/3 ... 255.255.255.254/32
      const first = 2 ** 32 - 2 ** (32 - bit);
      const octets = [24, 16, 8, 0].map((shift) => Math.floor(first / 2 ** shift) % 256).join('.');
      return `${octets}/${bit + 1}`;
    });
    expect(await settingProblem({ allowIps: allButLast })).toBeUndefined();
    expect(await settingProblem({ allowIps: [...allButLast, '255.255.255.255'] })).toMatch(
      /together admit every IPv4 source/,
    );
    expect(await settingProblem({ allowIps: [...allButLast, '::ffff:255.255.255.255'] })).toMatch(
      /together admit every IPv4 source/,
    );
  });
});
