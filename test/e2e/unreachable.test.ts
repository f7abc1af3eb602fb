// The integrator's errors are not the user's network: a base-url that nothing answers at (a wrong port), a
// base-url that answers something other than the service (an HTML 404), and a form file that the page's
// server does not serve each show a setup error with no Retry (a Retry cannot mend a page), and the console
// names the URL and what to fix. The <script> bundle, as a page serves it, against the simulator, in every
// engine. The network's own failures (offline) are test/e2e/offline.test.ts's.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { events, pageHtml, SCRIPT, useHarness, waitFor, widget, type Watch } from './harness.js';
import { inEachEngine } from './engines/index.js';
import { freePort } from '../free-port.js';

const e2e = useHarness();

/** The page's first hub-error, once there is one. */
async function firstError(w: Watch): Promise<{ kind: string; message: string }> {
  const [failure] = await waitFor(
    () => events(w.page, 'hub-error'),
    (list) => list.length > 0,
    'hub-error',
    20_000,
  );
  return failure!.detail.error as { kind: string; message: string };
}

/** The console line the widget wrote for its error: "hub-embed: <message>". */
function consoleLine(w: Watch, text: string): Promise<string[]> {
  return waitFor(
    () => w.consoleErrors.filter((line) => line.includes('hub-embed:') && line.includes(text)),
    (lines) => lines.length > 0,
    `a console error naming ${text}`,
  );
}

/**
 * Firefox reports as page errors the refusals these tests cause on purpose (a request that no server answers
 * with CORS headers, a file that fails its integrity): they are what the test wants. Only those that name
 * `url` are forgotten; any other page error still fails the test.
 */
function forgetRefusalsOf(w: Watch, url: string): void {
  const caused = (text: string) =>
    (text.startsWith('Cross-Origin Request Blocked') || text.startsWith('None of the “sha384” hashes')) &&
    text.includes(url);
  w.pageErrors.splice(0, w.pageErrors.length, ...w.pageErrors.filter((text) => !caused(text)));
}

inEachEngine(() => {
  describe('the integrator’s errors: a setup error with the URL and the fix, no Retry', () => {
    it('a base-url with a port nothing listens on is the page’s setup error, not a network error', async () => {
      const port = await freePort();
      const baseUrl = `http://127.0.0.1:${port}/api/v1/apihub`;
      const w = await e2e.openPage('/wrong-port.html', pageHtml(SCRIPT, widget(e2e.harness, { 'base-url': baseUrl })));
      const error = await firstError(w);
      assert.equal(error.kind, 'config', error.message);
      assert.match(error.message, new RegExp(`${baseUrl}/projects/published-tags`.replaceAll('.', '\\.')));
      assert.match(error.message, /check its host, port and scheme/);
      await consoleLine(w, `127.0.0.1:${port}`);
      const alert = await w.page.locator('hub-embed [part="error"]').textContent();
      assert.match(alert ?? '', /Setup error/);
      assert.equal(await w.page.locator('hub-embed [part="retry"]').count(), 0, 'no Retry');
      assert.equal((await events(w.page, 'hub-error')).length, 1, 'one error, not a network error first');
      forgetRefusalsOf(w, baseUrl);
    });

    it('a base-url that answers HTML (a 404 page), not the service’s JSON, is the page’s setup error', async () => {
      // The pages' own server: it answers every unknown path with a 404 page.
      const baseUrl = `${e2e.harness.origin}/not-the-service/api/v1/apihub`;
      const w = await e2e.openPage('/html-base.html', pageHtml(SCRIPT, widget(e2e.harness, { 'base-url': baseUrl })));
      const error = await firstError(w);
      assert.equal(error.kind, 'config', error.message);
      assert.match(error.message, /answered 404 \(text\/plain\), not the service's JSON/);
      assert.match(error.message, /Set base-url to the service's address/);
      await consoleLine(w, '/not-the-service/api/v1/apihub/projects/published-tags');
      assert.equal(await w.page.locator('hub-embed [part="retry"]').count(), 0, 'no Retry');
    });

    it('a form file the page’s server does not serve (404) is the page’s setup error naming the file', async () => {
      const w = await e2e.openPage(
        '/no-form-file.html',
        pageHtml(SCRIPT.replace('/dist/', '/dist-no-form/'), widget(e2e.harness, { limit: '4' })),
      );
      await waitFor(
        () => events(w.page, 'hub-ready'),
        (list) => list.length > 0,
        'hub-ready: the lists need no form file',
      );
      // The later half starts loading once hub-ready is out: its 404 shows in the cards' place, before any
      // click could find that no form opens.
      const error = await firstError(w);
      const file = `${e2e.harness.origin}/dist-no-form/hub-embed.form.js`;
      assert.equal(error.kind, 'config', error.message);
      assert.equal(error.message, `Form code not loaded: ${file}`);
      await consoleLine(w, file);
      assert.equal(await w.page.locator('hub-embed [part="retry"]').count(), 0, 'no Retry');
      assert.match((await w.page.locator('hub-embed [part="error"]').textContent()) ?? '', /Setup error/);
      forgetRefusalsOf(w, file);
    });
  });
});
