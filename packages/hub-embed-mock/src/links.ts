/**
 * The rules for a notification's `link_url`, as the simulator (playing the platform) sends it: the
 * toolkit's own rules (src/core/link-rules.ts, the one copy both sides import), with 400 answers.
 * test/fixtures/notification-links.ts holds the vectors both sides are tested with.
 */
import { carriesToken, fragmentWithoutToken, hasDotSegment, namesToken } from '../../../src/core/link-rules.js';
import { MockHttpError } from './http.js';

/** Link paths in notifications are in-site paths: no scheme, no host, no token, no control characters. */
export function checkLinkUrl(value: string): string {
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\'))
    throw new MockHttpError(400, 'link_url must be an in-site path beginning with a single "/".');
  if (/[\u0000-\u001f\u007f]/.test(value))
    throw new MockHttpError(400, 'link_url must not contain control characters.');
  const hashAt = value.indexOf('#');
  const beforeHash = hashAt === -1 ? value : value.slice(0, hashAt);
  const hash = hashAt === -1 ? '' : value.slice(hashAt);
  const queryAt = beforeHash.indexOf('?');
  const path = queryAt === -1 ? beforeHash : beforeHash.slice(0, queryAt);
  if (hasDotSegment(path))
    throw new MockHttpError(400, 'link_url must not contain "." or ".." segments in any spelling (%2e, %2f).');
  if (
    (queryAt !== -1 &&
      beforeHash
        .slice(queryAt + 1)
        .split('&')
        .some(namesToken)) ||
    fragmentWithoutToken(hash) !== hash ||
    carriesToken(value)
  )
    throw new MockHttpError(400, 'link_url must not contain a token; receivers append their own.');
  return value;
}
