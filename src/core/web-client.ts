import { HubError } from './errors.js';
import { isRecord, isText, readAnswer, send } from './http.js';
import { PUBLISHED_TAGS, publishedListPath } from './paths.js';
import type { TokenAnswer, TokenLoad, TokenSource } from './token-source.js';
import { apiBaseUrl, safeHttpUrl } from './urls.js';
import type { PublishedTable } from './types.js';

export interface WebClientOptions {
  /** The service's API root (`…/api/v1/apihub`, `…/api/v1/hub`) or its `{base_url}`, by apiBaseUrl's rule. */
  baseUrl: string;
  tokens: TokenSource;
  fetch?: typeof fetch;
  /** Per request, including the retry after a 401. Default 15 s. */
  timeoutMs?: number;
  /** Told how many list items were dropped for lacking `short_code` or `name`. */
  onDropped?: (count: number) => void;
}

export interface RequestOptions {
  signal?: AbortSignal;
}

export interface PublishedListOptions extends RequestOptions {
  /** Any-match tag filter. */
  tags?: readonly string[];
  limit?: number;
}

/**
 * The browser's client for the Bearer endpoints (published tags and list). It also keeps the answers
 * that came with the token `tokenFor()` got (from a token endpoint with prefetch, or a native host): each
 * is used once, instead of the request for exactly its path, and only with the token it came with, so
 * prefetched data serves the load it was fetched for and never becomes a stale cache.
 */
export class WebClient {
  readonly #api: string;
  readonly #tokens: TokenSource;
  readonly #fetch?: typeof fetch;
  readonly #timeoutMs: number;
  readonly #onDropped?: (count: number) => void;
  /** The token the answers in #prefetched came with. */
  #prefetchedWith?: string;
  /** Answers by path (relative to `projects/`), as the token's `prefetched` gave them: checked when used. */
  #prefetched = new Map<string, unknown>();

  constructor(options: WebClientOptions) {
    this.#api = apiBaseUrl(options.baseUrl, 'base-url') + '/projects/';
    this.#tokens = options.tokens;
    this.#fetch = options.fetch;
    this.#timeoutMs = options.timeoutMs ?? 15_000;
    this.#onDropped = options.onDropped;
  }

  /**
   * The token that the requests for `load` will share, got before they go out instead of racing for
   * one. Told what they will be, a token endpoint with prefetch sends their answers along.
   */
  tokenFor(load: TokenLoad, options: RequestOptions = {}): Promise<string> {
    return this.#tokens.get({ signal: options.signal, load, answered: this.#keep });
  }

  /** De-duplicated, sorted tags of the published tables. */
  async publishedTags(options: RequestOptions = {}): Promise<string[]> {
    return (await this.#list(PUBLISHED_TAGS, options.signal)).filter(isText);
  }

  /** Published tables, those matching any of `tags` first. */
  async publishedList(options: PublishedListOptions = {}): Promise<PublishedTable[]> {
    const list = await this.#list(publishedListPath(options), options.signal);
    const tables = list.map(toTable).filter((table): table is PublishedTable => !!table);
    if (tables.length < list.length) this.#onDropped?.(list.length - tables.length);
    // A service that sends more than was asked for must not make the page render them all (no limit: all).
    return tables.slice(0, options.limit);
  }

  /** GETs `path` and returns its list (`data.list`, or `data` itself when that is the array). */
  async #list(path: string, signal?: AbortSignal): Promise<unknown[]> {
    const url = this.#api + path;
    const request = (token: string) =>
      send(
        url,
        url,
        { headers: { Authorization: 'Bearer ' + token, Accept: 'application/json' }, signal },
        this.#fetch,
        this.#timeoutMs,
      );
    const token = await this.#tokens.get({ signal });
    // The token may have come with this very answer (see tokenFor): used once, and only with that token,
    // and checked as the service's below.
    const prefetched = this.#prefetched.get(path);
    this.#prefetched.delete(path);
    if (token === this.#prefetchedWith && Array.isArray(prefetched)) return prefetched as unknown[];
    let response = await request(token);
    if (response.status === 401) {
      // One retry with a fresh token: the old one may have expired or been revoked meanwhile.
      this.#tokens.invalidate(token);
      response = await request(await this.#tokens.get({ signal }));
    }
    // A second 401 is final: the service refuses the tokens this page gets, a 'token' error (a retry asks
    // for another). 'unauthorized' is the token endpoint's own 401: nobody is signed in.
    const kind = response.status === 401 ? 'token' : 'api';
    const { data } = (await readAnswer(response, kind, path)) as { data?: { list?: unknown } | null };
    const list = Array.isArray(data) ? data : data?.list;
    if (!Array.isArray(list)) {
      throw new HubError('invalid-response', `${path}: no list; check base-url.`, { status: response.status });
    }
    return list as unknown[];
  }

  /** Keeps what came with a new token, in place of what came with the one before. */
  #keep = (answer: TokenAnswer): void => {
    this.#prefetchedWith = answer.access_token;
    this.#prefetched = new Map(Object.entries(answer.prefetched ?? {}));
  };
}

/**
 * A list item as a table the widget shows, or undefined for one without `short_code` or `name`. The server's
 * first view (src/first-view/) reads the same answers by the same rule.
 */
export function toTable(item: unknown): PublishedTable | undefined {
  if (!isRecord(item)) return undefined;
  const { short_code, name, industry, tags, icon, total } = item;
  if (!isText(short_code) || !isText(name)) return undefined;
  const table: PublishedTable = {
    short_code,
    name,
    industry: typeof industry === 'string' ? industry : '',
    tags: Array.isArray(tags) ? tags.filter(isText) : [],
  };
  const href = safeHttpUrl(icon);
  if (href) table.icon = href;
  if (typeof total === 'number' && Number.isFinite(total)) table.total = total;
  return table;
}
