// An inline form sizes itself: the simulator's form page reports its content's height, and the frame
// grows and shrinks to it below its top edge, so nothing above it moves. The same report from any other
// window, even a form page of the form site's own origin, or from the page itself, changes nothing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ENCODING_TABLES,
  SCRIPT,
  pageHtml,
  serverToken,
  useHarness,
  waitFor,
  waitForReady,
  widget,
  type Watch,
} from './harness.js';
import { inEachEngine, type FrameLocator } from './engines/index.js';

const e2e = useHarness();

const TABLE = ENCODING_TABLES[0]!;
const FRAME = 'hub-embed hub-form-frame';

/** The inline form of TABLE, on a page with content above and below the widget. */
async function openInline(): Promise<{ w: Watch; form: FrameLocator }> {
  const body =
    '<h1 id="above" style="margin: 0; height: 200px">Tables</h1>' +
    widget(e2e.harness, { tags: TABLE.tags[0]!, 'open-mode': 'inline' }) +
    '<p id="below">After the widget</p>';
  const w = await e2e.openPage('/form-height.html', pageHtml(SCRIPT, body));
  await waitForReady(w.page);
  await w.page.locator('hub-embed [part="card"]', { hasText: TABLE.name }).click();
  const form = w.page.frameLocator(`${FRAME} iframe`);
  await form.locator('#hub-form').waitFor();
  return { w, form };
}

const top = (w: Watch, selector: string) =>
  w.page
    .locator(selector)
    .boundingBox()
    .then((box) => box.y);
const frameHeight = (w: Watch) =>
  w.page
    .locator(`${FRAME} iframe`)
    .boundingBox()
    .then((box) => box.height);
/** The form page's content, as its own script measures it. */
const contentHeight = (form: FrameLocator) =>
  form.evaluate(() => Math.ceil(document.body.getBoundingClientRect().height));

/** Waits until the frame is as tall as the form page's content, and returns that height. */
async function fitted(w: Watch, form: FrameLocator, what: string): Promise<number> {
  const content = await contentHeight(form);
  await waitFor(
    () => frameHeight(w),
    (height) => Math.abs(height - content) < 1,
    `${what}: the frame to take the page's ${content} px`,
  );
  return content;
}

inEachEngine(() => {
  describe("the inline form's height", () => {
    it('the inline form grows and shrinks to its content, below its top edge', async () => {
      const { w, form } = await openInline();
      const fixed = [await top(w, '#above'), await top(w, FRAME)];
      const first = await fitted(w, form, 'the first report');

      await form.evaluate(() => {
        const extra = document.createElement('div');
        extra.id = 'extra';
        extra.style.height = '900px';
        document.getElementById('hub-form')!.append(extra);
      });
      const grown = await fitted(w, form, 'grown');
      assert.ok(grown >= first + 900, `grown by the content added (${first} → ${grown} px)`);
      assert.deepEqual([await top(w, '#above'), await top(w, FRAME)], fixed, 'nothing above the form moved');
      const frameBottom = await w.page
        .locator(FRAME)
        .boundingBox()
        .then((box) => box.y + box.height);
      assert.ok((await top(w, '#below')) >= frameBottom, 'the content below follows the frame');

      await form.evaluate(() => document.getElementById('extra')!.remove());
      assert.equal(await fitted(w, form, 'shrunk'), first);
      assert.deepEqual([await top(w, '#above'), await top(w, FRAME)], fixed, 'nothing above the form moved');
      assert.deepEqual(w.consoleErrors, []);
    });

    it("a height from another window or origin changes nothing, even a form page of the form site's origin", async () => {
      const { w, form } = await openInline();
      const height = await fitted(w, form, 'the first report');
      // 1. The page posts a perfect imitation to its own window.
      // 2. A real form page (the form site's origin) in a narrow second frame reports its own, taller height.
      const sibling = `${e2e.harness.formUrl}/${encodeURIComponent(ENCODING_TABLES[1]!.short_code)}?token=${encodeURIComponent(await serverToken(e2e.harness, 'user-bob'))}`;
      await w.page.evaluate(
        ({ src, code }) => {
          const frame = document.createElement('iframe');
          const raw: { origin: string; sibling: boolean; height: unknown }[] = ((window as any).__heights = []);
          addEventListener('message', (event) => {
            const { data, origin, source } = event;
            if (data?.type === 'height')
              raw.push({ origin, sibling: source === frame.contentWindow, height: data.height });
          });
          window.postMessage({ source: 'hub-form', type: 'height', shortCode: code, height: 1500 }, '*');
          frame.src = src;
          // On screen: Chromium pauses the rendering, and so the resize observers, of a cross-origin frame out of sight.
          Object.assign(frame.style, { position: 'fixed', top: '0', left: '0', width: '120px', height: '200px' });
          document.body.append(frame);
        },
        { src: sibling, code: TABLE.short_code },
      );
      const formOrigin = new URL(e2e.harness.formUrl).origin;
      await waitFor(
        () =>
          w.page.evaluate(() => (window as any).__heights as { origin: string; sibling: boolean; height: number }[]),
        (raw) =>
          raw.some((m) => m.height === 1500) &&
          raw.some((m) => m.sibling && m.origin === formOrigin && m.height !== height),
        'both forged heights to reach the page',
      );
      // Well past the frame's pause for reports: it would have followed either by now.
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(await frameHeight(w), height, 'the forged heights changed nothing');
      // A genuine report after the forged ones: the frame still follows its own page.
      await form.evaluate(() => {
        document.getElementById('hub-form')!.style.paddingBottom = '40px';
      });
      assert.equal(await fitted(w, form, 'the genuine report'), height + 40);
      assert.deepEqual(w.consoleErrors, []);
    });
  });
});
