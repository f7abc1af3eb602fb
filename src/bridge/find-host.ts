/** Finding the host: the transport the bridge takes now, or none yet while a native host's marker may still come. */
import type { BridgeOptions } from './bridge-types.js';
import { detectTransport } from './transports.js';
import type { HostWindow, Transport } from './transports.js';

/**
 * The transport to use (a forced object as it is, else the one detected, or the forced name's), with the
 * marker's nonce; undefined while there is none, or while `waitForMarker` holds a native host object
 * found without a nonce. Flutter and Android may inject the marker after the page's first scripts, and
 * their hosts drop every message without the marker's nonce. (A WeChat page or a parent frame has no
 * marker to wait for.)
 */
export function findHost(
  win: HostWindow,
  options: BridgeOptions,
  waitForMarker: boolean | undefined,
): { transport: Transport; nonce?: string } | undefined {
  const forced = options.transport;
  const found = typeof forced === 'object' ? { transport: forced } : detectTransport(win, { ...options, only: forced });
  if (!found) return;
  const native = found.transport.name !== 'wechat' && found.transport.name !== 'parent';
  if (native && waitForMarker && found.nonce === undefined && !win.__HUB_EMBED_BRIDGE__) return;
  return found;
}
