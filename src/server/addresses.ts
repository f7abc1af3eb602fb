import proxyaddr from 'proxy-addr';
import { HubError } from '../core/errors.js';

/** What the webhook receiver needs to know about where a request came from. */
export interface SourceInfo {
  /** The TCP peer's address, e.g. `req.socket.remoteAddress`. Headers never replace it on their own. */
  remoteAddress?: string | undefined;
}

/** Decides whether a request may reach the webhook callbacks. */
export interface AddressFilter {
  /** The address the request is judged by: the socket's, or a forwarded one vouched for by trusted proxies. */
  sourceOf(headers: Headers, info: SourceInfo): string | undefined;
  isAllowed(address: string | undefined): boolean;
}

type Matcher = (address: string, index: number) => boolean;

function compileList(list: readonly string[], option: string): Matcher {
  if (!Array.isArray(list) || list.some((entry) => typeof entry !== 'string' || entry.trim() === '')) {
    throw new HubError(
      'config',
      `${option} must be an array of IP addresses or CIDR ranges, e.g. ["127.0.0.1", "10.0.0.0/8", "::1"].`,
    );
  }
  if (list.length === 0) return () => false;
  try {
    // proxy-addr already handles IPv4, IPv6, CIDR, netmasks and IPv4-mapped IPv6 in both directions.
    return proxyaddr.compile(list.map((entry) => entry.trim()));
  } catch (error) {
    throw new HubError('config', `${option}: ${(error as Error).message}. Use single addresses or CIDR ranges.`);
  }
}

/**
 * Forwarded headers count only when the socket peer is a trusted proxy; then the right-most address in
 * the chain that is not itself a trusted proxy is the source. `X-Real-IP` is read only when the proxy sent
 * no `X-Forwarded-For`, since a proxy that appends to one usually passes the other through untouched.
 */
export function createAddressFilter(
  allowIps: readonly string[],
  trustedProxies: readonly string[] = [],
): AddressFilter {
  const allowed = compileList(allowIps, 'allowIps');
  const trusted = compileList(trustedProxies, 'trustedProxies');
  return {
    sourceOf(headers, info) {
      const socket = info.remoteAddress;
      if (typeof socket !== 'string' || socket === '') return undefined;
      const forwardedFor = headers.get('x-forwarded-for') ?? headers.get('x-real-ip') ?? '';
      return proxyaddr(
        { socket: { remoteAddress: socket }, headers: { 'x-forwarded-for': forwardedFor } } as never,
        trusted,
      );
    },
    isAllowed(address) {
      return typeof address === 'string' && address !== '' && allowed(address, 0);
    },
  };
}
