// A cross-origin-isolated host page whose service sends nothing for such pages (the spec is silent on it,
// the simulator's default profile): Chromium still opens the form, in a `credentialless` frame, which needs
// no embedder policy of the form site's; an icon blocked for want of a Cross-Origin-Resource-Policy gives
// way to the card's letter. Chromium only: no other engine has credentialless frames, and
// docs/csp.md says what the service must send for them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openEncodingTable, useHarness, waitForReady } from './harness.js';
import { inEachEngine } from './engines/index.js';

const e2e = useHarness();

inEachEngine(
  (engine) => {
    describe('a cross-origin-isolated page against a service that sends no embedder policy', () => {
      it(`in a page with COEP require-corp, a card whose icon is blocked shows its letter, not a broken image (${engine})`, async () => {
        const w = await e2e.openWidget('/isolated-blocked-icons.html', {
          headers: { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' },
        });
        await waitForReady(w.page);
        const first = w.page.locator('hub-embed [part~="card"]').first();
        await first.locator('[part~="icon-placeholder"]').waitFor();
        assert.equal(await first.locator('img[part~="icon"]').count(), 0, 'no broken image left in the card');
      });

      it(`the form opens in a credentialless frame in a page with COEP credentialless (${engine})`, async () => {
        const w = await e2e.openWidget('/isolated-any-service.html', {
          headers: { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'credentialless' },
        });
        assert.equal(await w.page.evaluate(() => globalThis.crossOriginIsolated), true, 'the page is isolated');
        await waitForReady(w.page);
        await openEncodingTable(w.page, 'the form page load message from a credentialless frame');
      });
    });
  },
  { only: ['chromium'], why: 'credentialless frames are a Chromium feature (docs/csp.md)' },
);
