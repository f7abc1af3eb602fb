/**
 * The console's web page at {api}/console/: a static HTML shell and the Lit bundle (console-ui/,
 * bundled ahead of time by scripts/console-bundle.mjs), served from memory so that the simulator
 * serves the same console from dist, from the sources and in process. Strict CSP: scripts and styles
 * only from this origin (Lit's styles are constructed stylesheets, which CSP allows), no framing.
 */
import type { Route } from './context.js';
import { CONSOLE_SCRIPT } from './console-ui/bundle.generated.js';
import { OPENAPI_TEXT, REFERENCE_CSS, referencePage } from './console-reference.js';

export const CONSOLE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "base-uri 'none'; form-action 'self'; frame-ancestors 'none'; object-src 'none'";

const SHELL = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="color-scheme" content="light dark">
    <title>Simulator console</title>
    <link rel="icon" href="data:,">
    <link rel="stylesheet" href="/console/app.css">
    <script src="/console/app.js" defer></script>
  </head>
  <body>
    <hub-console></hub-console>
    <noscript>The console needs JavaScript; the JSON endpoints under /console/ work without it (docs/simulator.md).</noscript>
  </body>
</html>
`;

const SECURITY_HEADERS = {
  'content-security-policy': CONSOLE_CSP,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
};

function asset(path: string, type: string, body: string): Route {
  return {
    method: 'GET',
    path,
    handle: () => new Response(body, { headers: { 'content-type': type, ...SECURITY_HEADERS } }),
  };
}

export function consolePageRoutes(): Route[] {
  return [
    {
      method: 'GET',
      path: '/console',
      handle: () => new Response(null, { status: 308, headers: { location: '/console/' } }),
    },
    asset('/console/', 'text/html; charset=utf-8', SHELL),
    asset('/console/app.js', 'text/javascript; charset=utf-8', CONSOLE_SCRIPT),
    // The page's own margin; everything else is styled inside the elements.
    asset('/console/app.css', 'text/css; charset=utf-8', 'html, body { margin: 0; background: Canvas; }\n'),
    // The API reference, rendered from openapi.json (console-reference.ts), and the file itself.
    {
      method: 'GET',
      path: '/console/reference',
      handle: () =>
        new Response(referencePage(), { headers: { 'content-type': 'text/html; charset=utf-8', ...SECURITY_HEADERS } }),
    },
    asset('/console/reference.css', 'text/css; charset=utf-8', REFERENCE_CSS),
    asset('/console/openapi.json', 'application/json; charset=utf-8', OPENAPI_TEXT),
  ];
}
