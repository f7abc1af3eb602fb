/**
 * The rules for a notification's `link_url`, as the simulator (playing the platform) sends it. They
 * are the toolkit's rules (src/core/urls.ts, buildNotificationLink) written again, because the
 * simulator shares only types with the rest; test/fixtures/notification-links.ts holds the vectors
 * both sides are tested with.
 */
import { MockHttpError } from './http.js';

/** `.` or `..` as a segment in any spelling a server may decode (%2e, %2f, %5c, `..;x`). */
function hasDotSegment(path: string): boolean {
  const decoded = path.replace(/%2e/gi, '.').replace(/%2f|%5c|\\/gi, '/');
  return decoded.split('/').some((segment) => /^\.\.?(;|$)/.test(segment));
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
  if (queryAt !== -1 && new URLSearchParams(beforeHash.slice(queryAt + 1)).has('token'))
    throw new MockHttpError(400, 'link_url must not contain a token; receivers append their own.');
  return value;
}
