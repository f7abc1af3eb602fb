/**
 * What went wrong, in a closed set an embedder can branch on. `no-host`: a page with `bridge="auto"` and no
 * token source of its own, which no app host answered (it was opened outside the app).
 */
export type HubErrorKind =
  'config' | 'token' | 'unauthorized' | 'network' | 'timeout' | 'api' | 'invalid-response' | 'aborted' | 'no-host';

export interface HubErrorOptions {
  /** HTTP status, when the error came from a response. */
  status?: number;
  /** The envelope's application `code`, when the service sent one. */
  code?: number;
  cause?: unknown;
}

/** The one error type of the browser core. Messages say what to do, not only what failed. */
export class HubError extends Error {
  override readonly name = 'HubError';
  readonly kind: HubErrorKind;
  readonly status?: number;
  readonly code?: number;

  constructor(kind: HubErrorKind, message: string, options: HubErrorOptions = {}) {
    // Error reads only `cause` from the options, and sets it only when the key is present.
    super(message, options);
    this.kind = kind;
    if (options.status !== undefined) this.status = options.status;
    if (options.code !== undefined) this.code = options.code;
  }
}

export function isHubError(value: unknown, kind?: HubErrorKind): value is HubError {
  return value instanceof HubError && (kind === undefined || value.kind === kind);
}

/** What every cancelled request rejects with. */
export function abortError(): HubError {
  return new HubError('aborted', 'Cancelled.');
}
