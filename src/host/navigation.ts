/**
 * Which URLs may load inside the WebView. A WebView that follows any link becomes a browser without an
 * address bar, where a phishing page looks like the app. So only the widget page's and the form site's
 * origins load inside; other web links leave for the system browser (a Custom Tab, an
 * SFSafariViewController), and schemes that run script or read files go nowhere.
 *
 * The origin is read with a small parser of our own, not `new URL()`: React Native's URL (Hermes) has
 * no `origin`. It fails closed: any spelling it does not read exactly as a browser would (userinfo
 * tricks, backslashes, percent-encoded or unusual hosts) never counts as an allowed origin.
 */
export type NavigationDecision = 'load' | 'external' | 'blocked';

/**
 * Schemes a WebView must never be sent to, nor hand to the system: they run script or read local files.
 * Exported as data, with the two patterns below, for the checks of the Swift, Kotlin and Dart hosts.
 */
export const BLOCKED_SCHEMES: ReadonlySet<string> = new Set([
  'javascript:',
  'data:',
  'file:',
  'blob:',
  'vbscript:',
  'content:',
  'intent:',
]);
/** `scheme://authority` at the start of an http(s) URL: the authority ends at the first `/`, `\`, `?` or `#`. */
export const ORIGIN_PATTERN = /^(https?:)\/\/([^/\\?#]*)(?:[/\\?#]|$)/i;
/** Letters, digits, dots and hyphens, an IPv6 literal, then an optional port: nothing a browser would rewrite. */
export const PLAIN_AUTHORITY = /^(?:[a-z\d.-]+|\[[\da-f:.]+\])(?::\d{1,5})?$/;
const DEFAULT_PORT: Record<string, string> = { 'http:': ':80', 'https:': ':443' };

/**
 * `scheme://host[:port]` of an http(s) URL, lower-cased, default port dropped; undefined for any other
 * URL and for any http(s) URL whose authority is not a plain host (userinfo, `%`, a backslash).
 */
export function originOf(url: string): string | undefined {
  const match = ORIGIN_PATTERN.exec(url);
  if (!match) return undefined;
  const scheme = match[1]!.toLowerCase();
  const authority = match[2]!.toLowerCase();
  if (!PLAIN_AUTHORITY.test(authority)) return undefined;
  const port = DEFAULT_PORT[scheme]!;
  return `${scheme}//${authority.endsWith(port) ? authority.slice(0, -port.length) : authority}`;
}

/** The exact origins (`https://widget.example`) of `origins`; anything else (a path, a wildcard) is a TypeError. */
export function exactOrigins(origins: readonly string[]): string[] {
  return origins.map((origin) => {
    if (originOf(origin) !== origin) {
      throw new TypeError(`allowedOrigins: "${origin}" is not an exact http(s) origin such as https://widget.example`);
    }
    return origin;
  });
}

export function decideNavigation(url: string, allowedOrigins: readonly string[]): NavigationDecision {
  // Browsers strip or drop these before parsing; a URL that carries them is not what it seems.
  if (typeof url !== 'string' || /[\u0000-\u0020\u007f-\u009f\u2028\u2029]/.test(url)) return 'blocked';
  // about:blank and about:srcdoc are the WebView's own empty documents (frames start there).
  if (url === 'about:blank' || url === 'about:srcdoc') return 'load';
  const scheme = /^([a-z][a-z\d+.-]*:)/i.exec(url)?.[1]?.toLowerCase();
  if (!scheme || scheme === 'about:' || BLOCKED_SCHEMES.has(scheme)) return 'blocked';
  const origin = originOf(url);
  if (origin && allowedOrigins.includes(origin)) return 'load';
  // Other web pages, mailto:, tel: and other apps' schemes: the system decides what opens them.
  return 'external';
}
