/**
 * The order marker: what ties a points log record to one recharge order. The spec gives a recharge no
 * idempotency key (`external_order_id` is only echoed), but every log record keeps a `reason` remark; the
 * marker goes first in it, where a service that keeps only part of the remark cuts last.
 */
import { HubError } from '../core/errors.js';

/** `hub` and 32 hex digits: ASCII letters and digits only, so no escaping, cut or trim can change it silently. */
const MARKER_AT_START = /^hub[0-9a-f]{32}(?![0-9a-z])/i;

/** A lone surrogate has no UTF-8 spelling: its hash would be the hash of U+FFFD, another order's. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const ILL_FORMED_ORDER_ID =
  'externalOrderId is not well-formed UTF-16 (it has a lone surrogate), so it has no UTF-8 spelling and would share a marker with another order id; fix the code that made it.';

/** The marker of one order: `hub` and the first 128 bits of the SHA-256 of the order id, in hex. */
export async function orderMarker(orderId: string): Promise<string> {
  if (typeof orderId !== 'string' || LONE_SURROGATE.test(orderId)) throw new HubError('config', ILL_FORMED_ORDER_ID);
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(orderId)));
  let hex = '';
  for (const byte of digest.subarray(0, 16)) hex += byte.toString(16).padStart(2, '0');
  return `hub${hex}`;
}

/** The remark sent with a recharge: the order's marker, then the integrator's reason (default `Recharge`). */
export function reasonWithMarker(marker: string, reason: string | undefined): string {
  return `${marker} ${reason ?? 'Recharge'}`;
}

/** The whole marker a log reason starts with, lower-cased, or undefined. */
export function markerOf(reason: string): string | undefined {
  return MARKER_AT_START.exec(reason)?.[0].toLowerCase();
}

/** A fresh order id for a recharge without an `externalOrderId` (Web Crypto: every runtime has it). */
export function newOrderId(): string {
  return `hub-${globalThis.crypto.randomUUID()}`;
}
