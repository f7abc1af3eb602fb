// docs/frameworks.md's node:http first view, quoted from here (scripts/doc-regions.mjs), and served by
// test/e2e/first-view.test.ts as written.
// #region first-view
import type { IncomingMessage, ServerResponse } from 'node:http';
import { renderFirstView, type FirstViewElement, type TokenHandler } from 'hub-embed/server';

/** A page with the widget's first view, drawn for the request's user, and the script after the element. */
export function firstViewPage(options: { tokens: TokenHandler; element: FirstViewElement; script: string }) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const firstView = await renderFirstView({
      tokens: options.tokens,
      // Your session lookup reads the page request's cookie, as it reads the token request's.
      request: new Request(new URL(req.url ?? '/', 'http://localhost'), {
        headers: { cookie: req.headers.cookie ?? '' },
      }),
      element: options.element,
      locale: 'en',
    });
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Tables</title></head>
<body>
<main>${firstView}</main>
<script src="${options.script}" defer></script>
</body>
</html>`);
  };
}
// #endregion first-view
