/** `allowIps` and `trustedProxies`: canonical entries only, no list that admits every IPv4 source, compiled for matching. */
import { HubError } from '../core/errors.js';
import { compileRanges, isIPv4, isIPv6, parseRange, rangeContains } from './ip.js';

/** Whether an address is on a compiled list. */
export type Matcher = (address: string) => boolean;

/**
 * Only the spellings every parser reads alike. `203.0.113.010` is 203.0.113.8 to inet_aton and
 * 203.0.113.10 to a human; `0xCB.0.113.10` and `3405803786` are 203.0.113.10 to some parsers and
 * garbage to others. An allow-list must not depend on which parser reads it, so those forms are refused.
 * Node's isIPv4 accepts dotted decimal without leading zeros only; its isIPv6 applies the same rule to
 * an embedded IPv4 tail. A zone (`fe80::1%eth0`) names an interface of the sender's host, not ours.
 */
export function isCanonicalAddress(text: string): boolean {
  return isIPv4(text) || (isIPv6(text) && !text.includes('%'));
}

/** `address`, `address/prefix` or IPv4 `address/netmask`, each part canonical. */
function isCanonicalEntry(entry: string): boolean {
  const [address, range, ...rest] = entry.split('/');
  if (rest.length > 0 || address === undefined || !isCanonicalAddress(address)) return false;
  if (range === undefined) return true;
  return /^(0|[1-9][0-9]{0,2})$/.test(range) || (isIPv4(address) && isIPv4(range));
}

/** An IPv6 range that holds the whole IPv4-mapped block: a dual-stack socket reports every IPv4 peer in it. */
function coversEveryIPv4(entry: string): boolean {
  const [address, prefix] = entry.split('/');
  const range = parseRange(entry);
  if (prefix === undefined || !isIPv6(address!) || range === undefined) return false;
  return rangeContains(range, '::ffff:0.0.0.0') && rangeContains(range, '::ffff:255.255.255.255');
}

/** The IPv4 addresses an entry admits, first and last, or undefined when it admits none. */
interface IPv4Span {
  entry: string;
  first: number;
  last: number;
}

const MAPPED_BLOCK = parseRange('::ffff:0:0/96')!;

/**
 * The IPv4 sources an entry admits: an IPv4 entry directly; an IPv6 entry through the IPv4-mapped
 * block `::ffff:0:0/96` (the matcher takes `::ffff:a.b.c.d` and `a.b.c.d` alike), where `/120` spans
 * as much as an IPv4 `/24`. The entry is read by ip.ts's parser (prefix or netmask), as it is matched.
 */
function ipv4Span(entry: string): IPv4Span | undefined {
  const range = parseRange(entry);
  if (range === undefined) return undefined;
  let { bytes, prefix } = range;
  if (bytes.length === 16) {
    // Shorter than /96, a range holds the whole mapped block (refused before) or misses it; a longer one
    // outside ::ffff:0:0/96 misses it too.
    if (prefix < 96 || !MAPPED_BLOCK.bytes.every((byte, index) => index >= 12 || bytes[index] === byte))
      return undefined;
    bytes = bytes.slice(12);
    prefix -= 96;
  }
  const value = bytes.reduce((number, byte) => number * 256 + byte, 0);
  const size = 2 ** (32 - prefix);
  const first = value - (value % size);
  return { entry, first, last: first + size - 1 };
}

/**
 * The entries that together admit every IPv4 source (`0.0.0.0/1` + `128.0.0.0/1`, or 256 `/8`s),
 * widest first, or undefined when some IPv4 address stays out. Every IPv6 address admitted would
 * include the mapped block, so this one check also refuses a list covering all of IPv6.
 */
function coverEveryIPv4(entries: readonly string[]): IPv4Span[] | undefined {
  const spans = entries.map(ipv4Span).filter((span) => span !== undefined);
  spans.sort((one, other) => one.first - other.first);
  let next = 0; // the lowest address no span seen so far admits
  for (const span of spans) {
    if (span.first > next) return undefined;
    next = Math.max(next, span.last + 1);
  }
  if (next <= 0xffffffff) return undefined;
  return spans.sort((one, other) => other.last - other.first - (one.last - one.first));
}

const EXAMPLE = 'e.g. ["127.0.0.1", "10.0.0.0/8", "::1"]';

/**
 * Checks a list and compiles it for matching. A bad list is a HubError kind 'config' at start-up: an
 * entry in an odd spelling, or entries that alone or together admit every IPv4 source (an allow-list
 * that lets everyone in is no lock, and a proxy list that trusts everyone lets every client name its
 * own address).
 */
export function compileAddressList(list: readonly string[], option: string): Matcher {
  // A JavaScript caller may pass anything. Array.isArray(list) would narrow the typed list to any[].
  const given: unknown = list;
  if (!Array.isArray(given) || list.some((entry) => typeof entry !== 'string' || entry.trim() === '')) {
    throw new HubError('config', `${option} must be an array of IP addresses or CIDR ranges, ${EXAMPLE}.`);
  }
  const entries = list.map((entry) => entry.trim());
  const odd = entries.find((entry) => !isCanonicalEntry(entry));
  if (odd !== undefined) {
    throw new HubError(
      'config',
      `${option}: "${odd.slice(0, 60)}" is not an IP address or CIDR range in canonical form. Write IPv4 in ` +
        'dotted decimal without leading zeros (203.0.113.10, not 203.0.113.010, 0xCB.0.113.10 or 3405803786).',
    );
  }
  const everyIPv4 = entries.find(coversEveryIPv4);
  if (everyIPv4 !== undefined) {
    throw new HubError(
      'config',
      `${option}: "${everyIPv4}" admits every IPv4 source (its range holds all of ::ffff:0:0/96, the IPv4-mapped ` +
        'addresses), as 0.0.0.0/0 would. List the single addresses or the narrow ranges you mean.',
    );
  }
  if (entries.length === 0) return () => false;
  // Before compiling: a list that admits everyone is refused with that reason, not as an odd range.
  const together = coverEveryIPv4(entries);
  if (together !== undefined) {
    const widest = together.slice(0, 4).map((span) => `"${span.entry}"`);
    throw new HubError(
      'config',
      `${option}: its ranges together admit every IPv4 source (the widest: ${widest.join(', ')}), as ` +
        '0.0.0.0/0 would. List the single addresses or the narrow ranges you mean.',
    );
  }
  try {
    // CIDR, netmasks and IPv4-mapped IPv6 in both directions, by proxy-addr's rules (ip.ts says why not proxy-addr).
    return compileRanges(entries);
  } catch (error) {
    throw new HubError('config', `${option}: ${(error as Error).message}. Use single addresses or CIDR ranges.`);
  }
}
