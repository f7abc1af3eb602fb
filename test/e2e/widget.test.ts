// <hub-embed> from the built <script> bundle in Chromium, WebKit and Firefox (engines/), against the simulator and the demo
// backend: rendering, filtering, and opening a table in each open mode with awkward short codes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  AWKWARD_CODES,
  AWKWARD_TAG,
  ENCODING_TABLES,
  ENCODING_TAG,
  allCardNames,
  cardNames,
  events,
  parseFormUrl,
  simulatorAccepts,
  simulatorList,
  simulatorTags,
  useHarness,
  visibleErrors,
  waitFor,
  waitForIcons,
  waitForReady,
  widgetPage,
  type Watch,
} from './harness.js';
import { inEachEngine, lacks } from './engines/index.js';

// Every page is checked after its test for a leaked API key and for uncaught errors.
const e2e = useHarness();

const names = (list: { name: string }[]) => list.map((table) => table.name);

async function chip(w: Watch, tag: string) {
  // The chips are <button aria-pressed> in a role=toolbar: their accessible name is the tag.
  return w.page.locator('hub-embed hub-tag-filter').getByRole('button', { name: tag, exact: true });
}

async function gridShows(w: Watch, expected: string[], what: string): Promise<void> {
  await waitFor(
    () => cardNames(w.page),
    (shown) => JSON.stringify(shown) === JSON.stringify(expected),
    what,
  );
}

/** How many of the service's tables carry `tag` exactly: the matches the widget must count for it. */
async function taggedTables(tag: string): Promise<number> {
  return (await simulatorList(e2e.harness)).filter((table) => table.tags.includes(tag)).length;
}

/** The count says "N matching · M more", and the divider splits the cards into those two lists. */
async function dividerShows(w: Watch, matching: number, total: number): Promise<void> {
  assert.equal(
    (await w.page.locator('hub-embed [part="count"]').textContent())?.trim(),
    `${matching} matching · ${total - matching} more`,
  );
  assert.deepEqual(
    await w.page
      .locator('hub-embed [part="grid"]')
      .evaluateAll((lists) => lists.map((list) => list.querySelectorAll('[role="listitem"]').length)),
    [matching, total - matching],
  );
  assert.equal(await w.page.locator('hub-embed [part="more"]').textContent(), 'More tables');
}

/** Clicks the card of `shortCode` (found by its unique name) and waits for hub-form-open. */
async function openCard(w: Watch, shortCode: string): Promise<void> {
  const table = ENCODING_TABLES.find((t) => t.short_code === shortCode)!;
  const before = (await events(w.page, 'hub-form-open')).length;
  await w.page.locator('hub-embed [part="card"]', { hasText: table.name }).click();
  const opened = await waitFor(
    () => events(w.page, 'hub-form-open'),
    (list) => list.length > before,
    `hub-form-open for ${shortCode}`,
  );
  assert.deepEqual(opened.at(-1)!.detail, { shortCode });
}

/** The form URL must carry the short code and a live simulator token, each decoded exactly as sent. */
async function assertRoundTrip(w: Watch, href: string, shortCode: string): Promise<void> {
  const { shortCode: decoded, query } = parseFormUrl(e2e.harness, href);
  assert.equal(decoded, shortCode, `short code round-trip in ${href}`);
  assert.equal(query.length, 1, `exactly one query parameter in ${href}`);
  const [name, token] = query[0]!;
  assert.equal(name, 'token');
  assert.ok(w.issuedTokens.includes(token), 'the token is one the page received from its token endpoint');
  assert.ok(await simulatorAccepts(e2e.harness, token), 'the simulator issued this token and accepts it');
}

/** The form page itself reports what it decoded: <main id="hub-form" data-short-code>. */
async function formPageCode(frame: {
  locator(selector: string): { getAttribute(name: string): Promise<string | null> };
}): Promise<string | null> {
  return frame.locator('#hub-form').getAttribute('data-short-code');
}

inEachEngine((engine) => {
  describe('<hub-embed> from the script bundle', () => {
    it('renders the tags and the cards the simulator publishes', async () => {
      const w = await e2e.openWidget('/render.html');
      await waitForReady(w.page);
      const expectedTags = await simulatorTags(e2e.harness);
      const chips = await w.page.locator('hub-embed hub-tag-filter button').allTextContents();
      assert.deepEqual(
        chips.slice(1).map((text) => text.trim()),
        expectedTags,
        'one chip per published tag, after "All"',
      );
      assert.equal(chips[0]!.trim(), 'All');
      const expected = names(await simulatorList(e2e.harness));
      assert.ok(expected.length > 26, 'the seed publishes the default tables and the encoding tables');
      assert.deepEqual(await allCardNames(w.page, expected.length), expected);
      // Icons are served by the API site; every card shows a loaded image, none a placeholder.
      await waitForIcons(w.page, expected.length);
      assert.equal(await w.page.locator('hub-embed [part~="icon-placeholder"]').count(), 0);
      const count = await w.page.locator('hub-embed hub-table-grid [part="count"]').textContent();
      assert.equal(count?.trim(), `${expected.length} results`);
      assert.deepEqual(await visibleErrors(w.page), []);
      assert.deepEqual(w.consoleErrors, []);
    });

    it('filtering by tags shows exactly the simulator answer for those tags', async () => {
      const w = await e2e.openWidget('/filter.html');
      await waitForReady(w.page);

      await (await chip(w, ENCODING_TAG)).click();
      const one = names(await simulatorList(e2e.harness, [ENCODING_TAG]));
      assert.deepEqual(
        one.slice(0, ENCODING_TABLES.length),
        names(ENCODING_TABLES),
        'the simulator puts the matching tables first',
      );
      await gridShows(w, one, `the grid for [${ENCODING_TAG}]`);
      assert.equal(await (await chip(w, ENCODING_TAG)).getAttribute('aria-pressed'), 'true');
      // The count and the divider say where the matching tables end and the service's fill-ins begin.
      await dividerShows(w, ENCODING_TABLES.length, one.length);

      // A second tag widens the match (any-match), and this one needs encoding in the query string: the
      // seed's four delivery tables join the matches, still before the divider.
      await (await chip(w, 'delivery')).click();
      const two = names(await simulatorList(e2e.harness, [ENCODING_TAG, 'delivery']));
      await gridShows(w, two, `the grid for [${ENCODING_TAG}, delivery]`);
      await dividerShows(w, ENCODING_TABLES.length + (await taggedTables('delivery')), two.length);

      await (await chip(w, ENCODING_TAG)).click();
      await (await chip(w, 'delivery')).click();
      await (await chip(w, AWKWARD_TAG)).click();
      const awkward = names(await simulatorList(e2e.harness, [AWKWARD_TAG]));
      assert.equal(awkward[0], ENCODING_TABLES[0]!.name, 'the awkward tag matched on the simulator');
      await gridShows(w, awkward, `the grid for [${AWKWARD_TAG}]`);

      await w.page.locator('hub-embed hub-tag-filter').getByRole('button', { name: 'All', exact: true }).click();
      await gridShows(w, names(await simulatorList(e2e.harness)), 'the unfiltered grid');

      const changes = await events(w.page, 'hub-tags-change');
      assert.deepEqual(changes.at(-1)!.detail, { tags: [] });
      assert.deepEqual(changes[1]!.detail, { tags: [ENCODING_TAG, 'delivery'] });
      assert.deepEqual(await visibleErrors(w.page), []);
      assert.deepEqual(w.consoleErrors, []);
    });

    it('matches-only: just the matching tables, no divider; when none match, "Show all" clears the filter', async () => {
      const w = await e2e.openWidget('/matches-only.html', { attrs: { tags: 'delivery', 'matches-only': '' } });
      await waitForReady(w.page);
      const delivery = await taggedTables('delivery');
      assert.ok(delivery > 0, 'the seed has delivery tables');
      assert.equal((await cardNames(w.page)).length, delivery);
      assert.equal(await w.page.locator('hub-embed [part="more"]').count(), 0);
      assert.equal((await w.page.locator('hub-embed [part="count"]').textContent())?.trim(), `${delivery} matching`);

      // A tag no table carries: the service fills the whole list from other projects, so nothing matches.
      await w.page.evaluate(() => (document.querySelector('hub-embed')!.tags = ['no table has this tag']));
      await waitFor(
        () => w.page.locator('hub-embed [part="empty"]').textContent(),
        (text) => text?.includes('No table matches the selected tags.') ?? false,
        'the no-match empty state',
      );
      await w.page.locator('hub-embed [part="show-all"]').click();
      await gridShows(w, names(await simulatorList(e2e.harness)), 'every table after Show all');
      assert.deepEqual((await events(w.page, 'hub-tags-change')).at(-1)!.detail, { tags: [] });
      assert.deepEqual(w.consoleErrors, []);
    });

    it('the tags attribute sets the initial filter declaratively', async () => {
      const w = await e2e.openWidget('/tags-attr.html', { attrs: { tags: `${ENCODING_TAG},delivery` } });
      await waitForReady(w.page);
      await gridShows(
        w,
        names(await simulatorList(e2e.harness, [ENCODING_TAG, 'delivery'])),
        'the grid for the tags attribute',
      );
    });
  });

  describe('the look in each engine', () => {
    it(
      'in the dark theme the tag toolbar scrolls under a dark scrollbar, not a light one (Firefox drew it light)',
      { skip: lacks(engine, 'overlay-scrollbars') },
      async () => {
        const w = await e2e.openWidget('/dark-toolbar.html', {
          attrs: { theme: 'dark', style: '--hub-tags-max-height: 3em' },
        });
        await waitForReady(w.page);
        const toolbar = w.page.locator('hub-embed hub-tag-filter [part="toolbar"]');
        const { bar, width, overflows } = await toolbar.evaluate((element: HTMLElement) => {
          const style = getComputedStyle(element);
          const borders = parseFloat(style.borderLeftWidth) + parseFloat(style.borderRightWidth);
          return {
            bar: element.offsetWidth - element.clientWidth - borders,
            width: element.offsetWidth,
            overflows: element.scrollHeight > element.clientHeight,
          };
        });
        assert.ok(overflows, 'the toolbar scrolls at this max height');
        assert.ok(bar > 0, 'the scrollbar takes room (an engine that now draws overlay scrollbars belongs in LIMITS)');
        const png = (await w.page.screenshot({ selector: 'hub-embed' })).toString('base64');
        // The mean lightness (0 to 1) of the scrollbar's strip, read back in the page, where every engine
        // decodes PNG: the strip is the toolbar's right edge, `bar` px wide, in the widget's screenshot.
        const lightness = await w.page.evaluate(
          async ({ png, bar, width }) => {
            const embed = document.querySelector('hub-embed')!;
            const element = embed
              .shadowRoot!.querySelector('hub-tag-filter')!
              .shadowRoot!.querySelector<HTMLElement>('[part="toolbar"]')!;
            const host = embed.getBoundingClientRect();
            const box = element.getBoundingClientRect();
            const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
            const image = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
            const scale = image.width / host.width;
            const canvas = new OffscreenCanvas(image.width, image.height);
            const context = canvas.getContext('2d')!;
            context.drawImage(image, 0, 0);
            const left = Math.round((box.left - host.left + width - bar + 1) * scale);
            const top = Math.round((box.top - host.top + 2) * scale);
            const strip = context.getImageData(
              left,
              top,
              Math.max(1, Math.round((bar - 2) * scale)),
              Math.round((box.height - 4) * scale),
            );
            let sum = 0;
            for (let i = 0; i < strip.data.length; i += 4)
              sum += (strip.data[i]! + strip.data[i + 1]! + strip.data[i + 2]!) / 765;
            return sum / (strip.data.length / 4);
          },
          { png, bar, width },
        );
        assert.ok(
          lightness < 0.4,
          `the scrollbar strip is dark on the dark theme (mean lightness ${lightness.toFixed(2)})`,
        );
      },
    );
  });

  describe('opening a table', () => {
    it('modal: a <dialog> with the form iframe, short code and token round-tripping for every awkward code', async () => {
      const w = await e2e.openWidget('/modal.html', { attrs: { tags: ENCODING_TAG } });
      await waitForReady(w.page);
      for (const [i, code] of AWKWARD_CODES.entries()) {
        await openCard(w, code);
        const dialog = w.page.locator('hub-embed dialog[part="dialog"]');
        await waitFor(
          () => dialog.evaluate((d) => (d as HTMLDialogElement).open),
          (isOpen) => isOpen,
          'the dialog to open',
        );
        const iframe = w.page.locator('hub-embed hub-form-frame iframe');
        const src = (await iframe.getAttribute('src'))!;
        await assertRoundTrip(w, src, code);
        const frame = w.page.frameLocator('hub-embed hub-form-frame iframe');
        assert.equal(await formPageCode(frame), code, 'the form site decoded the same short code');
        assert.equal(
          await frame.locator('#user').textContent(),
          'user-alice',
          'the form site resolved the token to the signed-in user',
        );
        await w.page.keyboard.press('Escape');
        await waitFor(
          () => dialog.evaluate((d) => (d as HTMLDialogElement).open),
          (isOpen) => !isOpen,
          'the dialog to close',
        );
        const closed = await waitFor(
          () => events(w.page, 'hub-form-close'),
          (list) => list.length === i + 1,
          'hub-form-close',
        );
        assert.deepEqual(closed.at(-1)!.detail, { shortCode: code });
      }
      assert.deepEqual(await visibleErrors(w.page), []);
      assert.deepEqual(w.consoleErrors, []);
    });

    it('modal manners: a click on the backdrop, Escape, and Escape inside the form page each close the dialog, named after the table, focus back on the card', async () => {
      const w = await e2e.openWidget('/manners.html', { attrs: { tags: ENCODING_TAG } });
      await waitForReady(w.page);
      const dialog = w.page.locator('hub-embed dialog[part="dialog"]');
      const isOpen = () => dialog.evaluate((d) => (d as HTMLDialogElement).open);
      const table = ENCODING_TABLES[1]!;
      const card = w.page.locator('hub-embed [part="card"]', { hasText: table.name });
      for (const how of ['backdrop', 'Escape', 'Escape in the form'] as const) {
        await openCard(w, table.short_code);
        await waitFor(isOpen, (open) => open, 'the dialog to open');
        assert.equal(await dialog.getAttribute('aria-label'), table.name);
        if (how === 'backdrop') {
          // The top-left corner of the viewport is backdrop: the dialog is centred and smaller.
          await w.page.mouse.click(3, 3);
        } else if (how === 'Escape') {
          await w.page.keyboard.press('Escape');
        } else {
          // Focus inside the cross-origin page: its keys reach that page only, which asks the widget to close.
          const message = w.page.frameLocator('hub-embed hub-form-frame iframe').locator('textarea');
          await message.click();
          await w.page.keyboard.press('Escape');
        }
        await waitFor(isOpen, (open) => !open, `the dialog to close by ${how}`);
        assert.equal(
          await card.evaluate((control) => control.matches(':focus')),
          true,
          `focus back on the card (${how})`,
        );
      }
      assert.deepEqual(w.consoleErrors, []);
    });

    it('inline: the form replaces the grid, short code and token round-tripping for every awkward code', async () => {
      const w = await e2e.openWidget('/inline.html', { attrs: { tags: ENCODING_TAG, 'open-mode': 'inline' } });
      await waitForReady(w.page);
      for (const code of AWKWARD_CODES) {
        await openCard(w, code);
        const iframe = w.page.locator('hub-embed hub-form-frame iframe');
        await iframe.waitFor();
        assert.equal(await w.page.locator('hub-embed dialog').count(), 0, 'inline mode uses no dialog');
        assert.equal(
          await w.page.locator('hub-embed [part="body"]').isVisible(),
          false,
          'the grid is hidden while the form shows',
        );
        await assertRoundTrip(w, (await iframe.getAttribute('src'))!, code);
        assert.equal(await formPageCode(w.page.frameLocator('hub-embed hub-form-frame iframe')), code);
        // The frame's close control is the way back, and focus is on it once the form opens.
        const close = w.page.locator('hub-embed hub-form-frame [part="close"]');
        assert.equal(await close.evaluate((button) => button.matches(':focus')), true, 'focus lands on close');
        await close.click();
        await waitFor(
          () => w.page.locator('hub-embed [part="body"]').isVisible(),
          (visible) => visible,
          'the grid to come back',
        );
      }
      assert.deepEqual(await visibleErrors(w.page), []);
      assert.deepEqual(w.consoleErrors, []);
    });

    it('navigate: the top page goes to the form URL, short code and token round-tripping for every awkward code', async () => {
      const url = e2e.harness.addPage(
        '/navigate.html',
        widgetPage(e2e.harness, { attrs: { tags: ENCODING_TAG, 'open-mode': 'navigate' } }),
      );
      const w = await e2e.watchPage();
      for (const code of AWKWARD_CODES) {
        await w.page.goto(url);
        await waitForReady(w.page);
        const table = ENCODING_TABLES.find((t) => t.short_code === code)!;
        await Promise.all([
          w.page.waitForURL((target) => target.origin === new URL(e2e.harness.formUrl).origin),
          w.page.locator('hub-embed [part="card"]', { hasText: table.name }).click(),
        ]);
        await assertRoundTrip(w, await w.page.url(), code);
        assert.equal(await formPageCode(w.page), code, 'the form site decoded the same short code');
      }
      assert.deepEqual(w.consoleErrors, []);
    });
  });
});
