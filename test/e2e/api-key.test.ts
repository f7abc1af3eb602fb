// The API key stays on the developer's server: across a whole session (load, filter, open, submit,
// pay) every browser request is intercepted and none carries X-API-Key or calls the key exchange,
// while the simulator shows that the server side did use the key.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ENCODING_TAG,
  ENCODING_TABLES,
  SCRIPT,
  events,
  pageHtml,
  useHarness,
  waitFor,
  waitForReady,
  watchPage,
  widget,
} from './harness.js';
import { inEachEngine } from './engines/index.js';

// In Chromium, WebKit and Firefox (engines/). Pages here come from watchPage(e2e.browser), not e2e.watchPage(): these tests check the leaks
// themselves, and the last one plants a leak on purpose.
const e2e = useHarness();

inEachEngine(() => {
  describe('the API key boundary', () => {
    it('no browser request ever carries X-API-Key (every request intercepted through a whole session)', async () => {
      const logStart = e2e.harness.mock.hub.requestLog.length;
      const url = e2e.harness.addPage('/key.html', pageHtml(SCRIPT, widget(e2e.harness)));
      const w = await watchPage(e2e.browser, { signedInAt: e2e.harness.origin });
      try {
        await w.page.goto(url);
        await waitForReady(w.page);
        await w.page
          .locator('hub-embed hub-tag-filter')
          .getByRole('button', { name: ENCODING_TAG, exact: true })
          .click();
        const table = ENCODING_TABLES[4]!;
        await w.page.locator('hub-embed [part="card"]', { hasText: table.name }).click();
        const form = w.page.frameLocator('hub-embed hub-form-frame iframe');
        await form.locator('form[data-action="submit"] button').click();
        await form.locator('form[data-action="charge"] button').click();
        await waitFor(
          () => events(w.page, 'hub-form-message'),
          (list) => list.some((e) => e.detail.data?.type === 'charge'),
          'the charge message',
        );
      } finally {
        await w.close();
      }

      // The interception really saw every kind of traffic the widget causes.
      const seen = (test: (u: URL) => boolean) => w.requests.filter((request) => test(new URL(request.url))).length;
      const api = new URL(e2e.harness.baseUrl).origin;
      const form = new URL(e2e.harness.formUrl).origin;
      assert.ok(
        seen((u) => u.origin === e2e.harness.origin && u.pathname === '/api/hub-token') >= 1,
        'token endpoint requests intercepted',
      );
      assert.ok(
        seen((u) => u.origin === api && u.pathname.includes('/projects/')) >= 3,
        'Bearer API requests intercepted',
      );
      assert.ok(
        seen((u) => u.origin === api && u.pathname.startsWith('/static/icons/')) >= 1,
        'icon requests intercepted',
      );
      assert.ok(seen((u) => u.origin === form) >= 3, 'form site requests intercepted (page, assets, POSTs)');
      for (const request of w.requests) {
        assert.ok(
          !Object.keys(request.headers).some((name) => name.toLowerCase() === 'x-api-key'),
          `X-API-Key on ${request.method} ${request.url}`,
        );
        assert.ok(!request.url.includes('apikeys/token'), `key exchange called from the browser: ${request.url}`);
        assert.ok(
          !Object.values(request.headers).some((value) => value.includes(e2e.harness.mock.apiKey)),
          `the key's value in a header of ${request.url}`,
        );
        assert.ok(!request.url.includes(e2e.harness.mock.apiKey), `the key's value in ${request.url}`);
      }
      assert.deepEqual(w.leaks, []);

      // Meanwhile the server side did use the key: the exchange ran with X-API-Key.
      const log = e2e.harness.mock.hub.requestLog.slice(logStart);
      assert.ok(
        log.some((entry) => entry.path.endsWith('/apikeys/token') && entry.auth === 'api-key' && entry.status === 200),
        'the demo backend exchanged the key',
      );
      assert.ok(
        log.filter((entry) => entry.path.includes('/projects/')).some((entry) => entry.method === 'OPTIONS'),
        "the browser's CORS preflights reached the service (the proxy answers none of them itself)",
      );
      assert.ok(
        log
          .filter((entry) => entry.path.includes('/projects/') && entry.method !== 'OPTIONS')
          .every((entry) => entry.auth === 'bearer'),
        'the browser used Bearer tokens only (a preflight carries no credentials, by the Fetch standard)',
      );
    });

    it('the key never reaches the page: not in its DOM, storage, cookies or token responses', async () => {
      const url = e2e.harness.addPage('/key-dom.html', pageHtml(SCRIPT, widget(e2e.harness)));
      const w = await watchPage(e2e.browser, { signedInAt: e2e.harness.origin });
      try {
        await w.page.goto(url);
        await waitForReady(w.page);
        const dump = await w.page.evaluate(() => {
          const shadowText = (root: Document | ShadowRoot): string =>
            [...root.querySelectorAll('*')]
              .map((el) => (el.shadowRoot ? el.outerHTML + shadowText(el.shadowRoot) : el.outerHTML))
              .join('');
          return [
            shadowText(document),
            JSON.stringify({ ...localStorage }),
            JSON.stringify({ ...sessionStorage }),
            document.cookie,
          ].join('\n');
        });
        assert.ok(!dump.includes(e2e.harness.mock.apiKey), 'the API key is nowhere in the page');
        assert.ok(!/sk-[A-Za-z0-9-]{8,}/.test(dump), 'nothing that looks like an API key is in the page');
        const answer = await w.page.evaluate(async () =>
          (
            await fetch('/api/hub-token', {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: '{}',
            })
          ).text(),
        );
        assert.deepEqual(
          Object.keys(JSON.parse(answer)).sort(),
          ['access_token', 'expires_in'],
          'the token endpoint answers only the token',
        );
        assert.deepEqual(w.leaks, []);
      } finally {
        await w.close();
      }
    });

    it('the interception flags a request that carries X-API-Key (the check can fail)', async () => {
      const url = e2e.harness.addPage('/key-control.html', pageHtml('', ''));
      const w = await watchPage(e2e.browser);
      try {
        await w.page.goto(url);
        await w.page.evaluate(() =>
          fetch('/api/session', { headers: { 'X-API-Key': 'sk-planted-by-the-test' } }).then((r) => r.text()),
        );
        await waitFor(
          () => w.leaks,
          (leaks) => leaks.length > 0,
          'the planted header to be flagged',
        );
        assert.match(w.leaks[0]!, /\/api\/session/);
      } finally {
        await w.close();
      }
    });
  });
});
