import { HubError, abortError } from './errors.js';
import { isAccessToken, isRecord } from './http.js';
import type { AccessToken } from './types.js';

/**
 * Why a token is asked for, in the one vocabulary of the widget, the bridge's `auth.getToken`, a host's
 * `getToken` and the token endpoint's body (docs/server.md): none held yet, the held one near its end, or
 * the held one (`previous`) refused by the service.
 */
export type TokenReason = 'initial' | 'expiring' | 'unauthorized';

export interface TokenContext {
  reason: TokenReason;
  /** The token being replaced, so a provider can tell the developer's backend which one failed. */
  previous?: string;
  /** Aborted when every caller waiting for this token has given up. */
  signal?: AbortSignal;
  /** What the caller loads next with the token, so a provider can fetch it along (see `prefetched`). */
  load?: TokenLoad;
}

/**
 * A load: the tags and limit of the list a widget is about to ask for (`load` in the token request body).
 * "Selection" is only ever the tags the user selected.
 */
export interface TokenLoad {
  tags: readonly string[];
  limit?: number;
}

/**
 * A token, and optionally the first answers fetched with it for `ctx.load`: `prefetched` maps the path of
 * each (relative to the API root's `projects/`: `published-tags`, and `publishedListPath(load)`) to
 * its list, i.e. the service's `data.list`. TokenSource hands the whole answer to the caller that waited
 * for it (`answered`); WebClient keeps the entries and uses each once, instead of that request, when its
 * path is exactly the one it is about to ask for, and checks it as it checks the service's answers.
 */
export type TokenAnswer = AccessToken & { prefetched?: Record<string, unknown> };

/** Supplies tokens: the developer's backend, a native host, or a test. Never the API key itself. */
export type TokenProvider = (ctx: TokenContext) => Promise<TokenAnswer>;

export interface TokenGetOptions {
  signal?: AbortSignal;
  /** Fetch a fresh token unless the current one has at least this long left (ms). */
  minValidityMs?: number;
  /** Passed to the provider when this call asks for a new token. */
  load?: TokenLoad;
  /**
   * Told the provider's whole answer when this call waited for a new token: what came along with it
   * (`prefetched`) is the caller's to keep. Not called when the current token is fresh enough.
   */
  answered?: (answer: TokenAnswer) => void;
}

/** Joins the provider call in flight; with a signal, leaves it alone on abort. */
type Flight = (signal?: AbortSignal) => Promise<TokenAnswer>;

/**
 * Holds the current access token in memory only, and nothing else of the provider's answers: what comes
 * along with a token goes to the callers that waited for it (`answered`). Concurrent `get()` calls share one provider call;
 * a token is replaced before it expires, with a margin of max(30 s, 10% of its lifetime) counted from
 * receipt, capped at half the lifetime so that very short-lived tokens are still used at all.
 */
export class TokenSource {
  // Flat #private fields rather than objects: the minifier shortens these names, not object keys.
  /** The last token received; kept after invalidate() only to tell the provider which one failed. */
  #token?: string;
  #expiresAt = 0;
  /** 0 once the token is invalidated (a token received is never due at time 0). */
  #refreshAt = 0;
  #flight?: Flight;
  readonly #provider: TokenProvider;
  readonly #now: () => number;

  constructor(provider: TokenProvider, options: { now?: () => number } = {}) {
    this.#provider = provider;
    this.#now = options.now ?? Date.now;
  }

  /** The current token if it is fresh enough, else a new one from the provider. */
  async get({ signal, minValidityMs = 0, load, answered }: TokenGetOptions = {}): Promise<string> {
    if (signal?.aborted) throw abortError();
    const now = this.#now();
    if (this.#token && now < this.#refreshAt && this.#expiresAt - now >= minValidityMs) return this.#token;
    const answer = await (this.#flight ??= this.#fetch(load))(signal);
    answered?.(answer);
    return answer.access_token;
  }

  /** Drops `token` (after a 401), but only while it is still the current one. */
  invalidate(token: string): void {
    if (this.#token === token) this.#refreshAt = 0;
  }

  #fetch(load?: TokenLoad): Flight {
    const controller = new AbortController();
    const previous = this.#token;
    const reason = !previous ? 'initial' : this.#refreshAt ? 'expiring' : 'unauthorized';
    const ctx: TokenContext = { reason, previous, signal: controller.signal, load };
    let waiters = 0;
    const flight: Flight = (signal) => {
      waiters++;
      if (!signal) return promise;
      return new Promise<TokenAnswer>((resolve, reject) => {
        const onAbort = () => {
          reject(abortError());
          // The shared request is cancelled only when nobody is left waiting for it, and is let go at
          // once: a get() in the same tick (a request replacing the aborted one) must start anew.
          waiters--;
          if (waiters === 0 && this.#flight === flight) {
            this.#flight = undefined;
            controller.abort();
          }
        };
        signal.addEventListener('abort', onAbort);
        promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
      });
    };
    const promise = (async () => {
      try {
        const token = checkAccessToken(await this.#provider(ctx), 'Token provider');
        const received = this.#now();
        const lifetime = token.expires_in * 1000;
        // The margin of the class comment: max(30 s, 10% of the lifetime), at most half of it.
        const margin = Math.min(Math.max(30_000, lifetime / 10), lifetime / 2);
        if (this.#flight === flight) {
          this.#token = token.access_token;
          this.#expiresAt = received + lifetime;
          this.#refreshAt = received + lifetime - margin;
        }
        return token;
      } catch (error) {
        // Once the request is cancelled every waiter has been rejected with `aborted`: this reaches nobody.
        throw error instanceof HubError
          ? error
          : new HubError('token', `Token provider: ${String(error)}; check it.`, { cause: error });
      } finally {
        // A failure is not cached: the next get() asks again.
        if (this.#flight === flight) this.#flight = undefined;
      }
    })();
    // No rejection goes unhandled: get() joins the flight at once, and every waiter passes it on.
    return flight;
  }
}

/**
 * Validates `{access_token, expires_in}`; `source` names who sent it, for the error message. `prefetched`
 * is passed on unchecked: its user (WebClient) checks each answer in it as it checks the service's.
 */
export function checkAccessToken(value: unknown, source: string, status?: number): TokenAnswer {
  if (!isAccessToken(value)) {
    throw new HubError('token', `${source} must return {access_token, expires_in > 0}.`, { status });
  }
  const { access_token, expires_in, prefetched } = value;
  return { access_token, expires_in, prefetched: isRecord(prefetched) ? prefetched : undefined };
}
