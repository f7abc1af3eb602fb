// The plain <script> bundle, as built (dist/hub-embed.iife.js), under <hub-embed bridge="auto"> with no
// token-endpoint: an app's page that loaded the wrong bundle. With `defer` the element is in the page before
// the bundle registers it, and upgrades as it is defined: the bundle's notice must be in place by then.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { events, pageHtml, shownErrors, useHarness, widget } from './harness.js';
import { inEachEngine } from './engines/index.js';
import { NO_BRIDGE_BUILD } from '../../src/core/bridge-wait.js';

const e2e = useHarness();

inEachEngine(() => {
  describe('the built plain bundle with bridge="auto"', () => {
    for (const loading of ['defer', 'in the head'] as const)
      it(`says that bridge="auto" needs the WebView build, never "Set token-endpoint." (script ${loading})`, async () => {
        const script = `<script src="/dist/hub-embed.iife.js"${loading === 'defer' ? ' defer' : ''}></script>`;
        const w = await e2e.openPage(
          `/plain-bridge-${loading === 'defer' ? 'defer' : 'head'}.html`,
          pageHtml(script, widget(e2e.harness, { 'token-endpoint': '', bridge: 'auto' })),
        );
        const shown = await shownErrors(w.page);
        assert.equal(shown.length, 1);
        assert.match(shown[0]!, /bridge="auto" needs the WebView build/);
        const errors = await events(w.page, 'hub-error');
        assert.deepEqual(
          errors.map((event) => (event.detail as { error: { kind: string; message: string } }).error),
          [{ kind: 'config', message: NO_BRIDGE_BUILD }],
        );
        assert.ok(
          w.consoleWarnings.some((text) => text.includes(NO_BRIDGE_BUILD)),
          'the console names the build',
        );
      });
  });
});
