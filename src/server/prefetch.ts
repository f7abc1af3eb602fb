/**
 * The token handler's prefetch: with the token it just gave out, it fetches the two answers the widget
 * asks for next (published-tags and published-list for the widget's load), so that the browser
 * needs one round trip before it can render instead of three (token, CORS preflight, GETs).
 */
import { LRUCache } from 'lru-cache';
import { HubError } from '../core/errors.js';
import { PUBLISHED_TAGS, canonicalTags, publishedListPath } from '../core/paths.js';
import type { TokenLoad } from '../core/token-source.js';
import type { ServerClient } from './server-client.js';
import { within } from './within.js';

/** What the token answer carries as `prefetched`: each answer's list, under the path it answers. */
export type PrefetchedAnswers = Record<string, unknown[]>;

export interface PrefetchOptions {
  /**
   * Share fetched answers between users for this long (ms), keyed by load. Off (0) by default. Safe
   * only because the spec describes published tags and tables as platform-wide, the same for every user
   * of a developer; if your service answers per user, leave it off.
   */
  cacheMs?: number;
  /**
   * With `cacheMs`: the most the shared lists may hold, in bytes (their JSON, two bytes a character).
   * Every load is a list of its own, so it is bounded by size, not count; the least recently used
   * go first, and a list larger than the whole bound is not kept. Default 4 MiB.
   */
  cacheBytes?: number;
  /**
   * The token answer waits at most this long (ms) for the prefetch, then goes without it and the widget
   * loads as usual. Default 3000.
   */
  timeoutMs?: number;
}

/** As many tags as the WebView bridge accepts in widget.setTags, each as long. */
export const MAX_SELECTED_TAGS = 100;
export const MAX_TAG_LENGTH = 200;
/** The spec leaves limit's maximum open; this keeps one prefetch to a page a browser would ask for. */
export const MAX_PREFETCH_LIMIT = 1000;

/** Control characters, and UTF-16 halves without their other half (no URL can carry those). */
const UNFIT = /[\u0000-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The `load` of a token request body, or undefined for anything odd: then there is simply no prefetch.
 * The body is the browser's, so nothing in it is trusted: tags must be an array of at most 100 strings of
 * at most 200 characters without commas or control characters (blank ones are left out, as the widget
 * does), limit a whole number from 1 to 1000.
 */
export function parseLoad(load: unknown): TokenLoad | undefined {
  if (typeof load !== 'object' || load === null || Array.isArray(load)) return undefined;
  const { tags = [], limit } = load as { tags?: unknown; limit?: unknown };
  if (!Array.isArray(tags) || tags.length > MAX_SELECTED_TAGS) return undefined;
  const fit = tags.every(
    (tag) => typeof tag === 'string' && tag.length <= MAX_TAG_LENGTH && !tag.includes(',') && !UNFIT.test(tag),
  );
  if (!fit) return undefined;
  if (
    limit !== undefined &&
    (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 1 || limit > MAX_PREFETCH_LIMIT)
  )
    return undefined;
  return limit === undefined ? { tags: canonicalTags(tags) } : { tags: canonicalTags(tags), limit };
}

export type Prefetcher = (accessToken: string, load: TokenLoad) => Promise<PrefetchedAnswers | undefined>;

export type CachingPrefetcher = Prefetcher & {
  /** Bytes the shared lists hold now (0 without cacheMs): what cacheBytes bounds. */
  readonly cachedBytes: number;
  /** How long an answer waits for it (ms), from the options or the default. */
  readonly timeoutMs: number;
};

/**
 * Fetches both answers in parallel with the user's own token. Never rejects: a failure (reported) or a
 * timeout gives undefined, and the token answer goes out without prefetched data.
 */
export function createPrefetcher(
  client: Pick<ServerClient, 'publishedTags' | 'publishedList'>,
  options: PrefetchOptions,
  report: (error: unknown) => void,
): CachingPrefetcher {
  const cacheMs = options.cacheMs ?? 0;
  const timeoutMs = options.timeoutMs ?? 3000;
  if (!Number.isSafeInteger(cacheMs) || cacheMs < 0)
    throw new HubError('config', 'prefetch.cacheMs must be a whole number of milliseconds, 0 (off) or more.');
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1)
    throw new HubError('config', 'prefetch.timeoutMs must be a whole number of milliseconds above 0.');
  const cacheBytes = options.cacheBytes ?? 4 * 1024 * 1024;
  if (!Number.isSafeInteger(cacheBytes) || cacheBytes < 1)
    throw new HubError('config', 'prefetch.cacheBytes must be a whole number of bytes above 0.');
  // One tags answer for every load; the lists, one per load, bounded by their size.
  const sharedTags = cacheMs > 0 ? new LRUCache<'tags', unknown[]>({ max: 1, ttl: cacheMs }) : undefined;
  const sharedLists =
    cacheMs > 0
      ? new LRUCache<string, unknown[]>({
          ttl: cacheMs,
          maxSize: cacheBytes,
          sizeCalculation: (list) => Math.max(1, JSON.stringify(list).length * 2),
        })
      : undefined;

  async function fetchBoth(accessToken: string, load: TokenLoad): Promise<PrefetchedAnswers> {
    const path = publishedListPath(load);
    const [tags, list] = await Promise.all([
      sharedTags?.get('tags') ?? client.publishedTags(accessToken),
      sharedLists?.get(path) ?? client.publishedList(accessToken, load),
    ]);
    sharedTags?.set('tags', tags);
    // lru-cache leaves out an entry larger than maxSize, and evicts others to make room for the rest.
    sharedLists?.set(path, list);
    return { [PUBLISHED_TAGS]: tags, [path]: list };
  }

  const prefetch: Prefetcher = (accessToken, load) => {
    const fetched = fetchBoth(accessToken, load).catch((error: unknown) => {
      report(error);
      return undefined;
    });
    return within(fetched, timeoutMs, () => undefined);
  };
  // A getter, read when asked (Object.assign would copy its value once).
  return Object.defineProperties(prefetch, {
    cachedBytes: { get: () => sharedLists?.calculatedSize ?? 0 },
    timeoutMs: { value: timeoutMs },
  }) as CachingPrefetcher;
}
