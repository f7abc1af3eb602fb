/**
 * What a token handler lends a page its server renders (renderFirstView): the lists the widget loads, fetched
 * for the page's user with the handler's own token cache and prefetch, so that the page and the token request
 * that follows it share one exchange and one fetch of each list.
 */
import type { TokenLoad } from '../core/token-source.js';
import type { PrefetchedAnswers } from './prefetch.js';

export interface PageLists {
  /** The token the lists were fetched with: never written into a page, only checked to be absent. */
  accessToken: string;
  answers: PrefetchedAnswers;
}

/**
 * The lists for `load` as the page's user may see them, or undefined when there is none to show: nobody is
 * signed in, the session or the service failed (reported), or the lists were later than the prefetch's
 * timeoutMs. Throws a `config` HubError when the handler has no prefetch.
 */
export type PageListsSource = (request: Request, load: TokenLoad) => Promise<PageLists | undefined>;

/**
 * Where a token handler keeps its page lists, for renderFirstView to find: a registered symbol, so that a
 * handler made by another copy of the package (an app bundling its server code twice) is found too.
 */
export const PAGE_LISTS = Symbol.for('hub-embed.page-lists.v1');

export function pageListsOf(handler: unknown): PageListsSource | undefined {
  if (typeof handler !== 'function') return undefined;
  return (handler as { [PAGE_LISTS]?: PageListsSource })[PAGE_LISTS];
}
