import { HubError } from './errors.js';
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
  private held?: Held;
  private inFlight?: InFlight;
  private invalidated?: string;
  private readonly provider: TokenProvider;
  private readonly now: () => number;

  constructor(provider: TokenProvider, options: { now?: () => number } = {}) {
    this.provider = provider;
    this.now = options.now ?? Date.now;
  }

  /** The current token if it is fresh enough, else a new one from the provider. */
  get(options: TokenGetOptions = {}): Promise<string> {
    const { signal, minValidityMs = 0 } = options;
    if (signal?.aborted) return Promise.reject(abortError());
    const held = this.held;
    const now = this.now();
    if (held && now < held.refreshAt && held.expiresAt - now >= minValidityMs) return Promise.resolve(held.token);
    return this.join(signal).then((fresh) => fresh.token);
  }

  /** Drops `token` (after a 401), but only while it is still the current one. */
  invalidate(token: string): void {
    if (this.held?.token !== token) return;
    this.held = undefined;
    this.invalidated = token;
  }

  /** Seconds of life left in the current token, or 0 without one. */
  remainingSeconds(): number {
    return this.held ? Math.max(0, Math.floor((this.held.expiresAt - this.now()) / 1000)) : 0;
  }

  private join(signal?: AbortSignal): Promise<Held> {
    const flight = (this.inFlight ??= this.fetch());
    flight.waiters++;
    if (!signal) return flight.promise;
    return new Promise<Held>((resolve, reject) => {
      const onAbort = () => {
        reject(abortError());
        // The shared request is cancelled only when nobody is left waiting for it.
        if (--flight.waiters === 0 && this.inFlight === flight) flight.controller.abort();
      };
      signal.addEventListener('abort', onAbort, { once: true });
      flight.promise.then(
        (held) => {
          signal.removeEventListener('abort', onAbort);
          resolve(held);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    });
  }

  private fetch(): InFlight {
    const controller = new AbortController();
    const previous = this.held?.token ?? this.invalidated;
    const reason: TokenReason = this.invalidated !== undefined && !this.held ? 'unauthorized' : this.held ? 'expiring' : 'initial';
    const ctx: TokenContext = { reason, signal: controller.signal };
    if (previous !== undefined) ctx.previous = previous;
    const flight: InFlight = { controller, waiters: 0, promise: Promise.resolve() as unknown as Promise<Held> };
    flight.promise = (async () => {
      try {
        const answer = await this.provider(ctx);
        const held = this.accept(answer);
        if (this.inFlight === flight) {
          this.held = held;
          this.invalidated = undefined;
        }
        return held;
      } catch (error) {
        if (controller.signal.aborted) throw abortError();
        throw error instanceof HubError ? error : new HubError('token', `The token provider failed: ${describe(error)}. Check the token endpoint or provider.`, { cause: error });
      } finally {
        // A failure is not cached: the next get() asks again.
        if (this.inFlight === flight) this.inFlight = undefined;
      }
    })();
    // Callers that all aborted never read the promise; keep that from surfacing as unhandled.
    flight.promise.catch(() => undefined);
    return flight;
  }

  private accept(answer: unknown): Held {
    const token = checkAccessToken(answer, 'The token provider');
    const received = this.now();
    const lifetime = token.expires_in * 1000;
    const margin = Math.min(Math.max(MIN_MARGIN_MS, lifetime / 10), lifetime / 2);
    return { token: token.access_token, expiresAt: received + lifetime, refreshAt: received + lifetime - margin };
  }
}

/** Validates `{access_token, expires_in}`; `source` names who sent it, for the error message. */
export function checkAccessToken(value: unknown, source: string, status?: number): AccessToken {
  const token = value as Partial<AccessToken> | null;
  const ok =
    typeof token === 'object' &&
    token !== null &&
    typeof token.access_token === 'string' &&
    token.access_token !== '' &&
    typeof token.expires_in === 'number' &&
    Number.isFinite(token.expires_in) &&
    token.expires_in > 0;
  if (!ok) {
    throw new HubError('token', `${source} did not return {access_token, expires_in > 0}${status ? ` (HTTP ${status})` : ''}.`, status === undefined ? {} : { status });
  }
  return { access_token: token.access_token!, expires_in: token.expires_in! };
}

export function abortError(): HubError {
  return new HubError('aborted', 'The request was cancelled.');
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
