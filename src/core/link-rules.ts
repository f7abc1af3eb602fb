/**
 * The security rules for links that carry a token, in one copy: the toolkit applies them when it builds
 * a form URL or a notification link (core/urls.ts), the simulator when it plays the platform and
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

/**
 * Whether a query pair (the text between two `&`) names `token` in any spelling a server may read it
 * in: any letter case (`TOKEN`), percent-encoded once or more (`%74oken`), or after a `;`, which some
 * servers take as a separator (`a=1;token=x`).
 */
export function namesToken(pair: string): boolean {
  return pair.split(';').some((part) => decodeFully(part.split('=')[0]!.replace(/\+/g, ' ')).toLowerCase() === 'token');
}

/**
 * A link's `#fragment` without any pair that names `token` (see namesToken). A hash-mode router reads
 * `#/orders?token=…` as its own query, and would take that token instead of the one appended to the link's
 * query; so the pairs after the fragment's first `?` go, or the fragment's own pairs when it has no `?`
 * (`#token=…`), and a fragment left empty goes too. A fragment that names no token comes back unchanged.
 */
export function fragmentWithoutToken(hash: string): string {
  const body = hash.slice(1);
  const queryAt = body.indexOf('?');
  const pairs = (queryAt === -1 ? body : body.slice(queryAt + 1)).split('&');
  if (!pairs.some(namesToken)) return hash;
  const head = queryAt === -1 ? '' : body.slice(0, queryAt);
  const kept = pairs.filter((pair) => pair !== '' && !namesToken(pair)).join('&');
  const rest = `${head}${kept ? (queryAt === -1 ? '' : '?') + kept : ''}`;
  return rest ? `#${rest}` : '';
}
