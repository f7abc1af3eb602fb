// Focus and scroll survive every re-layout (issue 81 item 5): a card that has the keyboard focus keeps it, by
// its table, and what the user sees stays where it was, when the columns change (the box resized), the
// locale or the theme changes, or the list is fetched again with the same tables. In each engine, since
// focus, scroll and the screens' content-visibility are each engine's own.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SCRIPT, pageHtml, useHarness, waitFor, waitForReady, widget, type Watch } from './harness.js';
import { inEachEngine } from './engines/index.js';

const e2e = useHarness();

/** The widget in a box the test resizes, with page content below so that the page scrolls. */
const page = () =>
  pageHtml(
    SCRIPT,
    `<div id="box" style="width: 900px">${widget(e2e.harness)}</div><p style="height: 3000px">After the widget</p>`,
  );

/** The table of the card that has the focus, followed down through the shadow roots; undefined: none. */
const focusedTable = (w: Watch) =>
  w.page.evaluate(() => {
    let active = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    const card = active?.closest('[role="listitem"]') as (Element & { table?: { short_code: string } }) | null;
    return card?.table?.short_code;
  });

/** The top of the card of `code` in the viewport, and the page's scroll. */
const where = (w: Watch, code: string) =>
  w.page.evaluate((wanted) => {
    const grid = document.querySelector('hub-embed')!.shadowRoot!.querySelector('hub-table-grid')!;
    const cards = [...grid.shadowRoot!.querySelectorAll('[role="listitem"]')] as (Element & {
      table: { short_code: string };
    })[];
    const card = cards.find((node) => node.table.short_code === wanted)!;
    return { top: Math.round(card.getBoundingClientRect().top), scroll: Math.round(scrollY) };
  }, code);

/** Two frames and a task: what a change sets off (a resize observed, the screens made again) is done. */
const settled = (w: Watch) =>
  w.page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 150))),
      ),
  );

inEachEngine(() => {
  describe('focus and scroll across re-layouts', () => {
    it('a focused card keeps the focus by its table, and the view stays, through resizes, a locale, a theme and a list fetched again', async () => {
      const w = await e2e.openPage('/relayout.html', page());
      await waitForReady(w.page);
      // The fifth card, focused, scrolled to 120 px below the top of the viewport.
      const code = await w.page.evaluate(() => {
        const grid = document.querySelector('hub-embed')!.shadowRoot!.querySelector('hub-table-grid')!;
        const card = grid.shadowRoot!.querySelectorAll('[role="listitem"]')[4] as HTMLElement & {
          table: { short_code: string };
        };
        scrollBy(0, card.getBoundingClientRect().top - 120);
        card.querySelector<HTMLElement>('[part~="card"]')!.focus({ preventScroll: true });
        return card.table.short_code;
      });
      // Focus on a card is intent: the form half comes, and with it what keeps the place.
      await waitFor(
        () => w.page.evaluate(() => customElements.get('hub-form-frame') !== undefined),
        (defined) => defined,
        'the form half',
      );
      assert.equal(await focusedTable(w), code);

      const changes: [string, () => void][] = [
        ['the box narrower (two columns)', () => void (document.getElementById('box')!.style.width = '480px')],
        ['the box wider (five columns)', () => void (document.getElementById('box')!.style.width = '1100px')],
        ['the locale', () => void document.querySelector('hub-embed')!.setAttribute('locale', 'zh-CN')],
        ['the theme', () => void document.querySelector('hub-embed')!.setAttribute('theme', 'dark')],
        [
          'the list fetched again',
          () => void (document.querySelector('hub-embed') as HTMLElement & { refresh(): Promise<void> }).refresh(),
        ],
      ];
      for (const [what, change] of changes) {
        await w.page.evaluate(change);
        // Where the change itself put the card (a resize reflows the page at once); what the widget does
        // after it must move nothing more.
        const before = await where(w, code);
        await settled(w);
        await waitFor(
          () => focusedTable(w),
          (table) => table === code,
          `${what}: the focus on the card of ${code}`,
        );
        const after = await where(w, code);
        assert.ok(
          Math.abs(after.top - before.top) <= 2,
          `${what}: the card moved from ${before.top} to ${after.top} px`,
        );
      }
      assert.deepEqual(w.pageErrors, []);
    });
  });
});
