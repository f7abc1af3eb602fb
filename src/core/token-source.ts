import { HubError } from './errors.js';
import { isText } from './json.js';
import type { AccessToken } from './types.js';

export type TokenReason = 'initial' | 'expiring' | 'unauthorized';

export interface TokenContext {
  reason: TokenReason;
  /** The token being replaced, so a provider can tell the developer's backend which one failed. */
  previous?: string;
  /** Aborted when every caller waiting for this token has given up. */
  signal?: AbortSignal;
}

/** Supplies tokens: the developer's backend, a native host, or a test. Never the API key itself. */
export type TokenProvider = (ctx: TokenContext) => Promise<AccessToken>;

export interface TokenGetOptions {
  signal?: AbortSignal;
  /** Fetch a fresh token unless the current one has at least this long left (ms). */
  minValidityMs?: number;
}

interface Held {
  token: string;
  expiresAt: number;
  refreshAt: number;
}

interface InFlight {
  promise: Promise<Held>;
  controller: AbortController;
  waiters: number;
}

const MIN_MARGIN_MS = 30_000;

/**
 * Holds the current access token in memory only. Concurrent `get()` calls share one provider call;
 * a token is replaced before it expires, with a margin of max(30 s, 10% of its lifetime) counted from
 * receipt, capped at half the lifetime so that very short-lived tokens are still used at all.
 */
export class TokenSource {
  #held?: Held;
  #inFlight?: InFlight;
  #invalidated?: string;
  readonly #provider: TokenProvider;
  readonly #now: () => number;

  constructor(provider: TokenProvider, options: { now?: () => number } = {}) {
    this.#provider = provider;
    this.#now = options.now ?? Date.now;
  }

  /** The current token if it is fresh enough, else a new one from the provider. */
  get(options: TokenGetOptions = {}): Promise<string> {
    const { signal, minValidityMs = 0 } = options;
    if (signal?.aborted) return Promise.reject(abortError());
    const held = this.#held;
    const now = this.#now();
    if (held && now < held.refreshAt && held.expiresAt - now >= minValidityMs) return Promise.resolve(held.token);
    return this.#join(signal).then((fresh) => fresh.token);
  }

  /** Drops `token` (after a 401), but only while it is still the current one. */
  invalidate(token: string): void {
    if (this.#held?.token !== token) return;
    this.#held = undefined;
    this.#invalidated = token;
  }

  /** Seconds of life left in the current token, or 0 without one. */
  remainingSeconds(): number {
    return this.#held ? Math.max(0, Math.floor((this.#held.expiresAt - this.#now()) / 1000)) : 0;
  }

  #join(signal?: AbortSignal): Promise<Held> {
    const flight = (this.#inFlight ??= this.#fetch());
    flight.waiters++;
    if (!signal) return flight.promise;
    return new Promise<Held>((resolve, reject) => {
      const onAbort = () => {
        reject(abortError());
        // The shared request is cancelled only when nobody is left waiting for it.
        if (--flight.waiters === 0 && this.#inFlight === flight) flight.controller.abort();
      };
      signal.addEventListener('abort', onAbort);
      flight.promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  #fetch(): InFlight {
    const controller = new AbortController();
    const held = this.#held;
    const invalidated = this.#invalidated;
    const previous = held?.token ?? invalidated;
    const ctx: TokenContext = { reason: held ? 'expiring' : invalidated !== undefined ? 'unauthorized' : 'initial', signal: controller.signal };
    if (previous !== undefined) ctx.previous = previous;
    const flight = { controller, waiters: 0 } as InFlight;
    flight.promise = (async () => {
      try {
        const token = checkAccessToken(await this.#provider(ctx), 'Token provider');
        const received = this.#now();
        const lifetime = token.expires_in * 1000;
        const margin = Math.min(Math.max(MIN_MARGIN_MS, lifetime / 10), lifetime / 2);
        const fresh: Held = { token: token.access_token, expiresAt: received + lifetime, refreshAt: received + lifetime - margin };
        if (this.#inFlight === flight) {
          this.#held = fresh;
          this.#invalidated = undefined;
        }
        return fresh;
      } catch (error) {
        if (controller.signal.aborted) throw abortError();
        throw error instanceof HubError ? error : new HubError('token', `Token provider: ${error}; check it.`, { cause: error });
      } finally {
        // A failure is not cached: the next get() asks again.
        if (this.#inFlight === flight) this.#inFlight = undefined;
      }
    })();
    // Callers that all aborted never read the promise; keep that from surfacing as unhandled.
    flight.promise.catch(() => undefined);
    return flight;
  }
}

/** Validates `{access_token, expires_in}`; `source` names who sent it, for the error message. */
export function checkAccessToken(value: unknown, source: string, status?: number): AccessToken {
  const { access_token, expires_in } = Object(value) as Partial<AccessToken>;
  // Number.isFinite is false for non-numbers, so it also checks the type.
  if (!isText(access_token) || !Number.isFinite(expires_in) || !(expires_in! > 0)) {
    throw new HubError('token', `${source} must return {access_token, expires_in > 0}.`, status === undefined ? {} : { status });
  }
  return { access_token, expires_in: expires_in! };
}

export function abortError(): HubError {
  return new HubError('aborted', 'Cancelled.');
}
