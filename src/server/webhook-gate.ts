/** What a webhook delivery passes before its event is read: an allowed source address, POST, JSON, a bounded body. */
import type { AddressFilter, SourceInfo } from './addresses.js';
import { readJsonBody, type JsonBodyResult } from './body.js';
import { BODY_MESSAGE, problem } from './webhook-answers.js';
import { addressMessage, type WebhookRejection, type WebhookRejectionReason } from './webhook-rejections.js';

/** Refuses the delivery: reports `advice`, after the address, to onRejected and answers `status` with `{error}`. */
export type Refuse = (
  status: number,
  reason: WebhookRejectionReason,
  error: string,
  advice: string,
  headers?: Record<string, string>,
) => Response;

/** A delivery let through the gate, its body read but not yet judged. */
export interface AdmittedDelivery {
  /** The source address it was allowed by. */
  address: string;
  /** X-Webhook-Event: the event the delivery says it carries. */
  claimed: string | null;
  body: JsonBodyResult;
  /** Refuses this delivery later on, reported like the gate's own refusals. */
  refuse: Refuse;
}

export interface DeliveryGateOptions {
  filter: AddressFilter;
  maxBodyBytes: number;
  /** How long the body may take to arrive once the address is allowed. */
  bodyTimeoutMs: number;
  /** onRejected, made safe to call. */
  reject: (rejection: WebhookRejection) => void;
}

/** The gate: a delivery it lets through, or the answer to one it refused. */
export function createDeliveryGate({
  filter,
  maxBodyBytes,
  bodyTimeoutMs,
  reject,
}: DeliveryGateOptions): (request: Request, info: SourceInfo) => Promise<AdmittedDelivery | Response> {
  return async (request, info) => {
    const verdict = filter.judge(request.headers, info ?? {});
    if (!verdict.allowed) {
      reject({ reason: verdict.reason, address: verdict.address, status: 403, message: addressMessage(verdict) });
      return problem(403, 'Forbidden.');
    }
    const address = verdict.address;
    const refuse: Refuse = (status, reason, error, advice, headers = {}) => {
      reject({ reason, address, status, message: `${address}: ${advice}` });
      return problem(status, error, headers);
    };
    if (request.method !== 'POST')
      return refuse(
        405,
        'method-not-allowed',
        'Use POST.',
        'a request that is not POST was refused (405); the service sends POST only.',
        {
          allow: 'POST',
        },
      );
    if (!isJsonContentType(request.headers.get('content-type')))
      return refuse(
        415,
        'unsupported-media-type',
        'Use Content-Type: application/json.',
        'a request without Content-Type: application/json was refused (415).',
      );

    const claimed = request.headers.get('x-webhook-event');
    const body = await readJsonBody(request, maxBodyBytes, bodyTimeoutMs);
    // `connection: close` tells toNodeListener to drop the socket the slow body is still arriving on.
    if (!body.ok && body.problem === 'too-slow')
      return refuse(
        408,
        'body-too-slow',
        BODY_MESSAGE['too-slow'],
        `a body still arriving after bodyTimeoutMs (${bodyTimeoutMs} ms) was refused (408) and its connection closed; raise bodyTimeoutMs if the platform's deliveries are that slow.`,
        { connection: 'close' },
      );
    if (!body.ok && body.problem === 'too-large')
      return refuse(
        413,
        'body-too-large',
        BODY_MESSAGE['too-large'],
        `a body over maxBodyBytes (${maxBodyBytes}) was refused (413); raise maxBodyBytes if real events are larger.`,
      );
    return { address, claimed, body, refuse };
  };
}

function isJsonContentType(value: string | null): boolean {
  if (value === null) return false;
  const [type, ...params] = value.split(';').map((part) => part.trim().toLowerCase());
  if (type !== 'application/json') return false;
  return params.every((param) => !param.startsWith('charset=') || /^charset="?utf-8"?$/.test(param));
}
