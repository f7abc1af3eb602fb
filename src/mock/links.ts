/**
 * The rules for a notification's `link_url`, as the simulator (playing the platform) sends it. They
 * are the toolkit's rules (src/core/urls.ts, buildNotificationLink) written again, because the
 * simulator shares only types with the rest; test/fixtures/notification-links.ts holds the vectors
 * both sides are tested with.
 */
import { MockHttpError } from './http.js';

/** Every %XX decoded until nothing changes (`%252e` is `.` after two passes), bytewise. */
function decodeFully(text: string): string {
  let previous = '';
  let current = text;
  for (let pass = 0; pass < 8 && current !== previous; pass++) {
    previous = current;
    current = current.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
  return current;
}

/** `.` or `..` as a segment in any spelling a server may decode (%2e, %252e, %2f, %5c, `..;x`, `..%3bx`). */
function hasDotSegment(path: string): boolean {
  return decodeFully(path)
    .replace(/\\/g, '/')
    .split('/')
    .some((segment) => /^\.\.?(;|$)/.test(segment));
}

/** A `token` parameter in any spelling a server may read: any case, percent-encoded, after a `;`. */
function hasToken(query: string): boolean {
  return query
    .split(/[&;]/)
    .some((part) => decodeFully(part.split('=')[0]!.replace(/\+/g, ' ')).toLowerCase() === 'token');
}

/** Link paths in notifications are in-site paths: no scheme, no host, no token, no control characters. */
export function checkLinkUrl(value: string): string {
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\'))
    throw new MockHttpError(400, 'link_url must be an in-site path beginning with a single "/".');
  if (/[\u0000-\u001f\u007f]/.test(value))
    throw new MockHttpError(400, 'link_url must not contain control characters.');
  const beforeHash = value.split('#')[0]!;
  const queryAt = beforeHash.indexOf('?');
  const path = queryAt === -1 ? beforeHash : beforeHash.slice(0, queryAt);
  if (hasDotSegment(path))
    throw new MockHttpError(400, 'link_url must not contain "." or ".." segments in any spelling (%2e, %2f).');
  if (queryAt !== -1 && hasToken(beforeHash.slice(queryAt + 1)))
    throw new MockHttpError(400, 'link_url must not contain a token; receivers append their own.');
  return value;
}
