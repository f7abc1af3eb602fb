// Tokens that expire while the page is in use: the simulator issues 3-second tokens, the page outlives
// several of them, and the user never sees an error.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ENCODING_TAG,
  ENCODING_TABLES,
  cardNames,
  events,
  parseFormUrl,
  simulatorAccepts,
  simulatorList,
  useHarness,
  visibleErrors,
  waitFor,
  waitForReady,
  type Watch,
} from './harness.js';
import { inEachEngine } from './engines/index.js';

const TTL_SECONDS = 3;

// Every page is checked after its test for a leaked API key and for uncaught errors.
const e2e = useHarness({ tokenTtlSeconds: TTL_SECONDS });

const bearerOf = (headers: Record<string, string>) => /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1];

/** Waits (on the simulator's own verdict, not a timer) until `token` is dead. */
async function untilExpired(token: string): Promise<void> {
  await waitFor(
    () => simulatorAccepts(e2e.harness, token),
    (accepted) => !accepted,
    `token ${token} to expire`,
    (TTL_SECONDS + 10) * 1000,
  );
}

/** Opens a widget page and lets the first token it received expire: the page then has to get another. */
async function openPastFirstToken(path: string, attrs?: Record<string, string>): Promise<{ w: Watch; first: string }> {
  const w = await e2e.openWidget(path, { attrs });
  await waitForReady(w.page);
  const first = await waitFor(
    () => w.issuedTokens[0],
    (token) => token !== undefined,
    'the first token',
  );
  await untilExpired(first);
  return { w, first };
}

inEachEngine(() => {
  describe('token expiry during use', () => {
    it('filtering after the first token expired loads with a fresh token and shows no error', async () => {
      const { w, first } = await openPastFirstToken('/expiry.html');

      const apiCallsBefore = w.requests.length;
      await w.page.locator('hub-embed hub-tag-filter').getByRole('button', { name: ENCODING_TAG, exact: true }).click();
      const expected = (await simulatorList(e2e.harness, [ENCODING_TAG])).map((table) => table.name);
      await waitFor(
        () => cardNames(w.page),
        (names) => JSON.stringify(names) === JSON.stringify(expected),
        'the filtered grid',
      );

      const later = w.requests
        .slice(apiCallsBefore)
        // CORS preflights (OPTIONS) carry no credentials by the Fetch standard; the requests themselves do.
        .filter((request) => request.method !== 'OPTIONS' && request.url.includes('/projects/published-list'));
      assert.ok(later.length > 0, 'the filter asked the service again');
      const used = later.map((request) => bearerOf(request.headers));
      assert.ok(
        used.every((token) => token !== undefined && token !== first),
        'no request after expiry was sent with the dead token, or it was retried',
      );
      assert.ok(
        w.issuedTokens.slice(1).includes(used.at(-1)!),
        'the list was fetched with a token the endpoint issued after the first',
      );
      assert.ok(w.issuedTokens.length >= 2, 'the page fetched a new token from its endpoint');
      assert.deepEqual(await events(w.page, 'hub-error'), [], 'no hub-error event');
      assert.deepEqual(await visibleErrors(w.page), [], 'no error shown');
      assert.deepEqual(w.consoleErrors, []);
    });

    it('opening a form after the page outlived several tokens uses a live token and shows no error', async () => {
      const { w, first } = await openPastFirstToken('/expiry-open.html', { tags: ENCODING_TAG });

      const table = ENCODING_TABLES[2]!;
      await w.page.locator('hub-embed [part="card"]', { hasText: table.name }).click();
      const iframe = w.page.locator('hub-embed hub-form-frame iframe');
      await iframe.waitFor();
      const { shortCode, query } = parseFormUrl(e2e.harness, (await iframe.getAttribute('src'))!);
      assert.equal(shortCode, table.short_code);
      const token = query.find(([name]) => name === 'token')?.[1];
      assert.ok(token && token !== first, 'the form got a new token, not the expired one');
      assert.ok(w.issuedTokens.includes(token), 'from the page’s token endpoint');
      // The form site accepted it: the page shows the user rather than "Sign-in expired".
      const frame = w.page.frameLocator('hub-embed hub-form-frame iframe');
      assert.equal(await frame.locator('#user').textContent(), 'user-alice');

      // Close and reopen after that token expired too: still no error.
      await w.page.keyboard.press('Escape');
      await untilExpired(token);
      await w.page.locator('hub-embed [part="card"]', { hasText: table.name }).click();
      await waitFor(
        () => events(w.page, 'hub-form-open'),
        (list) => list.length === 2,
        'the second hub-form-open',
      );
      await waitFor(
        async () => parseFormUrl(e2e.harness, (await iframe.getAttribute('src'))!).query[0]![1],
        (next) => next !== token,
        'a third token in the form URL',
      );
      assert.equal(await frame.locator('#user').textContent(), 'user-alice');
      assert.deepEqual(await events(w.page, 'hub-error'), []);
      assert.deepEqual(await visibleErrors(w.page), []);
      assert.deepEqual(w.consoleErrors, []);
    });
  });
});
