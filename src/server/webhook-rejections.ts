/** Webhook deliveries refused before the callbacks: the reasons, their one-line advice, and the default console logger. */
import { isLoopbackAddress } from '../core/loopback.js';
import type { AddressVerdict } from './addresses.js';

export type WebhookRejectionReason =
  | 'not-configured'
  | 'no-source-address'
  | 'address-not-allowed'
  | 'forwarded-address-invalid'
  | 'forwarded-headers-conflict'
  | 'forwarded-header-not-named'
  | 'forwarded-header-missing'
  | 'method-not-allowed'
  | 'unsupported-media-type'
  | 'body-too-large'
  | 'body-too-slow'
  | 'body-invalid'
  | 'event-invalid'
  | 'billing-invalid'
  | 'refund-not-handled';

export interface WebhookRejection {
  reason: WebhookRejectionReason;
  /** The address the request was judged by (a canonical IP), or undefined when there was none. */
  address: string | undefined;
  /**
   * The HTTP status answered; 200 for a malformed billing_deduct (answered ok:false), 501 for an unhandled
   * refund, 500 while the address settings are missing or malformed (reported once, not per delivery).
   */
  status: number;
  /** One line: what was refused and what to do about it. Never contains request text. */
  message: string;
}

/** A header name as people write it: `x-forwarded-for` as X-Forwarded-For, `cf-connecting-ip` as CF-Connecting-IP. */
function headerName(header: string | undefined): string {
  return (header ?? '')
    .split('-')
    .map((word) => (/^(ip|cf)$/.test(word) ? word.toUpperCase() : word.charAt(0).toUpperCase() + word.slice(1)))
    .join('-');
}

/** The one-line advice for a source address that did not pass: why, and what to change. */
export function addressMessage(verdict: Exclude<AddressVerdict, { allowed: true }>): string {
  // Every reason below but the first has both addresses; a message never says "undefined" all the same.
  const address = verdict.address ?? 'an undecided address';
  const socketAddress = verdict.socketAddress ?? 'an unknown peer';
  switch (verdict.reason) {
    case 'no-source-address':
      return (
        'A request without a socket address was refused (403); pass the peer address as { remoteAddress }: ' +
        'toNodeListener does on Node; Bun: server.requestIP(request)?.address; Deno: info.remoteAddr.hostname; ' +
        'Cloudflare Workers: request.headers.get(\'cf-connecting-ip\') (see docs/server.md, "Runtimes").'
      );
    case 'forwarded-address-invalid':
      return `The forwarded address from trusted proxy ${socketAddress} is not a canonical IP address (IPv4 must be dotted decimal without leading zeros); refused (403). Check what your proxy sets.`;
    case 'forwarded-headers-conflict': {
      // A conflict always has the two headers; the defaults only keep the message whole.
      const [namedHeader = 'the named header', other = 'another header'] = verdict.headers.map(headerName);
      // The two nginx headers have a known recipe; any other header is the proxy's (or CDN's) own setting.
      const recipe = verdict.headers.every((header) => header === 'x-real-ip' || header === 'x-forwarded-for')
        ? ' (nginx: proxy_set_header X-Real-IP $remote_addr; proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;)'
        : '';
      return `${other} from trusted proxy ${socketAddress} names another client than ${namedHeader}, so one of them came from the client; refused (403). Make the proxy set both${recipe} or remove ${other}; if ${other} names a proxy of yours, add it to trustedProxies.`;
    }
    case 'forwarded-header-not-named':
      return `Trusted proxy ${socketAddress} named the client in ${verdict.headers.map(headerName).join(', ')}, but not in the header named by clientAddressHeader; refused (403) rather than judged by the proxy's own address. Name the header this proxy sets (see docs/server.md, "Source address").`;
    case 'forwarded-header-missing':
      return `Trusted proxy ${socketAddress} sent no client address in the header named by clientAddressHeader; refused (403) rather than judged by the proxy's own address. Make the proxy set that header, or leave ${socketAddress} out of trustedProxies if it also sends deliveries itself.`;
    case 'address-not-allowed':
      if (isLoopbackAddress(address))
        return `${address} is not in allowIps; add it for local testing with the simulator.`;
      if (verdict.forwardedIgnored)
        return `${address} is not in allowIps. The request carries a forwarded address, which counts only from trustedProxies: if ${address} is your reverse proxy, add it to trustedProxies and set clientAddressHeader.`;
      return `${address} is not in allowIps; if it is one of the platform's outbound IPs shown in the console, add it.`;
  }
}

/** Remembers at most this many (address, reason) pairs, so a flood of addresses cannot grow memory. */
const MAX_REMEMBERED_REJECTIONS = 1000;

/** One console line per distinct address and reason: enough to learn why nothing arrives, not a log flood. */
export function createRejectionLogger(
  log: (line: string) => void = console.warn,
): (rejection: WebhookRejection) => void {
  const seen = new Set<string>();
  let silenced = false;
  return (rejection) => {
    const key = `${rejection.address ?? ''} ${rejection.reason}`;
    if (silenced || seen.has(key)) return;
    if (seen.size === MAX_REMEMBERED_REJECTIONS) {
      silenced = true;
      log(
        '[hub-embed/server] webhook: many distinct refusals; further ones are not printed. Pass onRejected to see every one.',
      );
      return;
    }
    seen.add(key);
    log(`[hub-embed/server] webhook: ${rejection.message}`);
  };
}
