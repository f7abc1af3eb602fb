import { HubError } from '../core/errors.js';
import { compileAddressList, isCanonicalAddress } from './address-lists.js';
import { compileRanges, isIP } from './ip.js';
import { CLIENT_ADDRESS_HEADERS } from './client-address-headers.js';
import { hopsIn } from './forwarded-headers.js';

/** What the webhook receiver needs to know about where a request came from. */
export interface SourceInfo {
  /** The TCP peer's address, e.g. `req.socket.remoteAddress`. Headers never replace it on their own. */
  remoteAddress?: string | undefined;
}

/** The one forwarded header your trusted proxy sets; the receiver reads the client's address from it. */
export type ClientAddressHeader = 'x-forwarded-for' | 'x-real-ip' | 'forwarded';

/** The headers clientAddressHeader may name; every other one of CLIENT_ADDRESS_HEADERS is only cross-checked. */
const NAMEABLE_HEADERS: readonly ClientAddressHeader[] = ['x-forwarded-for', 'x-real-ip', 'forwarded'];

/** Why a request's source address did not pass. */
export type AddressRefusal =
  | 'no-source-address'
  | 'address-not-allowed'
  | 'forwarded-address-invalid'
  | 'forwarded-headers-conflict'
  | 'forwarded-header-not-named'
  | 'forwarded-header-missing';

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
      /**
       * The headers behind a forwarded-header refusal (lower case): for a conflict the named header and
       * the one that disagrees with it; for `'forwarded-header-not-named'` the ones the proxy did send.
       */
      headers: readonly string[];
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

function sameAddress(one: string, other: string): boolean {
  // Through the range matcher so that ::ffff:203.0.113.7 and 203.0.113.7 are one client.
  return compileRanges([one])(other);
}

/** A header's client: an address, or INVALID when the hop that names it is not a canonical address. */
const INVALID = Symbol('invalid forwarded address');
type Client = string | typeof INVALID;

/**
 * The socket's address decides unless the socket is a trusted proxy. Then:
 * - the address comes from the one header named by clientAddressHeader: for X-Forwarded-For and
 *   Forwarded the right-most hop that is not itself a trusted proxy (the hops to its left are whatever
 *   the client sent), for X-Real-IP its single value;
 * - every other header that names a client (X-Forwarded-For, X-Real-IP, Forwarded, CF-Connecting-IP,
 *   True-Client-IP, X-Client-IP...) must name the same one, or a trusted proxy (an inner hop): a proxy
 *   that sets several sets them alike, so a disagreement means one came from the client, and a proxy
 *   that sets only another header passed the client's own copy of the named one through;
 * - without the named header the request is refused: judging it by the proxy's own (maybe allowed)
 *   address would let every client through a proxy that names them elsewhere, or not at all.
 */
export function createAddressFilter(options: AddressFilterOptions): AddressFilter {
  const allowed = compileAddressList(options.allowIps, 'allowIps');
  const trustedList = options.trustedProxies ?? [];
  const trusted = compileAddressList(trustedList, 'trustedProxies');
  const named = options.clientAddressHeader;
  if (named !== undefined && !NAMEABLE_HEADERS.includes(named)) {
    throw new HubError('config', 'clientAddressHeader must be "x-forwarded-for", "x-real-ip" or "forwarded".');
  }
  if (trustedList.length > 0 && named === undefined) {
    throw new HubError(
      'config',
      'trustedProxies is set, so name the header your proxy sets: clientAddressHeader "x-forwarded-for" ' +
        '(the proxy appends the client, as cloud load balancers and nginx $proxy_add_x_forwarded_for do), ' +
        '"x-real-ip" (nginx proxy_set_header X-Real-IP $remote_addr) or "forwarded" (RFC 7239, for=). ' +
        'See docs/server.md, "Source address".',
    );
  }

  /** The right-most hop that is not a trusted proxy; the left-most hop is the client whatever it is. */
  function fromChain(hops: readonly string[]): Client {
    for (let index = hops.length - 1; index >= 0; index--) {
      const hop = hops[index]!;
      if (!isCanonicalAddress(hop)) return INVALID;
      if (index === 0 || !trusted(hop)) return hop;
    }
    return INVALID;
  }

  function clientIn(header: string, value: string): Client {
    const hops = hopsIn(header, value);
    if (hops) return fromChain(hops);
    const address = value.trim();
    return isCanonicalAddress(address) ? address : INVALID;
  }

  /** Whether another header's client contradicts the believed one. A trusted proxy there is an inner hop. */
  function disagrees(other: Client, believed: string): boolean {
    return other === INVALID || (!sameAddress(other, believed) && !trusted(other));
  }

  function decide(address: string, socketAddress: string, forwardedIgnored = false): AddressVerdict {
    if (allowed(address)) return { allowed: true, address };
    return { allowed: false, reason: 'address-not-allowed', address, socketAddress, forwardedIgnored, headers: [] };
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
          headers: [],
        };
      }
      const present = CLIENT_ADDRESS_HEADERS.filter((header) => headers.has(header));
      if (!trusted(socket)) return decide(socket, socket, present.length > 0);

      const refuse = (reason: AddressRefusal, address: string, involved: readonly string[]): AddressVerdict => ({
        allowed: false,
        reason,
        address,
        socketAddress: socket,
        forwardedIgnored: false,
        headers: involved,
      });
      const namedValue = named === undefined ? null : headers.get(named);
      if (named === undefined || namedValue === null) {
        return present.length > 0
          ? refuse('forwarded-header-not-named', socket, present)
          : refuse('forwarded-header-missing', socket, []);
      }
      const client = clientIn(named, namedValue);
      if (client === INVALID) return refuse('forwarded-address-invalid', socket, [named]);
      for (const header of present) {
        if (header !== named && disagrees(clientIn(header, headers.get(header)!), client))
          return refuse('forwarded-headers-conflict', client, [named, header]);
      }
      return decide(client, socket);
    },
  };
}
