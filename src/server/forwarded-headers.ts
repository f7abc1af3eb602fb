/**
 * The request headers in which a proxy may name the client's address, read as lists of hops, first
 * hop first. Each hop is text; the address filter (addresses.ts) refuses any hop it must judge that is
 * not a canonical IP address, and decides which header to believe. This file only reads them.
 */

/** Headers that list the hops as X-Forwarded-For does, client first, separated by commas. */
const COMMA_CHAINS = new Set(['x-forwarded-for', 'x-original-forwarded-for', 'forwarded-for']);

/**
 * The hops a client-address header lists, first hop first, or undefined for a header that names one
 * address. `X-Forwarded` is written both ways, RFC 7239's `for=` and X-Forwarded-For's list: read as
 * the one its value is.
 */
export function hopsIn(header: string, value: string): string[] | undefined {
  if (header === 'forwarded' || (header === 'x-forwarded' && /(^|[;,\s])for=/i.test(value)))
    return forwardedHops(value);
  if (COMMA_CHAINS.has(header) || header === 'x-forwarded') return forwardedForHops(value);
  return undefined;
}

/** `text` split at `separator` outside double-quoted strings (where `\` escapes the next character). */
function splitOutsideQuotes(text: string, separator: ',' | ';'): string[] {
  const parts: string[] = [];
  let part = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quoted && char === '\\') {
      part += char + (text[index + 1] ?? '');
      index++;
    } else if (char === separator && !quoted) {
      parts.push(part);
      part = '';
    } else {
      if (char === '"') quoted = !quoted;
      part += char;
    }
  }
  parts.push(part);
  return parts;
}

/**
 * `Forwarded` (RFC 7239) as the `for=` node of each element: `for=192.0.2.60;proto=http, for="[2001:db8::17]:4711"`
 * gives `192.0.2.60` and `2001:db8::17`. An element without `for` gives '' (a hop nobody can judge);
 * `unknown` and obfuscated `_names` stay as they are and are no address either.
 */
export function forwardedHops(value: string): string[] {
  return splitOutsideQuotes(value, ',').map((element) => {
    const pairs = splitOutsideQuotes(element, ';').map((pair) => pair.trim());
    const forPair = pairs.find((pair) => /^for=/i.test(pair));
    return forPair === undefined ? '' : forwardedNode(forPair.slice(4));
  });
}

/** A `for=` node without quotes, brackets or port: `192.0.2.60`, `"192.0.2.60:4711"`, `"[2001:db8::17]:4711"`. */
function forwardedNode(raw: string): string {
  const quoted = /^"((?:[^"\\]|\\.)*)"$/.exec(raw);
  const node = quoted ? quoted[1]!.replace(/\\(.)/g, '$1') : raw;
  // RFC 7239 brackets an IPv6 address and quotes any node with a port or brackets.
  const bracketed = /^\[([^\]]*)\](:\d{1,5})?$/.exec(node);
  if (bracketed) return quoted ? bracketed[1]! : '';
  const withPort = /^([^:]*):\d{1,5}$/.exec(node);
  if (withPort) return quoted ? withPort[1]! : '';
  return node;
}

/** `X-Forwarded-For` as its entries. */
export function forwardedForHops(value: string): string[] {
  return value.split(',').map((entry) => entry.trim());
}
