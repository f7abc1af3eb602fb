// src/server/ip.ts replaces node:net and proxy-addr (which workerd cannot load); these compare it with
// both, which stay here as the reference, over generated addresses and ranges.
import { isIP as nodeIsIP, isIPv4 as nodeIsIPv4, isIPv6 as nodeIsIPv6 } from 'node:net';
import fc from 'fast-check';
import proxyaddr from 'proxy-addr';
import { describe, expect, it } from 'vitest';
import { compileRanges, isIP, isIPv4, isIPv6, parseRange } from '../../src/server/ip.js';

const byte = fc.integer({ min: 0, max: 255 });
const ipv4 = fc.tuple(byte, byte, byte, byte).map((parts) => parts.join('.'));
const hextet = fc.integer({ min: 0, max: 0xffff }).map((word) => word.toString(16));
const ipv6 = fc.oneof(
  fc.array(hextet, { minLength: 8, maxLength: 8 }).map((words) => words.join(':')),
  fc
    .tuple(fc.array(hextet, { maxLength: 3 }), fc.array(hextet, { maxLength: 3 }))
    .map(([head, tail]) => `${head.join(':')}::${tail.join(':')}`),
  ipv4.map((v4) => `::ffff:${v4}`),
  fc.tuple(fc.array(hextet, { maxLength: 4 }), ipv4).map(([head, v4]) => `${head.join(':')}::${v4}`),
);
// Near misses: leading zeros, hex parts, extra parts, stray characters.
const odd = fc.oneof(
  fc.constantFrom('203.0.113.010', '0xCB.0.113.10', '3405803786', '1.2.3', '1.2.3.4.5', '256.1.1.1', ':::1', '1::2::3'),
  fc.constantFrom(
    'fe80::1%eth0',
    '::ffff:1.2.3.04',
    '1:2:3:4:5:6:7:8:9',
    '::1.2.3.4:1',
    '',
    ' 1.2.3.4',
    'g::1',
    '%eth0',
  ),
  fc.string({ maxLength: 12 }),
);
const anyAddress = fc.oneof(ipv4, ipv6, odd);

function readByProxyAddr(entry: string): boolean {
  try {
    proxyaddr.compile([entry]);
    return true;
  } catch {
    return false;
  }
}

describe('ip.ts, the neutral address parser', { timeout: 30_000 }, () => {
  it('spells addresses as node:net isIP, isIPv4 and isIPv6 do', () => {
    fc.assert(
      fc.property(anyAddress, (text) => {
        expect(isIP(text)).toBe(nodeIsIP(text));
        expect(isIPv4(text)).toBe(nodeIsIPv4(text));
        expect(isIPv6(text)).toBe(nodeIsIPv6(text));
      }),
      { numRuns: 1000 },
    );
  });

  it('matches ranges as proxy-addr does, IPv4-mapped addresses in both directions', () => {
    const range = fc.oneof(
      fc.tuple(ipv4, fc.integer({ min: 1, max: 32 })).map(([a, p]) => `${a}/${p}`),
      fc.tuple(ipv6, fc.integer({ min: 1, max: 128 })).map(([a, p]) => `${a}/${p}`),
      fc.tuple(ipv4, fc.integer({ min: 1, max: 32 })).map(([a, p]) => {
        const mask = (0xffffffff << (32 - p)) >>> 0;
        return `${a}/${[24, 16, 8, 0].map((s) => (mask >>> s) & 0xff).join('.')}`;
      }),
      ipv4,
      ipv6,
    );
    // Addresses near the range, so that matches are common.
    fc.assert(
      fc.property(range, fc.array(anyAddress, { maxLength: 4 }), (entry, others) => {
        const base = entry.split('/')[0]!;
        const candidates = [base, `::ffff:${base}`, base.replace(/^::ffff:/, ''), ...others];
        // proxy-addr's parser (ipaddr.js) refuses some valid IPv6 spellings, such as ::1.2.3.4, which Node
        // accepts and ip.ts reads as Node does; only what both can read is compared.
        fc.pre(readByProxyAddr(entry));
        const ours = compileRanges([entry]);
        const theirs = proxyaddr.compile([entry]);
        // ipaddr.js also reads spellings Node refuses (::ffff:1.2.3.04); those never match here.
        for (const address of candidates) {
          if (nodeIsIP(address) === 0) expect([address, ours(address)]).toEqual([address, false]);
          else if (readByProxyAddr(address))
            expect([entry, address, ours(address)]).toEqual([entry, address, theirs(address, 0)]);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses the entries proxy-addr refuses', () => {
    for (const entry of [
      '0.0.0.0/0',
      '::/0',
      '10.0.0.0/33',
      '::1/129',
      '10.0.0.0/255.0.255.0',
      '10.0.0.0/x',
      'nope',
      '1.2.3.4/',
    ]) {
      expect(() => proxyaddr.compile([entry]), entry).toThrow();
      expect(() => compileRanges([entry]), entry).toThrow(/invalid range or address/);
    }
    expect(parseRange('::/0')).toEqual({ bytes: new Array(16).fill(0), prefix: 0 });
  });
});
