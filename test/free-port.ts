// A loopback port a test can hand to a process it starts. The port is chosen below the kernel's
// ephemeral range (Linux: 32768-60999), not by listen(0): between our check and the child's listen,
// any other process's listen(0) or outgoing connection may take an ephemeral port (CI runs lanes side
// by side), but nothing takes a port below that range unless asked for it by number.
import { createServer } from 'node:net';

const LOW = 20_000;
const HIGH = 32_000;

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Ports this process handed out: never handed twice, though the first taker may not listen yet. */
const handed = new Set<number>();

/** A port that was free a moment ago, drawn at random so concurrent callers rarely meet. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW));
    if (handed.has(port)) continue;
    handed.add(port);
    if (await bindable(port)) return port;
  }
  throw new Error(`no free loopback port found in ${LOW}-${HIGH}`);
}
