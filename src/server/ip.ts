/**
 * IP addresses and ranges without `node:net` or `proxy-addr`: the webhook allow-list must load on every
 * runtime the toolkit names. `proxy-addr` is CommonJS that `require`s `net` and `ipaddr.js`, which a
 * bundle for Cloudflare's workerd (or any neutral platform) cannot load. The rules are those the
 * toolkit had from `node:net` and `proxy-addr`: Node's `isIPv4` / `isIPv6` spellings, CIDR prefixes
 * and IPv4 netmasks, and IPv4-mapped IPv6 addresses matched against IPv4 ranges and back.
 */

/** Dotted decimal, each part 0-255 without leading zeros: what Node's `isIPv4` accepts. */
const IPV4 =
  /^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])$/;
const HEXTET = /^[0-9a-fA-F]{1,4}$/;

function ipv4Bytes(text: string): number[] | undefined {
  return IPV4.test(text) ? text.split('.').map(Number) : undefined;
}

/** The 16 bytes of an IPv6 address (`::`, an IPv4 tail and a `%zone` allowed, as Node's `isIPv6` allows them). */
function ipv6Bytes(text: string): number[] | undefined {
  const zone = text.indexOf('%');
  if (zone !== -1 && (zone === text.length - 1 || zone === 0)) return undefined;
  const address = zone === -1 ? text : text.slice(0, zone);
  const halves = address.split('::');
  if (halves.length > 2) return undefined;
  const words = (half: string): number[] | undefined => {
    if (half === '') return [];
    const parts = half.split(':');
    const result: number[] = [];
    for (const [index, part] of parts.entries()) {
      if (index === parts.length - 1 && part.includes('.')) {
        const tail = ipv4Bytes(part);
        if (tail === undefined) return undefined;
        result.push((tail[0]! << 8) | tail[1]!, (tail[2]! << 8) | tail[3]!);
      } else if (HEXTET.test(part)) result.push(parseInt(part, 16));
      else return undefined;
    }
    return result;
  };
  const head = words(halves[0]!);
  const tail = halves.length === 2 ? words(halves[1]!) : [];
  if (head === undefined || tail === undefined) return undefined;
  // An IPv4 tail is allowed only at the very end of the address.
  if (halves.length === 2 && halves[0]!.includes('.')) return undefined;
  const count = head.length + tail.length;
  if (halves.length === 1 ? count !== 8 : count > 7) return undefined;
  const all = [...head, ...new Array<number>(8 - count).fill(0), ...tail];
  return all.flatMap((word) => [word >> 8, word & 0xff]);
}

export function isIPv4(text: string): boolean {
  return ipv4Bytes(text) !== undefined;
}

export function isIPv6(text: string): boolean {
  return ipv6Bytes(text) !== undefined;
}

/** 4, 6 or 0, as `node:net`'s `isIP`. */
export function isIP(text: string): 0 | 4 | 6 {
  return isIPv4(text) ? 4 : isIPv6(text) ? 6 : 0;
}

const MAPPED_PREFIX = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];

function isMapped(bytes: readonly number[]): boolean {
  return bytes.length === 16 && MAPPED_PREFIX.every((byte, index) => bytes[index] === byte);
}

/** A range: the first `prefix` bits of `bytes` (4 bytes for IPv4, 16 for IPv6). */
export interface IpRange {
  bytes: readonly number[];
  prefix: number;
}

/** The prefix length of a contiguous IPv4 netmask (255.255.0.0 -> 16), or undefined. */
function maskLength(bytes: readonly number[]): number | undefined {
  const bits = bytes.map((byte) => byte.toString(2).padStart(8, '0')).join('');
  return /^1*0*$/.test(bits) ? (bits.indexOf('0') === -1 ? 32 : bits.indexOf('0')) : undefined;
}

/**
 * `address`, `address/prefix` or IPv4 `address/netmask`; undefined when it is none of them. A single
 * IPv4-mapped IPv6 address stands for its IPv4 address (as in `proxy-addr`). A prefix of 0 is returned
 * as such: whether a range that wide is acceptable is the caller's decision.
 */
export function parseRange(entry: string): IpRange | undefined {
  const slash = entry.lastIndexOf('/');
  const address = slash === -1 ? entry : entry.slice(0, slash);
  let bytes = ipv4Bytes(address) ?? ipv6Bytes(address);
  if (bytes === undefined) return undefined;
  if (slash === -1) {
    if (isMapped(bytes)) bytes = bytes.slice(12);
    return { bytes, prefix: bytes.length * 8 };
  }
  const range = entry.slice(slash + 1);
  const max = bytes.length * 8;
  let prefix: number | undefined;
  if (/^[0-9]+$/.test(range)) prefix = Number(range);
  else if (bytes.length === 4 && ipv4Bytes(range) !== undefined) prefix = maskLength(ipv4Bytes(range)!);
  if (prefix === undefined || prefix > max) return undefined;
  return { bytes, prefix };
}

function startsWith(bytes: readonly number[], range: IpRange): boolean {
  for (let bit = 0; bit < range.prefix; bit += 8) {
    const left = range.prefix - bit;
    const mask = left >= 8 ? 0xff : (0xff << (8 - left)) & 0xff;
    if ((bytes[bit / 8]! & mask) !== (range.bytes[bit / 8]! & mask)) return false;
  }
  return true;
}

/** Plain containment: `address`, of the same family as `range`, lies in it (no IPv4-mapped rules). */
export function rangeContains(range: IpRange, address: string): boolean {
  const bytes = ipv4Bytes(address) ?? ipv6Bytes(address);
  return bytes !== undefined && bytes.length === range.bytes.length && startsWith(bytes, range);
}

/**
 * Whether `address` lies in `range`, by proxy-addr 2.0.8's rules: an IPv4-mapped address is its IPv4
 * address; an IPv4 address lies in an IPv6 range only when that range is IPv4-mapped and at least /96
 * (so `::/80` admits no IPv4 peer); a native IPv6 address never lies in an IPv4-mapped range.
 */
export function inRange(address: string, range: IpRange): boolean {
  let bytes = ipv4Bytes(address) ?? ipv6Bytes(address);
  if (bytes === undefined) return false;
  if (isMapped(bytes)) bytes = bytes.slice(12);
  const mappedRange = range.bytes.length === 16 && isMapped(range.bytes);
  if (bytes.length === range.bytes.length) return !(bytes.length === 16 && mappedRange) && startsWith(bytes, range);
  if (range.bytes.length === 4 || !mappedRange || range.prefix < 96) return false;
  return startsWith([...MAPPED_PREFIX, ...bytes], range);
}

/**
 * A matcher for a list of ranges. Throws an Error naming the entry when one is not an address or range,
 * or its prefix is 0 (a range that admits everything is never what an allow-list means).
 */
export function compileRanges(entries: readonly string[]): (address: string) => boolean {
  const ranges = entries.map((entry) => {
    const range = parseRange(entry);
    if (range === undefined || range.prefix === 0) throw new Error(`invalid range or address: ${entry}`);
    return range;
  });
  return (address) => ranges.some((range) => inRange(address, range));
}
