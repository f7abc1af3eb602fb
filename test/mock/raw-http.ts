import { connect } from 'node:net';

/**
 * Sends one request as raw bytes and reads the answer until the server closes: fetch and node:http
 * refuse to send the odd methods and Host headers these tests need.
 */
export function rawRequest(url: string, head: string, body = ''): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0), text }));
    socket.write(`${head.trim().replace(/\n/g, '\r\n')}\r\nConnection: close\r\n\r\n${body}`);
  });
}
