// The engines' click (engines/page.ts) acts as a user does: it waits until the element can take the
// click. For an element in a frame, that includes the documents around the frame: while a layer of the
// outer page lies over the iframe (the form frame's "loading" layer until the iframe's load event), a
// click there would reach the layer, and the test would wait for an answer that never comes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useHarness } from './harness.js';
import { inEachEngine } from './engines/index.js';

const e2e = useHarness();

/** A button in a frame, under a layer of the outer page that counts the clicks it takes until it goes. */
const FRAMED_BUTTON = `<!doctype html><meta charset="utf-8"><title>button</title>
<button onclick="window.clicks = (window.clicks || 0) + 1">Pay</button>`;
const COVERED_FRAME = `<!doctype html><meta charset="utf-8"><title>covered frame</title>
<div style="position: relative; width: 320px; height: 200px">
  <iframe src="/covered/button.html" style="position: absolute; inset: 0; width: 100%; height: 100%; border: 0"></iframe>
  <div id="layer" style="position: absolute; inset: 0; background: white">Loading…</div>
</div>
<script>
  window.layerClicks = 0;
  document.getElementById('layer').addEventListener('click', function () { window.layerClicks++; });
</script>`;

inEachEngine(() =>
  describe('the engines click as a user would', () => {
    it('a click into a frame waits while a layer of the outer page covers the frame', async () => {
      e2e.harness.addPage('/covered/button.html', FRAMED_BUTTON);
      const { page } = await e2e.openPage('/covered/index.html', COVERED_FRAME);
      const frame = page.frameLocator('iframe');
      await frame.locator('button').waitFor();
      const clicked = frame.locator('button').click();
      const clicks = () =>
        frame.locator('button').evaluate(() => (window as unknown as { clicks?: number }).clicks ?? 0);
      const layerClicks = () => page.evaluate(() => (window as unknown as { layerClicks: number }).layerClicks);
      // Covered: the click waits, and nothing is clicked.
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(await layerClicks(), 0);
      assert.equal(await clicks(), 0);
      // The layer goes (the frame has loaded): the waiting click reaches the button, once.
      await page.evaluate(() => document.getElementById('layer')!.remove());
      await clicked;
      assert.equal(await clicks(), 1);
      assert.equal(await layerClicks(), 0);
    });
  }),
);
