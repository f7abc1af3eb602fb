/**
 * CORS for the API site. Browsers may call the Bearer endpoints from allowed origins; X-API-Key is
 * deliberately never an allowed header, so a browser page cannot use an API key cross-origin.
 */
import { isLoopbackHost } from '../../../src/core/loopback.js';
import { errorResponse } from './http.js';

const ALLOWED_HEADERS = 'Authorization, Content-Type';
const ALLOWED_METHODS = 'GET, POST, PUT, OPTIONS';

export function originAllowed(origin: string, allowed: string[] | 'loopback'): boolean {
  if (allowed !== 'loopback') return allowed.includes('*') || allowed.includes(origin);
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return (
    (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === origin && isLoopbackHost(url.hostname)
  );
}

export function corsHeaders(origin: string | null, allowed: string[] | 'loopback'): Record<string, string> {
  if (origin === null || !originAllowed(origin, allowed)) return {};
  return { 'access-control-allow-origin': origin, vary: 'Origin' };
}

/** Answers an OPTIONS preflight: 204 with the grant for allowed origins, 403 otherwise. */
export function preflight(req: Request, allowed: string[] | 'loopback'): Response {
  const origin = req.headers.get('origin');
  if (origin === null || !originAllowed(origin, allowed)) {
    return errorResponse(
      403,
      'This origin is not allowed to call the simulator from a browser; start it with --cors-origin.',
      { vary: 'Origin' },
    );
  }
  return new Response(null, {
    status: 204,
    headers: {
      'access-control-allow-origin': origin,
      'access-control-allow-methods': ALLOWED_METHODS,
      'access-control-allow-headers': ALLOWED_HEADERS,
      'access-control-max-age': '600',
      vary: 'Origin',
    },
  });
}
