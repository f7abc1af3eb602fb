/** The fault run's stated rules, as pure functions so that they have their own tests. */

/**
 * Upper bound on POST /api/hub-token requests from one page over `elapsedMs`.
 * The token handler hands out a cached token only while more than half its ttl is left, with
 * expires_in rounded down to whole seconds, so the widget receives at least floor(ttl / 2) s of life;
 * it keeps a short-lived token for half of that (src/core/token-source.ts), so expiry alone causes at
 * most one request per floor(ttl / 2) / 2 s, plus the first. On top: each form open asks for a token
 * valid for 60 s (more than a 5 s ttl, so one request per open), each failed answer is asked again,
 * and each 401 from the service invalidates the token once.
 */
export function tokenRequestBound(input: {
  elapsedMs: number;
  ttlSeconds: number;
  opens: number;
  failed: number;
  unauthorized: number;
}): number {
  const { elapsedMs, ttlSeconds, opens, failed, unauthorized } = input;
  if (!(ttlSeconds >= 2)) throw new RangeError('ttlSeconds must be at least 2 for the bound to hold.');
  const keptMs = (Math.floor(ttlSeconds / 2) * 1000) / 2;
  return Math.ceil(elapsedMs / keptMs) + 1 + opens + failed + unauthorized;
}

/**
 * Chromium logs every failed resource load as a console error, with no way to silence it from the page.
 * Exactly these are expected under fault injection: "Failed to load resource" for a URL on the
 * simulator's API origin (500s, dropped connections, icons) or for the token endpoint (502 after a
 * dropped upstream exchange). And the widget's own report of the errors those faults cause (each distinct
 * one once, "hub-embed: …"): a 5xx answer, an unreachable service or a timeout, never another kind
 * (a config error or a malformed answer still counts). Everything else counts.
 */
export function expectedConsoleError(
  entry: { text: string; url: string },
  where: { apiOrigin: string; tokenUrl: string },
): boolean {
  if (entry.text.startsWith('hub-embed: ')) {
    const message = entry.text.split('\n')[0]!;
    return / answered 5\d\d[ ;(]| unreachable; | timed out; /.test(message);
  }
  if (!entry.text.startsWith('Failed to load resource')) return false;
  return entry.url.startsWith(`${where.apiOrigin}/`) || entry.url === where.tokenUrl;
}
