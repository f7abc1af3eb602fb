/** The one global through which native hosts talk to the page: `window.__hubEmbedReceive(json)`. */
import type { HostWindow } from './transports.js';

type Receiver = (data: unknown) => void;

/** The global as a bridge installs it: it hands each message to every bridge of the page. */
interface Dispatcher {
  (data: unknown): void;
  receivers: Set<Receiver>;
  /** Messages an early host stub buffered before any bridge loaded (`__hubEmbedReceive.q`). */
  q: unknown[];
}

/** Whether the global is already a bridge's dispatcher (another widget's, or another copy of the script's). */
function isDispatcher(value: unknown): value is Dispatcher {
  return typeof value === 'function' && 'receivers' in value && value.receivers instanceof Set;
}

/** What a host's buffering stub (docs/webview.md) kept: its `q`, when it has one. */
function buffered(stub: unknown): unknown[] {
  if (typeof stub !== 'function' || !('q' in stub)) return [];
  return Array.isArray(stub.q) ? (stub.q as unknown[]) : [];
}

/**
 * Several widgets (and even two copies of the script) share one global, so it fans out to every
 * bridge; each bridge keeps only messages for its own session id.
 */
export function addReceiver(win: HostWindow, receiver: Receiver): () => void {
  const current = win.__hubEmbedReceive;
  let dispatch: Dispatcher;
  if (isDispatcher(current)) {
    dispatch = current;
  } else {
    const receivers = new Set<Receiver>();
    const fanOut = (data: unknown) => {
      for (const each of receivers) each(data);
    };
    dispatch = Object.assign(fanOut, { receivers, q: buffered(current) });
    win.__hubEmbedReceive = dispatch;
  }
  dispatch.receivers.add(receiver);
  const replay = dispatch.q.slice();
  queueMicrotask(() => {
    for (const message of replay) receiver(message);
  });
  return () => {
    dispatch.receivers.delete(receiver);
  };
}
