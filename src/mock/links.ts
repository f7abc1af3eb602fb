/** The rules for a notification's `link_url`, as the simulator (playing the platform) sends it. */
import { MockHttpError } from './http.js';

/** Link paths in notifications are in-site paths: no scheme, no host, no token, no control characters. */
export function checkLinkUrl(value: string): string {
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\'))
    throw new MockHttpError(400, 'link_url must be an in-site path beginning with a single "/".');
  if (/[\u0000-\u001f\u007f]/.test(value))
    throw new MockHttpError(400, 'link_url must not contain control characters.');
  if (/[?&]token=/i.test(value))
    throw new MockHttpError(400, 'link_url must not contain a token; receivers append their own.');
  return value;
}
