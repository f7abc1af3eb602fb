import { HubError } from '../core/errors.js';

/**
 * An error answer from the service. `status` is the HTTP status; `code` the envelope's application code
 * when the body was an envelope. The message carries status and code only: the service's own text never
 * passes, since it may echo the key.
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
