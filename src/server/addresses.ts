import { HubError } from '../core/errors.js';
import { compileRanges, isIP, isIPv4, isIPv6, parseRange, rangeContains } from './ip.js';

/** What the webhook receiver needs to know about where a request came from. */
export interface SourceInfo {
  /** The TCP peer's address, e.g. `req.socket.remoteAddress`. Headers never replace it on their own. */
  remoteAddress?: string | undefined;
}

/** The one forwarded header your trusted proxy sets; the receiver reads the client's address from it. */
export type ClientAddressHeader = 'x-forwarded-for' | 'x-real-ip';

export const CLIENT_ADDRESS_HEADERS: readonly ClientAddressHeader[] = ['x-forwarded-for', 'x-real-ip'];

/** Why a request's source address did not pass. */
export type AddressRefusal =
  | 'no-source-address'
  | 'address-not-allowed'
  | 'forwarded-address-invalid'
  | 'forwarded-headers-conflict'
  | 'forwarded-header-not-named';

export type AddressVerdict =
  | { allowed: true; address: string }
  | {
      allowed: false;
      reason: AddressRefusal;
      /** The address the request was judged by; the socket's when no forwarded address could be believed. */
      address: string | undefined;
      /** The TCP peer, when it differs from `address` or no address could be decided. */
      socketAddress: string | undefined;
      /** True when the socket is not a trusted proxy but the request carries a forwarded header. */
      forwardedIgnored: boolean;
    };

/** Decides whether a request may reach the webhook callbacks. */
export interface AddressFilter {
  judge(headers: Headers, info: SourceInfo): AddressVerdict;
}

export interface AddressFilterOptions {
  allowIps: readonly string[];
  trustedProxies?: readonly string[];
  /** Required when trustedProxies is not empty: guessing which header the proxy sets was the hole. */
  clientAddressHeader?: ClientAddressHeader | undefined;
}

type Matcher = (address: string, index: number) => boolean;

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

const EXAMPLE = 'e.g. ["127.0.0.1", "10.0.0.0/8", "::1"]';

function compileList(list: readonly string[], option: string): Matcher {
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
  try {
    // CIDR, netmasks and IPv4-mapped IPv6 in both directions, with proxy-addr's rules (ip.ts says why not proxy-addr).
    return compileRanges(entries);
  } catch (error) {
    throw new HubError('config', `${option}: ${(error as Error).message}. Use single addresses or CIDR ranges.`);
  }
}

function sameAddress(a: string, b: string): boolean {
  // Through the range matcher so that ::ffff:203.0.113.7 and 203.0.113.7 are one client.
  return compileRanges([a])(b);
}

const INVALID = Symbol('invalid forwarded address');
type Forwarded = string | typeof INVALID | undefined;

/**
 * The socket's address decides unless the socket is a trusted proxy. Then the address comes from the one
 * header named by clientAddressHeader: for X-Forwarded-For the right-most entry that is not itself a
 * trusted proxy (the entries to its left are whatever the client sent), for X-Real-IP its single value.
 * A proxy that sets both sets them to the same client, so two headers naming different clients mean one
 * of them came from the client: refused, whichever header is named.
 */
export function createAddressFilter(options: AddressFilterOptions): AddressFilter {
  const allowed = compileList(options.allowIps, 'allowIps');
  const trustedList = options.trustedProxies ?? [];
  const trusted = compileList(trustedList, 'trustedProxies');
  const header = options.clientAddressHeader;
  if (header !== undefined && !CLIENT_ADDRESS_HEADERS.includes(header)) {
    throw new HubError('config', 'clientAddressHeader must be "x-forwarded-for" or "x-real-ip".');
  }
  if (trustedList.length > 0 && header === undefined) {
    throw new HubError(
      'config',
      'trustedProxies is set, so name the header your proxy sets: clientAddressHeader "x-forwarded-for" ' +
        '(the proxy appends the client, as cloud load balancers and nginx $proxy_add_x_forwarded_for do) or ' +
        '"x-real-ip" (nginx proxy_set_header X-Real-IP $remote_addr). See docs/server.md, "Source address".',
    );
  }

  function fromChain(value: string): Forwarded {
    const chain = value.split(',').map((entry) => entry.trim());
    for (let i = chain.length - 1; i >= 0; i--) {
      const entry = chain[i]!;
      if (!isCanonicalAddress(entry)) return INVALID;
      if (i === 0 || !trusted(entry, i)) return entry;
    }
    return INVALID;
  }

  function fromRealIp(value: string): Forwarded {
    const address = value.trim();
    return isCanonicalAddress(address) ? address : INVALID;
  }

  /** A trusted proxy's own address in X-Real-IP (an inner hop of a chain) names no client. */
  function conflicts(chainSource: Forwarded, realIp: Forwarded): boolean {
    if (chainSource === INVALID || realIp === INVALID) return true;
    if (chainSource === undefined || realIp === undefined) return false;
    return !sameAddress(chainSource, realIp) && !trusted(realIp, 1);
  }

  function decide(address: string, socketAddress: string, forwardedIgnored = false): AddressVerdict {
    if (allowed(address, 0)) return { allowed: true, address };
    return { allowed: false, reason: 'address-not-allowed', address, socketAddress, forwardedIgnored };
  }

  return {
    judge(headers, info) {
      const socket = info.remoteAddress;
      if (typeof socket !== 'string' || isIP(socket) === 0) {
        return {
          allowed: false,
          reason: 'no-source-address',
          address: undefined,
          socketAddress: undefined,
          forwardedIgnored: false,
        };
      }
      const forwardedFor = headers.get('x-forwarded-for');
      const realIp = headers.get('x-real-ip');
      const standard = headers.get('forwarded');
      const anyForwarded = forwardedFor !== null || realIp !== null || standard !== null;
      if (!trusted(socket, 0)) return decide(socket, socket, anyForwarded);

      const chainSource = forwardedFor === null ? undefined : fromChain(forwardedFor);
      const realIpSource = realIp === null ? undefined : fromRealIp(realIp);
      const named = header === 'x-real-ip' ? realIpSource : chainSource;
      const believed = typeof named === 'string' ? named : socket;
      const refuse = (reason: AddressRefusal): AddressVerdict => ({
        allowed: false,
        reason,
        address: believed,
        socketAddress: socket,
        forwardedIgnored: false,
      });
      if (forwardedFor !== null && realIp !== null && conflicts(chainSource, realIpSource))
        return refuse('forwarded-headers-conflict');
      if (named === INVALID) return refuse('forwarded-address-invalid');
      // The proxy forwarded an address, but not in the header it was said to set: clientAddressHeader is
      // wrong for this proxy. Judging by the proxy's own (allowed) address would let every client through.
      if (named === undefined && anyForwarded) return refuse('forwarded-header-not-named');
      // A trusted proxy that forwarded no address at all is judged by its own.
      return decide(believed, socket);
    },
  };
}
