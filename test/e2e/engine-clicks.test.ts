// The engines' click (engines/page.ts) acts as a user does: it waits until the element can take the
// click. For an element in a frame, that includes the documents around the frame: while a layer of the
// outer page lies over the iframe (the form frame's "loading" layer until the iframe's load event), a
// click there would reach the layer, and the test would wait for an answer that never comes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useHarness } from './harness.js';
import { inEachEngine } from './engines/index.js';

const e2e = useHarness();

/**
 * A button in a frame, under a layer of the outer page that counts the clicks it takes. The layer goes once a
 * click has looked at it three times (document.elementFromPoint of the outer page): a click that never looks
 * lands on it; one that looks waits, and then reaches the button. No other call of the driver runs while the
 * click waits: WebDriver classic has one current frame, which a second call would switch under the first.
 */
const FRAMED_BUTTON = `<!doctype html><meta charset="utf-8"><title>button</title>
<button onclick="window.clicks = (window.clicks || 0) + 1">Pay</button>`;
const COVERED_FRAME = `<!doctype html><meta charset="utf-8"><title>covered frame</title>
<div style="position: relative; width: 320px; height: 200px">
  <iframe src="/covered/button.html" style="position: absolute; inset: 0; width: 100%; height: 100%; border: 0"></iframe>
  <div id="layer" style="position: absolute; inset: 0; background: white">Loading…</div>
</div>
<script>
  var layer = document.getElementById('layer');
  var looks = 0;
  var find = document.elementFromPoint.bind(document);
  window.layerClicks = 0;
  layer.addEventListener('click', function () { window.layerClicks++; });
  document.elementFromPoint = function (x, y) {
    var hit = find(x, y);
    if (hit === layer && ++looks === 3) layer.remove();
    return hit;
  };
</script>`;

inEachEngine(() =>
  describe('the engines click as a user would', () => {
    it('a click into a frame waits while a layer of the outer page covers the frame', async () => {
      e2e.harness.addPage('/covered/button.html', FRAMED_BUTTON);
      const { page } = await e2e.openPage('/covered/index.html', COVERED_FRAME);
      const frame = page.frameLocator('iframe');
      await frame.locator('button').waitFor();
      await frame.locator('button').click();
      // The click looked at the layer until it went, then reached the button, once.
      assert.equal(await page.evaluate(() => !!document.getElementById('layer')), false);
      assert.equal(await page.evaluate(() => (window as unknown as { layerClicks: number }).layerClicks), 0);
      assert.equal(
        await frame.locator('button').evaluate(() => (window as unknown as { clicks?: number }).clicks ?? 0),
        1,
      );
    });
  }),
);
