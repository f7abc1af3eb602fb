// A cross-origin-isolated host page (Cross-Origin-Opener-Policy: same-origin with a
// Cross-Origin-Embedder-Policy of require-corp or credentialless, as apps set for SharedArrayBuffer) shows
// the cards with their icons and opens the form in its frame, against a service that sends what
// docs/csp.md asks of it for such pages (the simulator's `embeddable-require-corp` profile: the form
// site's own embedder policy, and Cross-Origin-Resource-Policy on its pages and the icons).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  allCardNames,
  openEncodingTable,
  simulatorList,
  useHarness,
  visibleErrors,
  waitForIcons,
  waitForReady,
} from './harness.js';
import { inEachEngine, lacks } from './engines/index.js';

const e2e = useHarness({ profile: 'embeddable-require-corp' });

/** The headers that make a page cross-origin isolated, with the embedder policy `coep`. */
const isolated = (coep: 'require-corp' | 'credentialless') => ({
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': coep,
});

inEachEngine((engine) => {
  describe('cross-origin-isolated host pages', () => {
    for (const coep of ['require-corp', 'credentialless'] as const)
      it(
        `a page with COOP same-origin and COEP ${coep} is isolated, shows every card with its icon, and opens the form in its frame (${engine})`,
        {
          skip: coep === 'credentialless' && lacks(engine, 'coep-credentialless'),
        },
        async () => {
          const w = await e2e.openWidget(`/isolated-${coep}.html`, { headers: isolated(coep) });
          assert.equal(await w.page.evaluate(() => globalThis.crossOriginIsolated), true, 'the page is isolated');
          await waitForReady(w.page);
          const expected = (await simulatorList(e2e.harness)).map((table) => table.name);
          assert.deepEqual(await allCardNames(w.page, expected.length), expected);
          await waitForIcons(w.page, expected.length, 'every icon to load in the isolated page');

          // The form page loads in the frame, and tells the widget so over postMessage.
          await openEncodingTable(w.page, 'the form page load message from the frame of an isolated page');
          assert.deepEqual(await visibleErrors(w.page), []);
        },
      );
  });
});
