import { HubError } from './errors.js';
import { abortError, type TokenSource } from './token-source.js';
import { safeHttpUrl } from './urls.js';
import type { PublishedTable } from './types.js';

export interface HubClientOptions {
  /** The service's `{base_url}`; paths go under `{base_url}/api/v1/hub`. */
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

/** The browser's client for the Bearer endpoints (published tags and list). */
export class HubClient {
  private readonly api: string;
  private readonly tokens: TokenSource;
  private readonly fetchImpl: typeof fetch;
  private readonly timeoutMs: number;
  private readonly onDropped?: (count: number) => void;

  constructor(options: HubClientOptions) {
    const base = safeHttpUrl(options.baseUrl);
    if (!base) throw new HubError('config', `base-url "${String(options.baseUrl)}" must be the service's absolute http(s) address.`);
    this.api = base.replace(/\/+$/, '') + '/api/v1/hub';
    this.tokens = options.tokens;
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.timeoutMs = options.timeoutMs ?? 15_000;
    if (options.onDropped) this.onDropped = options.onDropped;
  }

  /** De-duplicated, sorted tags of the published tables. */
  async publishedTags(options: RequestOptions = {}): Promise<string[]> {
    const data = await this.get('/projects/published-tags', '', options.signal);
    const list = listOf(data);
    if (!list) throw invalid('published-tags', 'data.list is not an array');
    return list.filter((tag): tag is string => typeof tag === 'string' && tag !== '');
  }

  /** Published tables, those matching any of `tags` first. */
  async publishedList(options: PublishedListOptions = {}): Promise<PublishedTable[]> {
    const params: string[] = [];
    const tags = (options.tags ?? []).filter((tag) => tag.trim() !== '');
    const withComma = tags.find((tag) => tag.includes(','));
    if (withComma !== undefined) throw new HubError('config', `The tag "${withComma}" contains a comma, which the API uses to separate tags.`);
    if (tags.length) params.push(`tags=${encodeURIComponent(tags.join(','))}`);
    if (options.limit !== undefined) {
      if (!Number.isSafeInteger(options.limit) || options.limit < 1) throw new HubError('config', `limit must be a positive whole number, not ${options.limit}.`);
      params.push(`limit=${options.limit}`);
    }
    const data = await this.get('/projects/published-list', params.join('&'), options.signal);
    const list = listOf(data);
    if (!list) throw invalid('published-list', 'data.list is not an array');
    const tables = list.map(toTable).filter((table): table is PublishedTable => table !== undefined);
    if (tables.length < list.length) this.onDropped?.(list.length - tables.length);
    return tables;
  }

  private async get(path: string, query: string, signal?: AbortSignal): Promise<unknown> {
    const url = this.api + path + (query ? `?${query}` : '');
    let token = await this.tokens.get(signal ? { signal } : {});
    let response = await this.send(url, token, signal);
    if (response.status === 401) {
      // One retry with a fresh token: the old one may have expired or been revoked meanwhile.
      this.tokens.invalidate(token);
      token = await this.tokens.get(signal ? { signal } : {});
      response = await this.send(url, token, signal);
      if (response.status === 401) {
        throw new HubError('unauthorized', 'The service refused a fresh token (HTTP 401); check the API key behind the token endpoint.', { status: 401 });
      }
    }
    return this.unwrap(response, path);
  }

  private async send(url: string, token: string, signal?: AbortSignal): Promise<Response> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.timeoutMs);
    const forward = () => controller.abort();
    signal?.addEventListener('abort', forward, { once: true });
    try {
      if (signal?.aborted) throw abortError();
      return await this.fetchImpl(url, {
        headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
        signal: controller.signal,
      });
    } catch (error) {
      if (timedOut) throw new HubError('timeout', `The service did not answer within ${this.timeoutMs / 1000} s; try again.`, { cause: error });
      if (signal?.aborted || error instanceof HubError) throw abortError();
      throw new HubError('network', 'Could not reach the service; check the connection and base-url.', { cause: error });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', forward);
    }
  }

  private async unwrap(response: Response, path: string): Promise<unknown> {
    let body: unknown;
    try {
      body = JSON.parse(await response.text());
    } catch {
      if (!response.ok) throw new HubError('api', `The service answered HTTP ${response.status} for ${path}; try again later.`, { status: response.status });
      throw invalid(path, 'the body is not JSON', response.status);
    }
    const envelope = body as { code?: unknown; message?: unknown; data?: unknown } | null;
    const isEnvelope = typeof envelope === 'object' && envelope !== null && 'code' in envelope;
    const code = isEnvelope && typeof envelope.code === 'number' ? envelope.code : undefined;
    const message = isEnvelope && typeof envelope.message === 'string' ? envelope.message : '';
    if (!response.ok || (isEnvelope && code !== 200)) {
      const options = { status: response.status, ...(code === undefined ? {} : { code }) };
      throw new HubError('api', `The service answered ${code ?? response.status}${message ? ` (${message})` : ''} for ${path}; try again later.`, options);
    }
    if (!isEnvelope) throw invalid(path, 'the body is not a {code, message, data} envelope', response.status);
    return envelope.data;
  }
}

function listOf(data: unknown): unknown[] | undefined {
  if (Array.isArray(data)) return data;
  const list = (data as { list?: unknown } | null)?.list;
  return Array.isArray(list) ? list : undefined;
}

function toTable(item: unknown): PublishedTable | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const raw = item as Record<string, unknown>;
  if (typeof raw.short_code !== 'string' || raw.short_code === '' || typeof raw.name !== 'string' || raw.name === '') return undefined;
  const table: PublishedTable = {
    short_code: raw.short_code,
    name: raw.name,
    industry: typeof raw.industry === 'string' ? raw.industry : '',
    tags: Array.isArray(raw.tags) ? raw.tags.filter((tag): tag is string => typeof tag === 'string' && tag !== '') : [],
  };
  const icon = safeHttpUrl(raw.icon);
  if (icon) table.icon = icon;
  if (typeof raw.total === 'number' && Number.isFinite(raw.total)) table.total = raw.total;
  return table;
}

function invalid(path: string, why: string, status?: number): HubError {
  return new HubError('invalid-response', `Unexpected answer from ${path}: ${why}. Check base-url points at the service.`, status === undefined ? {} : { status });
}
