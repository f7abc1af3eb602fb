// A page with a strict Content-Security-Policy and Trusted Types renders the widget, filters, and opens
// the form with zero violations; the same checks catch a violation when a directive is missing, and
// the bundle loads with Subresource Integrity from the .sri file the build writes.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import {
  BUNDLE,
  SCRIPT,
  allCardNames,
  clickEncodingCard,
  openEncodingTable,
  simulatorList,
  useHarness,
  violations,
  visibleErrors,
  waitFor,
  waitForIcons,
  waitForReady,
  type Watch,
} from './harness.js';
import { inEachEngine, lacks } from './engines/index.js';

// Every page is checked after its test for a leaked API key; uncaught errors only where a test asks,
// since some tests here break the page's policy on purpose.
const e2e = useHarness({ checkPageErrors: false });

/** The policy of docs/csp.md for this harness: only what the widget needs beyond 'self'. */
function strictCsp(overrides: Record<string, string> = {}): string {
  const api = new URL(e2e.harness.baseUrl).origin;
  const form = new URL(e2e.harness.formUrl).origin;
  const directives: Record<string, string> = {
    'default-src': "'self'",
    'script-src': "'self'",
    'style-src': "'self'",
    'require-trusted-types-for': "'script'",
    // lit-html parses Lit's templates; hub-embed admits the one URL of the form half's script.
    'trusted-types': 'lit-html hub-embed',
    // The token endpoint is on the page's own origin here; the API site is another.
    'connect-src': `'self' ${api}`,
    'frame-src': form,
    'img-src': `'self' ${api}`,
    ...overrides,
  };
  return Object.entries(directives)
    .map(([name, value]) => `${name} ${value}`)
    .join('; ');
}

function openWrongHash(): Promise<Watch> {
  const wrong = `sha384-${Buffer.alloc(48, 7).toString('base64')}`;
  return e2e.openWidget('/sri-wrong.html', {
    csp: strictCsp(),
    head: `<script src="/dist/hub-embed.iife.js" integrity="${wrong}" crossorigin="anonymous"></script>`,
  });
}

inEachEngine((engine) => {
  describe('strict Content-Security-Policy', () => {
    it('the strict CSP page with Trusted Types renders, filters and opens the form with zero securitypolicyviolation events', async () => {
      const w = await e2e.openWidget('/csp-strict.html', { csp: strictCsp() });
      const response = await fetch(e2e.harness.origin + '/csp-strict.html');
      assert.match(
        response.headers.get('content-security-policy') ?? '',
        /require-trusted-types-for 'script'; trusted-types lit-html hub-embed/,
      );
      await waitForReady(w.page);
      const expected = (await simulatorList(e2e.harness)).map((table) => table.name);
      assert.deepEqual(await allCardNames(w.page, expected.length), expected);
      // Icons come from the API site under img-src.
      await waitForIcons(w.page, expected.length, 'every icon to load under img-src');
      // Lit's constructable stylesheets apply under style-src 'self': the chips are styled, not default buttons.
      const radius = await w.page
        .locator('hub-embed hub-tag-filter button')
        .first()
        .evaluate((chip) => getComputedStyle(chip).borderTopLeftRadius);
      assert.notEqual(radius, '0px', 'component styles applied');

      // The form page loads inside frame-src and tells the widget so.
      await openEncodingTable(w.page);
      assert.deepEqual(await violations(w.page), [], 'zero securitypolicyviolation events');
      assert.deepEqual(w.consoleErrors, [], 'zero console errors');
      assert.deepEqual(w.pageErrors, []);
      assert.deepEqual(await visibleErrors(w.page), []);
    });

    it('the violation listener catches a blocked form frame when frame-src is missing (the check can fail)', async () => {
      const w = await e2e.openWidget('/csp-no-frame.html', { csp: strictCsp({ 'frame-src': "'self'" }) });
      await waitForReady(w.page);
      await clickEncodingCard(w.page);
      const found = await waitFor(
        () => violations(w.page),
        (list) => list.length > 0,
        'a securitypolicyviolation',
      );
      assert.ok(
        found.some((v) => v.directive === 'frame-src' && v.blocked.startsWith(new URL(e2e.harness.formUrl).origin)),
        JSON.stringify(found),
      );
    });

    it('Trusted Types are enforced on the strict page: a policy list without lit-html is a violation', async () => {
      const w = await e2e.openWidget('/csp-no-tt.html', { csp: strictCsp({ 'trusted-types': "'none'" }) });
      const found = await waitFor(
        () => violations(w.page),
        (list) => list.length > 0,
        'a securitypolicyviolation',
      );
      assert.ok(
        found.some((v) => v.directive === 'trusted-types'),
        JSON.stringify(found),
      );
    });

    it("the script loaded twice on a Trusted Types page with 'allow-duplicates' (docs/csp.md) gives zero violations", async () => {
      const w = await e2e.openWidget('/csp-twice.html', {
        csp: strictCsp({ 'trusted-types': "lit-html hub-embed 'allow-duplicates'" }),
        head: SCRIPT + SCRIPT,
      });
      await waitForReady(w.page);
      assert.equal(await w.page.locator('hub-embed').count(), 1);
      assert.deepEqual(await violations(w.page), []);
      assert.deepEqual(w.consoleErrors, []);
      assert.deepEqual(w.pageErrors, []);
    });

    it('the bundle loads with integrity= from dist/hub-embed.iife.js.sri', async () => {
      const sri = readFileSync(`${BUNDLE}.sri`, 'utf8').trim();
      assert.match(sri, /^sha384-[A-Za-z0-9+/]{64}$/);
      const good = await e2e.openWidget('/sri.html', {
        csp: strictCsp(),
        head: `<script src="/dist/hub-embed.iife.js" integrity="${sri}" crossorigin="anonymous"></script>`,
      });
      await waitForReady(good.page);
      assert.deepEqual(await violations(good.page), []);
      assert.deepEqual(good.consoleErrors, []);
      await good.close();
      assert.deepEqual(good.leaks, []);
    });

    it('a wrong integrity hash is refused: the tampered bundle never runs', async () => {
      const bad = await openWrongHash();
      await waitFor(
        () => bad.page.evaluate(() => document.readyState),
        (state) => state === 'complete',
        'the page to finish loading',
      );
      assert.equal(
        await bad.page.evaluate(() => customElements.get('hub-embed')),
        undefined,
        'a tampered bundle never runs',
      );
    });

    it(
      'a wrong integrity hash is refused: the browser says so in its console',
      { skip: lacks(engine, 'browser-console') },
      async () => {
        const bad = await openWrongHash();
        await waitFor(
          () => bad.consoleErrors,
          (errors) => errors.some((text) => /integrity/i.test(text)),
          'the integrity error',
        );
      },
    );
  });
});
