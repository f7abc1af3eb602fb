/**
 * The one loopback rule, for every layer: the widget's form site, <HubEmbedView>'s form Modal, the
 * simulator's Host, CORS and peer checks, the webhook receiver's advice, and the examples. A leaf module
 * (it imports nothing, and needs nothing but the URL parser every runtime has), so the simulator and the
 * form half can share it.
 */

/** 127.0.0.0/8 in dotted decimal without leading zeros, as a socket or the URL parser writes it. */
const IPV4_LOOPBACK = /^127(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** ::1 and ::ffff:127.x.y.z as the URL parser writes them (`[::1]`, `[::ffff:7f00:1]`). */
const IPV6_LOOPBACK = /^\[(::1|::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4})\]$/;

/**
 * A peer on this machine: 127.0.0.0/8, ::1 in any spelling (0:0:0:0:0:0:0:1), and IPv4-mapped 127.x.y.z
 * (a dual-stack socket reports ::ffff:127.0.0.1).
 */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (typeof address !== 'string') return false;
  const lower = address.toLowerCase();
  if (IPV4_LOOPBACK.test(lower.startsWith('::ffff:') ? lower.slice(7) : lower)) return true;
  if (!lower.includes(':') || !/^[0-9a-f:.]+$/.test(lower)) return false;
  try {
    // The URL parser brings every spelling of an IPv6 address to one form.
    return IPV6_LOOPBACK.test(new URL(`http://[${lower}]/`).hostname);
  } catch {
    return false;
  }
}

/**
 * localhost, *.localhost and the loopback addresses, as the URL parser writes a hostname: plain http is
 * allowed there. The parser has already brought an address to the one form the two patterns match, so the
 * browser bundle needs neither the parse nor isLoopbackAddress.
 */
export function isLoopbackHost(hostname: string): boolean {
  const lower = hostname.toLowerCase();
  return /^(.+\.)?localhost$/.test(lower) || IPV4_LOOPBACK.test(lower) || IPV6_LOOPBACK.test(lower);
}
