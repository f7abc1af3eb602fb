/**
 * Which machines may talk to the Node server. The simulator has no login: its console hands out keys
 * (`/console/seed`) and sends webhooks to any URL it is given, so a client on the network could read the
 * keys and use the simulator to fetch other local services (SSRF). The Host check cannot stop that
 * client, who chooses its Host header freely; the socket's remote address it cannot choose. So a server
 * bound beyond loopback still answers loopback peers only, unless the operator allows remote clients.
 */
import { isLoopbackAddress } from '../../../src/core/loopback.js';

/** A bind address (or name) that only this machine can reach. */
export function isLoopbackBind(bindAddress: string): boolean {
  const bare = bindAddress.replace(/^\[|\]$/g, '');
  return bare === 'localhost' || isLoopbackAddress(bare);
}

/** The 403 text for a peer, or undefined when it is answered. */
export function peerRefusal(address: string | undefined, allowRemoteClients: boolean): string | undefined {
  if (allowRemoteClients || isLoopbackAddress(address)) return undefined;
  return (
    `The simulator answers clients on this machine only (this request came from ${address ?? 'an unknown address'}): ` +
    `it has no login, its console shows the API keys and sends webhooks to any URL. ` +
    `Start it with --allow-remote-clients (allowRemoteClients: true) to let other machines in.`
  );
}

/** The start-up warning for a server bound beyond loopback, or undefined for a loopback bind. */
export function bindWarning(bindAddress: string, allowRemoteClients: boolean): string | undefined {
  if (isLoopbackBind(bindAddress)) return undefined;
  const rule = allowRemoteClients
    ? 'and --allow-remote-clients is on: ANY MACHINE THAT CAN REACH IT can read the API keys at /console/seed, ' +
      'move points, and make the simulator send webhooks to any URL it can reach (other services on this machine too).'
    : 'but answers clients on this machine only (others get 403). --allow-remote-clients lets other machines in, ' +
      'with no login: they could read the API keys and make the simulator call any URL.';
  return [
    '!'.repeat(72),
    `WARNING: the simulator listens on ${bindAddress}, beyond loopback, ${rule}`,
    'Bind 127.0.0.1 (the default) unless you need another machine to reach it, and only on a network you trust.',
    '!'.repeat(72),
  ].join('\n');
}
