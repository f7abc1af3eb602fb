/**
 * The security rules for links that carry a token, in one copy: the toolkit applies them when it builds
 * a form URL or a notification link (core/token-links.ts), the simulator when it plays the platform and
 * refuses to send a `link_url` that breaks them (mock/links.ts). This module imports nothing, so the
 * simulator can share it and still run on its own (docs/architecture.md, layers).
 */

/**
 * `text` with every %XX decoded, again and again until nothing changes: a server or proxy may decode
 * once more than we do (`%252e` is `%2e` after one pass, `.` after two). Bytewise, which is all the
 * checks below need: they look for ASCII.
 */
function decodeFully(text: string): string {
  let previous = '';
  let current = text;
  for (let pass = 0; pass < 8 && current !== previous; pass++) {
    previous = current;
    current = current.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
  return current;
}

/**
 * Whether a path has a dot segment (`.` or `..`) in any spelling a server may decode: `%2e` for a dot,
 * encoded once or more (`%252e`), `%2f`, `%5c` or a backslash for a slash, and a path parameter after it
 * (`..;x`, `..%3bx`), which some servers drop. An encoded slash alone is fine: a short code may contain one.
 */
export function hasDotSegment(path: string): boolean {
  return decodeFully(path)
    .replace(/\\/g, '/')
    .split('/')
    .some((segment) => /^\.\.?(;|$)/.test(segment));
}

const TOKEN_NAME = /^\s*token\s*(?:\[[^\]]*\])?\s*$/i;

/**
 * Whether a query pair (the text between two `&`) names `token` in any spelling a server may read it
 * in: any letter case (`TOKEN`), percent-encoded once or more (`%74oken`), with brackets (`token[]`,
 * `token[0]`: PHP and Rails read those as `token`), with spaces around it (PHP drops leading ones), or
 * after a `;`, which some servers take as a separator (`a=1;token=x`, and `&amp;token=x`).
 */
export function namesToken(pair: string): boolean {
  return pair.split(';').some((part) => TOKEN_NAME.test(decodeFully(part.split('=')[0]!.replace(/\+/g, ' '))));
}

/** A path parameter's separator: `;`, or `%3b` encoded once or more, which some servers decode first. */
const PARAMETER = /(;|%(?:25)*3b)/i;

/**
 * A path without any path parameter that names `token` (`/orders;token=x/42`, `/a;b=1;TOKEN=x`), which
 * servers that read path parameters (Java's, some routers) would take; the segments and their other
 * parameters stay as they were.
 */
export function pathWithoutToken(path: string): string {
  return path
    .split('/')
    .map((segment) => {
      const parts = segment.split(PARAMETER);
      let kept = parts[0]!;
      for (let at = 1; at < parts.length; at += 2) if (!namesToken(parts[at + 1]!)) kept += parts[at]! + parts[at + 1]!;
      return kept;
    })
    .join('/');
}

/**
 * A link's `#fragment` without any `token` a hash-mode router may read: the pairs after the fragment's
 * first `?` that name one (see namesToken), or the fragment's own pairs when it has no `?` (`#token=…`),
 * and the route's path parameters that name one (`#/p;token=…`). The route itself stays (`#/p`); a
 * fragment left empty goes. A fragment that names no token comes back unchanged.
 */
export function fragmentWithoutToken(hash: string): string {
  const body = hash.slice(1);
  const queryAt = body.indexOf('?');
  const pairs = (queryAt === -1 ? body : body.slice(queryAt + 1)).split('&');
  // Without a `?`, a fragment that starts as a route (`#/p…`, `#!/p…`) has the route as its first part.
  const head = queryAt !== -1 ? body.slice(0, queryAt) : /^!?\//.test(body) ? pairs.shift()! : '';
  const route = pathWithoutToken(head);
  if (route === head && !pairs.some(namesToken)) return hash;
  const kept = pairs.filter((pair) => pair !== '' && !namesToken(pair)).join('&');
  const separator = queryAt !== -1 ? '?' : route ? '&' : '';
  const rest = `${route}${kept ? separator + kept : ''}`;
  return rest ? `#${rest}` : '';
}

/**
 * Whether a link (fully decoded, as the last server or router in line may read it) still has a `token`
 * parameter anywhere: after `?`, `&`, `;` or `#`, in any case, with brackets. What the rules above
 * cannot take out (an encoded `?` before it, `%23token=`) makes a link that is refused, never sent.
 */
export function carriesToken(link: string): boolean {
  return /(?:^|[?&;#])\s*token\s*(?:\[[^\]]*\])?\s*(?:[=&;#]|$)/i.test(decodeFully(link).replace(/\+/g, ' '));
}
