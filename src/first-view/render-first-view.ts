/**
 * renderFirstView (hub-embed/server): the HTML of one <hub-embed> with its first view inside
 * (first-view-markup.ts), from the published-tags and published-list answers the token route's prefetch
 * fetches, through the same token handler and so its token cache and shared lists (page-lists.ts). The
 * element takes the view over in place (first-view-takeover.ts), once the view's mark says it was drawn for
 * the element's settings.
 */
import { HubError } from '../core/errors.js';
import { isText } from '../core/http.js';
import type { HubLocale } from '../core/locale.js';
import { PUBLISHED_TAGS, publishedListPath } from '../core/paths.js';
import type { PublishedTable } from '../core/types.js';
import { toTable } from '../core/web-client.js';
import { otherLocales } from '../components/locales/other-locales.js';
import { stringsFor, type WidgetStrings } from '../components/strings.js';
import { pageListsOf } from '../server/page-lists.js';
import { parseLoad } from '../server/prefetch.js';
import type { TokenHandler } from '../server/token-handler.js';
import { embedElement, firstViewMarkup } from './first-view-markup.js';

/** The settings of the <hub-embed> to write, as its attributes (see the element's reference). */
export interface FirstViewElement {
  tokenEndpoint?: string;
  baseUrl?: string;
  formUrl?: string;
  tags?: readonly string[];
  limit?: number;
  matchesOnly?: boolean;
  theme?: 'light' | 'dark' | 'auto';
  openMode?: 'modal' | 'inline' | 'navigate';
}

export interface FirstViewOptions {
  /**
   * The page's token route (createTokenHandler, with `prefetch` on): the view is drawn from the lists its
   * prefetch fetches for the page's user, through its token cache and shared lists, and the page waits no
   * longer than its prefetch's `timeoutMs`.
   */
  tokens: TokenHandler;
  /**
   * The page's request, for the handler's resolveClientUserId: whoever it names, the lists are fetched with
   * their token, which is never written into the HTML. Signed out, the element comes without a first view.
   */
  request: Request;
  element: FirstViewElement;
  /** The page's language: the view's texts, and the element's `locale`, so that both say the same. */
  locale: HubLocale;
  /** The nonce of the page's Content-Security-Policy for styles, written on each <style> of the view. */
  styleNonce?: string;
}

/** Every locale's texts: a server writes the page's language at once, where a browser loads its table. */
const TEXTS: Record<HubLocale, WidgetStrings> = { en: stringsFor('en'), ...otherLocales };

const URL_SETTINGS = { tokenEndpoint: 'token-endpoint', baseUrl: 'base-url', formUrl: 'form-url' } as const;
const CHOICES = { theme: ['light', 'dark', 'auto'], openMode: ['modal', 'inline', 'navigate'] } as const;
/** Controls, which no setting of the element holds. */
const CONTROL = /[\u0000-\u001f\u007f]/;

const refuse = (message: string): never => {
  throw new HubError('config', `renderFirstView: ${message}`);
};

/**
 * A URL setting as the element takes it: http(s), absolute or relative to the page, without a user name or
 * password (the page would show them to every visitor).
 */
function urlSetting(name: string, value: unknown): string {
  if (typeof value !== 'string' || !value || CONTROL.test(value))
    return refuse(`${name} must be a non-empty string without control characters.`);
  let url: URL;
  try {
    url = new URL(value, 'https://page.invalid/');
  } catch {
    return refuse(`${name} is not a URL.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return refuse(`${name} must be an http(s) URL.`);
  if (url.username || url.password) return refuse(`${name} must not hold a user name or password.`);
  return value;
}

/** The element's attributes, in the order its reference lists them, each checked as the element reads it. */
function attributesOf(element: FirstViewElement, locale: HubLocale, tags: readonly string[], limit?: number) {
  const attributes: [string, string | true][] = [];
  for (const [key, name] of Object.entries(URL_SETTINGS) as [keyof typeof URL_SETTINGS, string][])
    if (element[key] !== undefined) attributes.push([name, urlSetting(key, element[key])]);
  if (tags.length) attributes.push(['tags', tags.join(',')]);
  if (limit !== undefined) attributes.push(['limit', String(limit)]);
  if (element.matchesOnly) attributes.push(['matches-only', true]);
  for (const [key, allowed] of Object.entries(CHOICES) as [keyof typeof CHOICES, readonly string[]][]) {
    const value = element[key];
    if (value === undefined) continue;
    if (!allowed.includes(value)) refuse(`${key} must be one of ${allowed.join(', ')}.`);
    attributes.push([key === 'openMode' ? 'open-mode' : key, value]);
  }
  attributes.push(['locale', locale]);
  return attributes;
}

/**
 * The HTML of one `<hub-embed>` with its first view (the tag filter, the first screen of cards and the count,
 * in `locale`) as declarative shadow DOM. When the lists fail or are later than the prefetcher's timeoutMs,
 * the element without a first view: it loads as it does without one. Options that are not what the element
 * takes throw a `config` HubError naming the option, before any request.
 */
export async function renderFirstView(options: FirstViewOptions): Promise<string> {
  const { tokens, request, element, locale, styleNonce } = options ?? {};
  const pageLists = pageListsOf(tokens);
  if (!pageLists) return refuse("tokens must be the page's token route (createTokenHandler).");
  // A Request of any realm or framework (NextRequest, a polyfill's): what resolveClientUserId reads.
  if (typeof request?.headers?.get !== 'function')
    refuse("request must be the page's Request, for the token route's resolveClientUserId.");
  if (!Object.hasOwn(TEXTS, locale)) refuse(`locale must be one of ${Object.keys(TEXTS).join(', ')}.`);
  if (styleNonce !== undefined && (!isText(styleNonce) || CONTROL.test(styleNonce)))
    refuse('styleNonce must be a non-empty string without control characters.');
  if (typeof element !== 'object' || element === null) refuse("element must be an object of the element's settings.");
  // As the element reads its `tags` attribute: trimmed, blank ones left out.
  const tags =
    element.tags === undefined ? [] : Array.isArray(element.tags) ? element.tags : refuse('tags must be an array.');
  const trimmed = tags.map((tag: unknown) => (typeof tag === 'string' ? tag.trim() : tag)).filter((tag) => tag !== '');
  const load = parseLoad(element.limit === undefined ? { tags: trimmed } : { tags: trimmed, limit: element.limit });
  if (!load)
    return refuse(
      'tags must be at most 100 strings of at most 200 characters without commas or control characters, ' +
        'and limit a whole number from 1 to 1000.',
    );
  const attributes = attributesOf(element, locale, trimmed as string[], load.limit);

  const lists = await pageLists(request, load);
  const tagsAnswer = lists?.answers[PUBLISHED_TAGS];
  const listAnswer = lists?.answers[publishedListPath(load)];
  const html = firstViewMarkup({
    attributes,
    strings: TEXTS[locale],
    offered: (tagsAnswer ?? []).filter(isText),
    tables: (listAnswer ?? [])
      .map(toTable)
      .filter((table): table is PublishedTable => !!table)
      .slice(0, load.limit),
    selected: trimmed as string[],
    matchesOnly: element.matchesOnly === true,
    styleNonce,
  });
  // Without both answers there is no first view to draw; a token that came back inside a service's answer
  // must not reach the page either.
  if (!tagsAnswer || !listAnswer || html.includes(lists.accessToken)) return embedElement(attributes);
  return html;
}
