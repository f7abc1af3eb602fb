// A token the service refuses before its end (a key revoked, a service restart, a clock ahead) while the
// grid is shown: the next card still opens a working form. The simulator's reset is the restart: every
// token it issued is refused from then on, and the page's token endpoint (the demo backend) keeps the dead
// one in its cache until a request names it as refused.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { events, parseFormUrl, simulatorAccepts, useHarness, visibleErrors, waitFor, waitForReady } from './harness.js';
import { inEachEngine } from './engines/index.js';

const e2e = useHarness();

inEachEngine(() => {
  describe('a token refused under an open grid', () => {
    it('the next card opens a working form with a new token, asked for as unauthorized', async () => {
      const w = await e2e.openWidget('/refused.html');
      await waitForReady(w.page);
      const first = w.issuedTokens[0]!;
      e2e.harness.mock.hub.reset();
      assert.equal(await simulatorAccepts(e2e.harness, first), false, 'the service refuses the first token');

      await w.page.locator('hub-embed [part="card"]').first().click();
      const iframe = w.page.locator('hub-embed hub-form-frame iframe');
      // The form site refuses the first token and says so; the widget loads the form again with another.
      const token: string = await waitFor(
        async () =>
          (await iframe.count()) === 1
            ? parseFormUrl(e2e.harness, (await iframe.getAttribute('src'))!).query.find(
                ([name]) => name === 'token',
              )?.[1]
            : undefined,
        (current): current is string => current !== undefined && current !== first,
        'the form with a new token',
      );
      // The backend's cache still held the first token: only a request naming it as refused (reason
      // `unauthorized`, `previous`) gets a new one, which the service accepts.
      assert.ok(w.issuedTokens.includes(token), 'from the page’s token endpoint');
      assert.equal(await simulatorAccepts(e2e.harness, token), true);
      const frame = w.page.frameLocator('hub-embed hub-form-frame iframe');
      assert.equal(await frame.locator('#user').textContent(), 'user-alice');
      assert.deepEqual(await events(w.page, 'hub-error'), []);
      assert.deepEqual(await visibleErrors(w.page), []);
    });
  });
});
