/**
 * The service's Bearer paths the widget asks for, relative to the API root's `projects/` (see apiBaseUrl). The
 * browser's client asks for them, and a token endpoint with prefetch (server/prefetch.ts) sends its
 * answers under the same paths, so both sides take them from here.
 */
import { HubError } from './errors.js';

/** The tags of the published tables. */
export const PUBLISHED_TAGS = 'published-tags';

/**
 * The tags a list is asked for: blank ones left out, de-duplicated and sorted (by UTF-16 code unit, as
 * Array.prototype.sort does), so that one selection is always one URL, whatever order the user picked the
 * tags in: one CORS preflight and one HTTP cache entry per selection.
 */
export function canonicalTags(tags: readonly string[]): string[] {
  return [...new Set(tags.filter((tag) => tag.trim()))].sort();
}

/**
 * `published-list` and its query for these tags and limit: the URL the widget asks for, and the key a
 * token endpoint's prefetched list is sent under.
 */
export function publishedListPath({ tags = [], limit }: { tags?: readonly string[]; limit?: number }): string {
  const sorted = canonicalTags(tags);
  const withComma = sorted.find((tag) => tag.includes(','));
  if (withComma) throw new HubError('config', `Remove the comma from tag "${withComma}".`);
  let query = sorted.length ? '&tags=' + encodeURIComponent(sorted.join(',')) : '';
  if (limit !== undefined) {
    if (!Number.isSafeInteger(limit) || limit < 1) throw new HubError('config', 'Set limit to an integer >= 1.');
    query += '&limit=' + limit;
  }
  // Each parameter comes with its `&`; the first one starts the query instead.
  return 'published-list' + query.replace('&', '?');
}
