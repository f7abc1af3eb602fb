/**
 * examples/python/receiver.py believes only one decimal Content-Length up to its limit, and refuses
 * Transfer-Encoding, before it reads a byte of the body: raw sockets, because an HTTP client will not
 * send these framings. Each request below sends its head and no body and keeps the socket open, so a
 * receiver that waited for the body (read(-1) reads until the sender stops) would never answer and the
 * test fails at its timeout.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { after, before, test } from 'node:test';
import { freePort } from '../../free-port.js';

const ROOT = new URL('../../../', import.meta.url).pathname;

let child: ChildProcess;
let port = 0;

before(async () => {
  port = await freePort();
  child = spawn('/usr/bin/python3', ['examples/python/receiver.py'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HUB_API_KEY: 'sk-mock-active-0123456789abcdef',
      HUB_BASE_URL: 'http://127.0.0.1:9',
      HUB_FORM_URL: 'http://127.0.0.1:9',
      HUB_WEBHOOK_IPS: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // It prints its address once it listens.
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`receiver.py exited with ${code}`)));
  });
});

after(() => {
  child.kill('SIGTERM');
});

/** Sends `head` (and `body`, by default none; the socket left open) and resolves with the status line's code once an answer ends. */
function answerTo(path: string, head: string[], body = ''): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      const at = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)/i.exec(text)?.[1];
      if (at >= 0 && length !== undefined && text.length >= at + 4 + Number(length)) {
        socket.destroy();
        resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0), text });
      }
    });
    socket.on('error', reject);
    socket.on('close', () => resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0), text }));
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Webhook-Event: billing_deduct\r\n${head.map((line) => `${line}\r\n`).join('')}\r\n${body}`,
    );
  });
}

const PATHS = ['/hooks/hub', '/api/hub-token', '/sign-in'];

for (const path of PATHS) {
  test(
    `receiver.py Content-Length rule: a negative length is answered 400 before the body (${path})`,
    { timeout: 10_000 },
    async () => {
      assert.equal((await answerTo(path, ['Content-Length: -1'])).status, 400);
    },
  );

  test(
    `receiver.py Content-Length rule: a length past the limit is answered 413 before the body (${path})`,
    { timeout: 10_000 },
    async () => {
      assert.equal((await answerTo(path, ['Content-Length: 200000000'])).status, 413);
      assert.equal((await answerTo(path, ['Content-Length: 99999999999999999999999'])).status, 400);
    },
  );

  test(`receiver.py Content-Length rule: only decimal digits are a length (${path})`, { timeout: 10_000 }, async () => {
    for (const value of ['1e3', 'abc', '+5', '0x10', '1_000', '\u0661\u0660', ''])
      assert.equal((await answerTo(path, [`Content-Length: ${value}`])).status, 400, `Content-Length: ${value}`);
  });

  test(
    `receiver.py Content-Length rule: a repeated length is answered 400 (${path})`,
    { timeout: 10_000 },
    async () => {
      assert.equal((await answerTo(path, ['Content-Length: 2', 'Content-Length: 2'])).status, 400);
      assert.equal((await answerTo(path, ['Content-Length: 2', 'Content-Length: 900'])).status, 400);
    },
  );

  test(
    `receiver.py Transfer-Encoding rule: 501, and 411 without any length (${path})`,
    { timeout: 10_000 },
    async () => {
      assert.equal((await answerTo(path, ['Transfer-Encoding: chunked'])).status, 501);
      assert.equal((await answerTo(path, ['Transfer-Encoding: chunked', 'Content-Length: 5'])).status, 501);
      assert.equal((await answerTo(path, [])).status, 411);
    },
  );
}

test(
  'receiver.py Content-Length rule: after all of that it still answers a well-framed request',
  { timeout: 10_000 },
  async () => {
    const body = '{"event":"billing_deduct"}';
    const answer = await answerTo('/api/hub-token', [`Content-Length: ${body.length}`], body);
    // No session: 401 from the route itself, which means the length was believed and the body read.
    assert.equal(answer.status, 401);
  },
);
