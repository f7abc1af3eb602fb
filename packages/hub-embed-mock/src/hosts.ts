/**
 * Which Host headers the simulator answers. Its console is unauthenticated and its API hands out
 * tokens, so a web page must not reach it through DNS rebinding (a name the attacker controls, later
 * resolved to 127.0.0.1): the browser then sends the attacker's name as Host. Loopback names and
 * addresses cannot be rebound, and the operator names any other host with `allowedHosts`.
 */
import { isLoopbackHost } from '../../../src/core/loopback.js';

/** A Host value: a name or IPv4 literal, or a bracketed IPv6 literal, with an optional port. */
const HOST_HEADER = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** The hostname of a Host header, lowercased and without port or final dot; undefined when malformed. */
export function hostnameOf(hostHeader: string): string | undefined {
  if (!HOST_HEADER.test(hostHeader)) return undefined;
  try {
    // The URL parser brings every spelling of an address to one form ([0:0::1] -> [::1]).
    return new URL(`http://${hostHeader}/`).hostname.replace(/\.$/, '');
  } catch {
    return undefined;
  }
}

/** Normalises `allowedHosts` (names or addresses, no scheme or port); throws naming a bad entry. */
export function checkAllowedHosts(hostnames: unknown): string[] {
  if (hostnames === undefined) return [];
  if (!Array.isArray(hostnames)) throw new TypeError('allowedHosts must be an array of host names.');
  return hostnames.map((entry) => {
    let hostname: string | undefined;
    if (typeof entry === 'string') {
      // A bare IPv6 address gets its brackets; anything then ending in :digits named a port.
      const bracketed = entry.includes(':') && !entry.startsWith('[') ? `[${entry}]` : entry;
      if (!/:\d+$/.test(bracketed)) hostname = hostnameOf(bracketed);
    }
    if (hostname === undefined)
      throw new TypeError(`allowedHosts: ${JSON.stringify(entry)} is not a host name or address (no scheme, no port).`);
    return hostname;
  });
}

/**
 * The refusal text for a Host header, or undefined when the simulator answers it. A request without
 * Host (only possible in process, through `hub.fetch` or the handlers) is answered.
 */
export function hostHeaderRefusal(hostHeader: string | null, allowed: readonly string[]): string | undefined {
  if (hostHeader === null) return undefined;
  const name = hostnameOf(hostHeader);
  if (name !== undefined && (isLoopbackHost(name) || allowed.includes(name))) return undefined;
  const shown = JSON.stringify(hostHeader.slice(0, 100));
  return (
    `Host ${shown} is not answered: the simulator answers loopback hosts (localhost, *.localhost, ` +
    `127.0.0.0/8, [::1]) and the hosts named by allowedHosts / --allowed-host, so that a web page ` +
    `cannot reach it through DNS rebinding. Start it with --allowed-host <name> to allow another host.`
  );
}
