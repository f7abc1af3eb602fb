import { HubError } from '../core/errors.js';

/** Shown instead of the API key wherever the service (or anything else) echoes it back. */
const REDACTED = '[redacted]';
const MAX_MESSAGE_LENGTH = 300;

/**
 * An error answer from the service. `status` is the HTTP status; `code` the envelope's application code
 * when the body was an envelope. The message is the service's own, cut short and with the key removed.
 */
export class HubApiError extends HubError {
  declare readonly status: number;

  constructor(status: number, message: string, code?: number) {
    super(status === 401 ? 'unauthorized' : 'api', message, code === undefined ? { status } : { status, code });
    // HubError fixes `name` to its own literal type; each subclass still names itself for logs.
    (this as { name: string }).name = 'HubApiError';
  }
}

/** 401: the API key is invalid, disabled or expired. Fix the key in your server's configuration. */
export class HubAuthError extends HubApiError {
  constructor(message: string, code?: number) {
    super(401, message, code);
    (this as { name: string }).name = 'HubAuthError';
  }
}

/** 402: the developer points pool cannot cover a recharge. Top it up in the developer console. */
export class HubPoolInsufficientError extends HubApiError {
  constructor(message: string, code?: number) {
    super(402, message, code);
    (this as { name: string }).name = 'HubPoolInsufficientError';
  }
}

/** The typed error for an HTTP status (or, on an HTTP 200, an envelope code) that means failure. */
export function apiErrorFor(status: number, message: string, code?: number): HubApiError {
  if (status === 401) return new HubAuthError(message, code);
  if (status === 402) return new HubPoolInsufficientError(message, code);
  return new HubApiError(status, message, code);
}

/** Removes every occurrence of each secret and bounds the length, so no text we pass on can leak one. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret !== '') out = out.split(secret).join(REDACTED);
  }
  return out.length > MAX_MESSAGE_LENGTH ? `${out.slice(0, MAX_MESSAGE_LENGTH)}…` : out;
}
