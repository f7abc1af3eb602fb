/** Node-only: the webhook sender on node:http(s): separate connect and overall deadlines, a bounded answer. */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import type { SendResult, WebhookSender } from './types.js';

/**
 * How much of a receiver's answer the sender holds: enough for any billing_deduct `{"ok": …}`; the
 * rest of a huge answer is read and dropped.
 */
export const MAX_RECEIVER_ANSWER_BYTES = 64 * 1024;

/** node:http sender: separate connect and overall deadlines, as the spec's Delivery behaviour asks. */
export const nodeWebhookSender: WebhookSender = (url, init) =>
  new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(overall);
      clearTimeout(connect);
      resolve(result);
    };
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      finish({ kind: 'network-error', error: 'Invalid URL.' });
      return;
    }
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(target, {
      method: 'POST',
      headers: { ...init.headers, 'Content-Length': String(Buffer.byteLength(init.body)) },
    });
    const overall = setTimeout(() => {
      finish({ kind: 'timeout', error: `No complete answer within ${init.timeoutMs} ms.` });
      req.destroy();
    }, init.timeoutMs);
    const connect = setTimeout(() => {
      finish({ kind: 'connect-timeout', error: `No TCP connection within ${init.connectTimeoutMs} ms.` });
      req.destroy();
    }, init.connectTimeoutMs);
    req.on('socket', (socket: Socket) => {
      if (!socket.connecting) clearTimeout(connect);
      else socket.once('connect', () => clearTimeout(connect));
    });
    req.on('error', (error) => finish({ kind: 'network-error', error: error.message }));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        // The body only matters for billing_deduct's `ok`; a huge answer is not worth holding.
        size += chunk.length;
        if (size <= MAX_RECEIVER_ANSWER_BYTES) chunks.push(chunk);
      });
      res.on('end', () =>
        finish({ kind: 'response', status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', (error) => finish({ kind: 'network-error', error: error.message }));
    });
    req.end(init.body);
  });
