/**
 * Origins that are not the allowed one, by the class of mistake a matcher makes: `null` (sandboxed frames,
 * file: and data: pages send it; an allow-list that holds "null" or skips it lets them all in), the allowed
 * host as a suffix of another, another scheme, another port. The prefix class (the allowed origin with more
 * after it) is extendedOrigins in token-rules.ts.
 */
export interface OriginCase {
  origin: string;
  /** The class, as a report names it. */
  what: string;
}

export function originClasses(allowed: string): OriginCase[] {
  const url = new URL(allowed);
  const scheme = url.protocol.slice(0, -1);
  const otherScheme = scheme === 'https' ? 'http' : 'https';
  const port = url.port === '' ? (scheme === 'https' ? 443 : 80) : Number(url.port);
  const otherPort = port === 65535 ? port - 1 : port + 1;
  return [
    { origin: 'null', what: 'Origin: null (a sandboxed frame, a file: or data: page: any site can make one)' },
    { origin: `${scheme}://evil-${url.host}`, what: 'the allowed host as the suffix of another name' },
    { origin: `${scheme}://evil.${url.host}`, what: 'a subdomain of the allowed host (matched as a suffix)' },
    { origin: `${otherScheme}://${url.host}`, what: `the allowed host over ${otherScheme}` },
    { origin: `${scheme}://${url.hostname}:${otherPort}`, what: `the allowed host on port ${otherPort}` },
  ];
}
