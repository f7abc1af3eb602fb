// A Web Response written to node:http's response, and the socket closed as a sender still sending needs.
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Closes a connection whose body is still arriving: our side first (FIN after the answer), then the whole
 * socket a moment later. Destroying it at once, with the sender's bytes unread, resets the connection,
 * and a reset can discard the answer before the sender reads it.
 */
export function hangUp(req: IncomingMessage): void {
  req.resume(); // discard what still arrives
  req.socket.end();
  const timer: unknown = setTimeout(() => req.socket.destroy(), 1000);
  // Node's timer keeps a process alive unless unref'd; where setTimeout gives a number there is nothing to do.
  (timer as { unref?: () => void }).unref?.();
}

export async function writeResponse(response: Response, res: ServerResponse, closeAfter: boolean): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') res.setHeader(name, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);
  // An unread body is still arriving; answering and closing beats reading megabytes we will not use.
  if (closeAfter) res.setHeader('connection', 'close');
  if (response.body === null) {
    res.end();
    return;
  }
  // By hand rather than node:stream's pipeline: hub-embed/server then imports no node: module, so the same
  // entry loads on workerd, which has none without nodejs_compat.
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await drained(res);
    }
    res.end();
  } catch (error) {
    await reader.cancel(error).catch(() => undefined);
    res.destroy();
    throw error;
  }
}

/** Waits for the socket to take more; a client that went away ends the wait with an error. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve, reject) => {
    const onDrain = () => {
      res.off('close', onClose);
      resolve();
    };
    const onClose = () => {
      res.off('drain', onDrain);
      reject(new Error('The client closed the connection before the answer was sent.'));
    };
    res.once('drain', onDrain);
    res.once('close', onClose);
  });
}
