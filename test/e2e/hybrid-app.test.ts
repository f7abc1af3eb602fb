// A hybrid app (Capacitor, Ionic) as docs/webview-capacitor.md sets it up: the widget page on one origin
// (the shell's, here the harness's pages), the app's backend on another, holding the token route with
// allowedOrigins and allowedHeaders, and the app's session sent as a bearer header: no cookie anywhere.
// The widget must show cards and open a form; a page on a stranger origin must get no token.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { createServerClient, createTokenHandler, toNodeListener } from '../../src/server/index.js';
import { events, pageHtml, useHarness, waitFor, waitForReady, type Harness } from './harness.js';
import { perEngine, inEachEngine } from './engines/index.js';

const e2e = useHarness();

/** The app's own session token, as its sign-in stored it on the device. */
const SESSION = 'app-session-alice';

interface AppBackend {
  origin: string;
  /** The headers of each token request that reached the route. */
  seen: Record<string, string | string[] | undefined>[];
  server: Server;
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

/** The app's backend on an origin of its own: the token route exactly as the page documents it. */
async function startAppBackend(h: Harness): Promise<AppBackend> {
  const seen: AppBackend['seen'] = [];
  const handler = createTokenHandler({
    client: createServerClient({ apiKey: h.mock.apiKey, baseUrl: h.baseUrl }),
    // The app's session lookup: its bearer token, never a cookie and never a user id from the request.
    resolveClientUserId: (request) =>
      request.headers.get('authorization') === `Bearer ${SESSION}` ? 'user-alice' : null,
    allowedOrigins: [h.origin],
    allowedHeaders: ['authorization'],
  });
  const listener = toNodeListener(handler);
  const server = createServer((req, res) => {
    seen.push({ ...req.headers, method: req.method });
    listener(req, res);
  });
  return { origin: await listen(server), seen, server };
}

/**
 * The page of the app's web build, as docs/webview-capacitor.md writes it: the script, then the widget
 * made with its token provider set before it enters the page, so that its first token request has the header.
 */
function appPage(h: Harness, backend: string): string {
  const script = `<script src="${h.origin}/dist/hub-embed.iife.js"></script>`;
  const body = `<script>
  const session = '${SESSION}';
  const widget = document.createElement('hub-embed');
  widget.tokenProvider = HubEmbed.tokenFromEndpoint('${backend}/api/hub-token', {
    headers: () => ({ Authorization: 'Bearer ' + session }),
  });
  widget.setAttribute('base-url', '${h.baseUrl}');
  widget.setAttribute('form-url', '${h.formUrl}');
  widget.setAttribute('locale', 'en');
  document.body.append(widget);
</script>`;
  return pageHtml(script, body);
}

let backend: AppBackend | undefined;
perEngine({
  async setUp() {
    backend = await startAppBackend(e2e.harness);
  },
  async tearDown() {
    await new Promise<void>((resolve) => {
      backend?.server.close(() => resolve());
      backend?.server.closeAllConnections();
    });
    backend = undefined;
  },
});

inEachEngine(() => {
  describe('a hybrid app: widget page on one origin, token route on another', () => {
    it('with a bearer header and no cookie the widget shows cards and opens a form for the session user', async () => {
      const app = backend!;
      app.seen.length = 0;
      const w = await e2e.openPage('/hybrid-app.html', appPage(e2e.harness, app.origin));
      await waitForReady(w.page);
      assert.ok((await w.page.locator('hub-embed [part~="card"]').count()) > 0, 'cards are shown');

      const posts = app.seen.filter((request) => request.method === 'POST');
      assert.ok(posts.length >= 1, 'the token came from the backend on the other origin');
      for (const request of posts) {
        assert.equal(request.authorization, `Bearer ${SESSION}`);
        assert.equal(request.origin, e2e.harness.origin);
        assert.equal(request.cookie, undefined, 'no cookie: the session is the header');
      }

      await w.page.locator('hub-embed [part="card"]').first().click();
      await waitFor(
        () => events(w.page, 'hub-form-open'),
        (list) => list.length === 1,
        'hub-form-open',
      );
      const frame = w.page.frameLocator('hub-embed hub-form-frame iframe');
      await waitFor(
        () => frame.locator('#user').textContent(),
        (user) => user === 'user-alice',
        'the form site to resolve the token to the session user',
      );
      assert.deepEqual(await events(w.page, 'hub-error'), []);
    });

    it('the same page on a stranger origin gets no token', async () => {
      const app = backend!;
      const html = appPage(e2e.harness, app.origin);
      // The page itself, and the harness's files (the recorder, the favicon) relayed from its origin.
      const stranger = createServer((req, res) => {
        if (req.url === '/hybrid-app.html') {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          return void res.end(html);
        }
        void fetch(e2e.harness.origin + req.url).then(async (answer) => {
          res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' });
          res.end(Buffer.from(await answer.arrayBuffer()));
        });
      });
      const strangerOrigin = await listen(stranger);
      try {
        app.seen.length = 0;
        const w = await e2e.watchPage();
        await w.page.goto(`${strangerOrigin}/hybrid-app.html`);
        const errors = await waitFor(
          () => events(w.page, 'hub-error'),
          (list) => list.length > 0,
          'hub-error',
        );
        assert.ok(['token', 'network'].includes(errors[0]!.detail.error.kind), JSON.stringify(errors[0]));
        assert.deepEqual(await events(w.page, 'hub-ready'), []);
        assert.equal(await w.page.locator('hub-embed [part~="card"]').count(), 0, 'no cards');
        // The preflight is refused, so the browser never sends the POST with the bearer header.
        assert.deepEqual(
          app.seen.filter((request) => request.method === 'POST' && request.authorization),
          [],
        );
        // Firefox reports the refused request itself as a page error: that refusal is what this test wants.
        // The error's explanation brings the later half from the harness's file server, which sends no CORS
        // header (a CDN does), so from this stranger origin Firefox also reports that file's refusal.
        const refused = (text: string) =>
          (text.startsWith('Cross-Origin Request Blocked') && text.includes('/api/hub-token')) ||
          (/^(Cross-Origin Request Blocked|None of the “sha384” hashes)/.test(text) &&
            text.includes(`${e2e.harness.origin}/dist/hub-embed.form.js`));
        w.pageErrors.splice(0, w.pageErrors.length, ...w.pageErrors.filter((text) => !refused(text)));
      } finally {
        await new Promise<void>((resolve) => {
          stranger.close(() => resolve());
          stranger.closeAllConnections();
        });
      }
    });
  });
});
