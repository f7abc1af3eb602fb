/**
 * The links that carry a token: a form URL and a notification link. Only the form half (which loads on
 * intent), the server toolkit and the grader build them, so they live apart from the addresses every first
 * load checks (urls.ts): a page's bundler then keeps them, and the link rules, out of the first file.
 */
import { HubError } from './errors.js';
import { isText } from './http.js';
import { carriesToken, fragmentWithoutToken, hasDotSegment, namesToken, pathWithoutToken } from './link-rules.js';
import { parseFormSite } from './urls.js';

function encode(value: string, what: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    // encodeURIComponent throws on lone surrogates, which no real short code or token contains.
    throw new HubError('config', `Fix the ${what}: bad Unicode.`);
  }
}

/**
 * `{form_url}/<short_code>?token=<token>`, both parts encoded with encodeURIComponent semantics.
 * A query already in formUrl is kept (token appended with `&`); a hash stays last. A short code that
 * is a dot segment in any spelling a server may decode (`..`, `../x` sent as `..%2Fx`, `%2e%2e`, `..;x`)
 * is refused, as in notification links: the form site could read the token-bearing URL as one above
 * its root. The spec's codes are opaque names such as `k3Xp9a`.
 */
export function buildFormUrl(formUrl: string, shortCode: string, token: string): string {
  if (!isText(shortCode)) throw new HubError('config', 'Use a short code.');
  if (!isText(token)) throw new HubError('config', 'Get a token first.');
  const url = parseFormSite(formUrl);
  const segment = encode(shortCode, 'short code');
  if (hasDotSegment(segment)) throw new HubError('config', 'Use a short code without dot segments.');
  url.pathname = url.pathname.replace(/\/$/, '') + '/' + segment;
  url.search = appendToken(url.search, token);
  return url.href;
}

function appendToken(search: string, token: string): string {
  // '' and '?' become '?', '?a=1' becomes '?a=1&', and '?a=1&' stays.
  return (/[?&]$/.test(search) ? search : search + (search ? '&' : '?')) + 'token=' + encode(token, 'token');
}

/** The query without any pair that could be read as a `token` parameter (see namesToken). */
function withoutToken(query: string): string {
  return query
    .split('&')
    .filter((pair) => pair !== '' && !namesToken(pair))
    .join('&');
}

/**
 * A notification's in-site `link_url` made into a full link (spec, Events): the form-site root
 * prepended, the token appended as query `token` before any `#fragment`. A `token` already in the
 * link, in its query, its path parameters (`/p;token=`) or its fragment (`#/p?token=`, `#/p;token=`, which
 * a hash-mode router reads), is dropped in every spelling a server may read (any case, percent-encoded,
 * brackets, after a `;`), since the form site might read that one and the link comes from outside; the
 * route stays, and a pair that carries one after a `;` goes whole. A token no rule can take out is
 * refused. Dot segments are refused in every spelling, so a link cannot climb above the root.
 */
export function buildNotificationLink(formSiteRoot: string, linkUrl: string, token: string): string {
  if (typeof token !== 'string' || token === '') {
    throw new HubError('config', 'A notification link needs a token for its target user.');
  }
  // `//host` and `/\host` would leave the form site; control characters are silently dropped by URL
  // parsers, which could turn a harmless-looking link into one of those.
  if (
    typeof linkUrl !== 'string' ||
    !linkUrl.startsWith('/') ||
    /^\/[/\\]/.test(linkUrl) ||
    /[\u0000-\u001f\u007f\\]/.test(linkUrl)
  ) {
    throw new HubError(
      'config',
      `The notification link "${String(linkUrl)}" must be an in-site path beginning with a single "/".`,
    );
  }
  const root = parseFormSite(formSiteRoot, 'the form-site root');
  const hashAt = linkUrl.indexOf('#');
  const beforeHash = hashAt === -1 ? linkUrl : linkUrl.slice(0, hashAt);
  const hash = hashAt === -1 ? '' : fragmentWithoutToken(linkUrl.slice(hashAt));
  const queryAt = beforeHash.indexOf('?');
  const path = queryAt === -1 ? beforeHash : beforeHash.slice(0, queryAt);
  if (hasDotSegment(path))
    throw new HubError('config', `The notification link "${linkUrl}" has a dot segment; use a plain path.`);
  const query = withoutToken(queryAt === -1 ? '' : beforeHash.slice(queryAt + 1));
  const route = pathWithoutToken(path);
  // What no rule above can take out (an encoded `?` or `#` before a token) is refused, never sent on.
  if (carriesToken(`${route}?${query}${hash}`))
    throw new HubError(
      'config',
      `The notification link "${linkUrl}" carries a token that cannot be taken out; send link_url without one.`,
    );
  const rootPath = root.pathname.replace(/\/$/, '');
  const link = new URL(
    `${root.origin}${rootPath}${route}?${query ? query + '&' : ''}token=${encode(token, 'token')}${hash}`,
  );
  if (link.origin !== root.origin || !link.pathname.startsWith(rootPath + '/'))
    throw new HubError('config', `The notification link "${linkUrl}" leaves the form site.`);
  return link.href;
}
