import type { WrongBackend } from './harness.js';

/** 402 Payment Required, which the service counts as "not delivered". */
export const backend: WrongBackend = {
  mistake: 'an insufficient balance answered 402',
  fails: ['receiver.deduct-insufficient-ok-false'],
  parts: { insufficient: (res) => res.writeHead(402, { 'content-type': 'application/json' }).end('{"ok":false}') },
};
