/** The one global through which native hosts talk to the page: `window.__hubEmbedReceive(json)`. */
import type { HostWindow } from './transports.js';

type Receiver = (data: unknown) => void;
interface Dispatcher {
  (data: unknown): void;
  receivers: Set<Receiver>;
  /** Messages an early host stub buffered before any bridge loaded (`__hubEmbedReceive.q`). */
  q?: unknown[];
}

/**
 * Several widgets (and even two copies of the script) share one global, so it fans out to every
 * bridge; each bridge keeps only messages for its own session id.
 */
export function addReceiver(win: HostWindow, receiver: Receiver): () => void {
  let dispatch = win.__hubEmbedReceive as Dispatcher | undefined;
  if (!(dispatch?.receivers instanceof Set)) {
    const buffered = Array.isArray(dispatch?.q) ? dispatch.q : [];
    const receivers = new Set<Receiver>();
    dispatch = Object.assign((data: unknown) => receivers.forEach((deliver) => deliver(data)), {
      receivers,
      q: buffered,
    });
    win.__hubEmbedReceive = dispatch;
  }
  dispatch.receivers.add(receiver);
  const replay = dispatch.q!.slice();
  queueMicrotask(() => replay.forEach(receiver));
  return () => dispatch.receivers.delete(receiver);
}
