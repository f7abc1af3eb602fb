// The engine layer's recording proxy (test/e2e/engines/proxy.ts) keeps its sockets to the test servers
// alive. A server that closes a kept-alive socket just as the proxy reuses it failed a page's favicon
// with a 502 in one CI run (a console error in the navigate test); a GET, HEAD or OPTIONS (no body) is
// now sent again on a fresh socket. No browser: this runs once, not once per engine.
import assert from 'node:assert/strict';
import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { after, test } from 'node:test';
import { startProxy } from './engines/proxy.js';

/** Answers the first request on each socket; a second one on the same socket finds it closed. */
const server = createServer((req, res) => {
  const served = answered.get(req.socket) ?? 0;
  answered.set(req.socket, served + 1);
  if (served > 0) return void req.socket.destroy();
  res.end(`answer ${++answers}`);
});
const answered = new WeakMap<Socket, number>();
let answers = 0;
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const target = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const proxy = await startProxy({ injectRecorder: false });

after(async () => {
  await proxy.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** One request through the proxy, as a browser configured with it sends one. */
function viaProxy(method: string, path: string, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: proxy.port, method, path: target + path, headers: { host: new URL(target).host } },
      (res: IncomingMessage) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

test('a GET whose kept-alive socket the server closed as it was reused is sent again, not answered 502', async () => {
  assert.deepEqual(await viaProxy('GET', '/favicon.svg'), { status: 200, text: 'answer 1' });
  // The proxy's agent reuses the socket of the answer above; the server closes it on this request.
  assert.deepEqual(await viaProxy('GET', '/favicon.svg'), { status: 200, text: 'answer 2' });
});

test('a request with a body is not sent twice: the failure is the 502 it was', async () => {
  await viaProxy('GET', '/first');
  const answer = await viaProxy('POST', '/api/hub-token', '{"reason":"initial"}');
  assert.equal(answer.status, 502);
});

test('a CORS preflight (OPTIONS, no body) whose kept-alive socket the server closed is sent again, not answered 502', async () => {
  // A 502 to a preflight fails the request it guards as a network error, shown by the widget as
  // "… unreachable". One WebKit run failed so on published-tags (preflighted: it carries Authorization);
  // this race is a likely cause, not a proven one.
  await viaProxy('GET', '/first');
  assert.equal((await viaProxy('OPTIONS', '/api/v1/hub/projects/published-tags')).status, 200);
});
