// A sender that holds a connection open by trickling its body: the request a body deadline must end.
import { connect } from 'node:net';

/**
 * Writes `head` (the request line, the headers declaring a longer body, and the body's first bytes), then
 * one more byte every `everyMs`. Resolves with what the server answered once the server closes the
 * connection; rejects if it is still open after 20 s, a bound on the test rather than a measurement.
 */
export function trickleBody(port: number, head: string, everyMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    let timer: ReturnType<typeof setInterval> | undefined;
    socket.on('connect', () => {
      socket.write(head);
      timer = setInterval(() => socket.write(' '), everyMs);
    });
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      resolve(answer);
    });
    setTimeout(() => {
      clearInterval(timer);
      socket.destroy();
      reject(new Error(`the server kept the trickling connection open; answer so far: ${JSON.stringify(answer)}`));
    }, 20_000);
  });
}
