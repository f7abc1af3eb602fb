import { describe, expect, it } from 'vitest';
import { forwardedHops } from '../../src/server/forwarded-headers.js';

// RFC 7239 `Forwarded` as the address filter reads it: one hop per element, the `for=` node without
// quotes, brackets or port; '' for an element without `for=`, and any other non-address left as it is
// (the filter refuses every hop that is not a canonical address).
describe('Forwarded (RFC 7239) read as hops', () => {
  it.each([
    ['for=192.0.2.60', ['192.0.2.60']],
    ['For=192.0.2.60;proto=http;by=203.0.113.43', ['192.0.2.60']],
    ['proto=https;for="192.0.2.60:4711"', ['192.0.2.60']],
    ['for="[2001:db8:cafe::17]:4711"', ['2001:db8:cafe::17']],
    ['for="[2001:db8:cafe::17]"', ['2001:db8:cafe::17']],
    ['for=192.0.2.43, for=198.51.100.17', ['192.0.2.43', '198.51.100.17']],
    ['for=192.0.2.43,for=198.51.100.17;by=10.0.0.1', ['192.0.2.43', '198.51.100.17']],
    // A comma or semicolon inside a quoted string does not split.
    ['for="_a,b;c", for=203.0.113.7', ['_a,b;c', '203.0.113.7']],
    ['for="\\"x", for=203.0.113.7', ['"x', '203.0.113.7']],
  ])('%s gives %j', (value, hops) => {
    expect(forwardedHops(value)).toEqual(hops);
  });

  it.each([
    ['for=unknown', ['unknown']],
    ['for=_hidden', ['_hidden']],
    ['proto=https', ['']],
    ['', ['']],
    // RFC 7239 quotes a node with a port or brackets; unquoted, it is no address.
    ['for=192.0.2.60:4711', ['']],
    ['for=[2001:db8::17]', ['']],
    ['for="[2001:db8::17"', ['[2001:db8::17']],
  ])('%j gives hops no filter believes: %j', (value, hops) => {
    expect(forwardedHops(value)).toEqual(hops);
  });
});
