/**
 * The token route's CORS: allowedOrigins, allowedHeaders and allowMissingOrigin, checked when the handler
 * is made, and the headers and the verdict each request's Origin earns.
 */
import { HubError } from '../core/errors.js';

export interface CorsOptions {
  allowedOrigins?: readonly string[];
  allowedHeaders?: readonly string[];
  allowMissingOrigin?: boolean;
}

export interface CorsPolicy {
  /** No headers without allowedOrigins; with them `Vary: Origin`, plus allow-origin and credentials for a listed one. */
  headers(origin: string | null): Record<string, string>;
  /** The preflight's extra headers, for an Origin that `headers` admitted. */
  preflight: Record<string, string>;
  /** Whether a POST with this Origin is refused (403). */
  refuses(origin: string | null): boolean;
}

/** Schemes whose pages never send their own origin (opaque: "null"), or that a URL parser treats specially. */
const NOT_APP_SCHEMES = new Set(['http', 'https', 'file', 'data', 'blob', 'javascript', 'about', 'ws', 'wss', 'ftp']);

/**
 * A hybrid shell's origin (`capacitor://localhost`, `ionic://localhost`, `myapp://app.example`), parsed by
 * hand: Node's URL gives such an origin as "null", and "null" must never be an allowed origin. Lowercase
 * only, as WebViews send it; a host of letters, digits, dots and hyphens; an optional port.
 */
const APP_ORIGIN =
  /^([a-z][a-z0-9+.-]*):\/\/([a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*)(?::([0-9]{1,5}))?\/?$/;

/** The origin as a browser or WebView sends it in `Origin`, or undefined when `text` is not one. */
export function parseOrigin(text: string): string | undefined {
  if (/^https?:\/\//.test(text)) {
    // The web's own schemes: the URL parser knows their default ports and the forms of IP addresses.
    try {
      const { origin } = new URL(text);
      return origin === text.replace(/\/$/, '') ? origin : undefined;
    } catch {
      return undefined;
    }
  }
  const app = APP_ORIGIN.exec(text);
  if (!app) return undefined;
  const [, scheme, hostname, port] = app as unknown as [string, string, string, string | undefined];
  if (NOT_APP_SCHEMES.has(scheme) || (port !== undefined && (Number(port) > 65535 || port.startsWith('0'))))
    return undefined;
  return `${scheme}://${hostname}${port === undefined ? '' : `:${port}`}`;
}

function normaliseOrigins(origins: readonly string[]): Set<string> {
  // A JavaScript caller may pass anything. Array.isArray(origins) would narrow the typed list to any[].
  const given: unknown = origins;
  if (!Array.isArray(given))
    throw new HubError('config', 'allowedOrigins must be an array of origins, e.g. ["https://app.example.com"].');
  return new Set(
    origins.map((origin) => {
      const parsed = typeof origin === 'string' ? parseOrigin(origin) : undefined;
      if (parsed === undefined)
        throw new HubError(
          'config',
          `allowedOrigins entry "${String(origin)}" is not an origin; use scheme://host[:port] without a path, ` +
            'in lowercase (https://app.example.com, capacitor://localhost).',
        );
      return parsed;
    }),
  );
}

/** An HTTP field name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/i;

/** content-type (the element's JSON body needs it) and exactly the names given, lowercase, once each. */
function normaliseHeaders(names: readonly string[]): string {
  const given: unknown = names;
  if (!Array.isArray(given))
    throw new HubError('config', 'allowedHeaders must be an array of header names, e.g. ["authorization"].');
  const allowed = new Set(['content-type']);
  for (const name of names) {
    // `*` means every header to a browser (literally "*" with credentials): never what an integrator means.
    if (typeof name !== 'string' || !HEADER_NAME.test(name) || name === '*')
      throw new HubError(
        'config',
        `allowedHeaders entry "${String(name)}" is not a header name; name each header the app sends, e.g. "authorization".`,
      );
    allowed.add(name.toLowerCase());
  }
  return [...allowed].join(', ');
}

export function corsPolicy(options: CorsOptions): CorsPolicy {
  const { allowedOrigins, allowedHeaders, allowMissingOrigin } = options;
  // Each widening needs the origin check it loosens: alone it would mean nothing and hide a mistake.
  if (allowedOrigins === undefined && (allowedHeaders !== undefined || allowMissingOrigin !== undefined))
    throw new HubError(
      'config',
      'allowedHeaders and allowMissingOrigin only apply with allowedOrigins: name the origins that may call.',
    );
  if (allowMissingOrigin !== undefined && typeof allowMissingOrigin !== 'boolean')
    throw new HubError('config', 'allowMissingOrigin must be true or false.');
  const origins = allowedOrigins === undefined ? undefined : normaliseOrigins(allowedOrigins);
  const headers = (origin: string | null): Record<string, string> => {
    const cors: Record<string, string> = {};
    if (origins) {
      cors.vary = 'Origin';
      if (origin !== null && origins.has(origin)) {
        cors['access-control-allow-origin'] = origin;
        cors['access-control-allow-credentials'] = 'true';
      }
    }
    return cors;
  };
  return {
    headers,
    preflight: {
      'access-control-allow-methods': 'POST',
      'access-control-allow-headers': normaliseHeaders(allowedHeaders ?? []),
      'access-control-max-age': '600',
    },
    // Browsers send Origin on every POST, so a missing one is a native client: refused unless allowed.
    refuses: (origin) =>
      origins !== undefined &&
      (origin === null ? allowMissingOrigin !== true : headers(origin)['access-control-allow-origin'] === undefined),
  };
}
