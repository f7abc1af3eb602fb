/** allowedOrigins: checked when the token handler is made, and the CORS headers each request's Origin earns. */
import { HubError } from '../core/errors.js';

export function normaliseOrigins(origins: readonly string[]): Set<string> {
  // A JavaScript caller may pass anything. Array.isArray(origins) would narrow the typed list to any[].
  const given: unknown = origins;
  if (!Array.isArray(given))
    throw new HubError('config', 'allowedOrigins must be an array of origins, e.g. ["https://app.example.com"].');
  return new Set(
    origins.map((origin) => {
      try {
        const url = new URL(origin);
        if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin !== origin.replace(/\/$/, ''))
          throw new Error();
        return url.origin;
      } catch {
        throw new HubError(
          'config',
          `allowedOrigins entry "${String(origin)}" is not an origin; use scheme://host[:port] without a path.`,
        );
      }
    }),
  );
}

/**
 * No headers without allowedOrigins; with them `Vary: Origin`, plus the allow-origin and credentials
 * headers when `origin` is one of them.
 */
export function corsHeaders(origins: Set<string> | undefined, origin: string | null): Record<string, string> {
  const cors: Record<string, string> = {};
  if (origins) {
    cors.vary = 'Origin';
    if (origin !== null && origins.has(origin)) {
      cors['access-control-allow-origin'] = origin;
      cors['access-control-allow-credentials'] = 'true';
    }
  }
  return cors;
}
