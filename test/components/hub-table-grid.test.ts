import { describe, expect, it, vi } from 'vitest';
import { fixture, fixtureCleanup, html } from '@open-wc/testing';
import '../../src/define.js';
import type { HubTableGrid } from '../../src/components/hub-table-grid/hub-table-grid.js';
import type { PublishedTable } from '../../src/core/types.js';
import { describeAccessible, onPage, type Look } from './accessible.js';
import { inChromium, part, parts, until } from './helpers.js';

const tables: PublishedTable[] = [
  { short_code: 'a1', name: 'Alpha', industry: 'A', tags: ['x'] },
  { short_code: 'b2', name: 'Beta', industry: 'B', tags: [] },
];

async function grid(value: unknown, loading = false): Promise<HubTableGrid> {
  return fixture<HubTableGrid>(
    html`<hub-table-grid .tables=${value as PublishedTable[]} ?loading=${loading}></hub-table-grid>`,
  );
}

function cards(el: HubTableGrid) {
  return [...el.shadowRoot!.querySelectorAll('hub-table-card')];
}

describe('<hub-table-grid>', () => {
  it('renders one card per table in a labelled list and announces the count in a live region', async () => {
    const el = await grid(tables);
    const list = part(el, 'grid')!;
    expect(list.getAttribute('role')).toBe('list');
    expect(list.getAttribute('aria-label')).toBeTruthy();
    expect(list.getAttribute('aria-busy')).toBe('false');
    expect(cards(el).map((card) => card.table?.name)).toEqual(['Alpha', 'Beta']);
    expect(cards(el).every((card) => card.getAttribute('role') === 'listitem')).toBe(true);
    const count = part(el, 'count')!;
    expect(count.getAttribute('role')).toBe('status');
    expect(count.textContent).toBe('2 results');
  });

  it('loading with no tables shows skeleton cards and announces loading', async () => {
    const el = await grid([], true);
    expect(parts(el, 'skeleton').length).toBeGreaterThan(0);
    expect(part(el, 'grid')!.getAttribute('aria-busy')).toBe('true');
    expect(part(el, 'count')!.textContent).toBe('Loading…');
    expect(part(el, 'empty')).toBeNull();
  });

  it('loading with tables keeps them visible at full contrast, marked busy, without skeletons', async () => {
    const el = await grid(tables, true);
    expect(cards(el)).toHaveLength(2);
    expect(parts(el, 'skeleton')).toHaveLength(0);
    expect(part(el, 'grid')!.getAttribute('aria-busy')).toBe('true');
    if (inChromium) {
      const style = getComputedStyle(part(el, 'grid')!);
      expect(style.opacity).toBe('1');
      expect(style.cursor).toBe('progress');
    }
  });

  it('no tables and not loading shows the empty state, and a non-array counts as none', async () => {
    for (const value of [[], 'nope', null]) {
      const el = await grid(value);
      expect(part(el, 'grid')).toBeNull();
      expect(part(el, 'empty')!.textContent).toBe('No tables found.');
      expect(part(el, 'count')!.textContent).toBe('0 results');
      fixtureCleanup();
    }
  });

  it('property loading and tables update the view', async () => {
    const el = await grid([]);
    el.loading = true;
    await el.updateComplete;
    expect(parts(el, 'skeleton').length).toBeGreaterThan(0);
    el.tables = tables;
    el.loading = false;
    await el.updateComplete;
    expect(cards(el)).toHaveLength(2);
    expect(part(el, 'count')!.textContent).toBe('2 results');
  });

  it('fires hub-table-select {table} from the activated card; cancelable', async () => {
    const el = await grid(tables);
    await cards(el)[1]!.updateComplete;
    let seen: CustomEvent | undefined;
    el.addEventListener('hub-table-select', (event) => {
      seen = event;
      event.preventDefault();
    });
    part(cards(el)[1]!, 'card')!.click();
    expect(seen?.detail.table).toBe(tables[1]);
    expect(seen?.cancelable).toBe(true);
    expect(seen?.defaultPrevented).toBe(true);
  });

  it('draws a first list in tasks of at most 12 ms, layout included: the count alone, then 4 cards, then twice as many after a task under 6 ms, as many after one under 12 ms, else half', async () => {
    const el = await grid([]);
    const list = (n: number, prefix: string): PublishedTable[] =>
      Array.from({ length: n }, (_, i) => ({ short_code: `${prefix}${i}`, name: `T${i}`, industry: 'I', tags: [] }));
    // One record per update: a mutation observer's callback runs once the task's microtasks (Lit's update) are done.
    const drawn: number[] = [];
    const observer = new MutationObserver(() => drawn.push(cards(el).length));
    observer.observe(el.shadowRoot!, { childList: true, subtree: true });
    // Out of the layout, so that it never fills the screen: below the screen the pacing stops (twice as
    // many each task), and this test is about the pacing.
    el.style.display = 'none';
    // A device's clock on which each card drawn costs `perCard` ms.
    let perCard = 0.1;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => cards(el).length * perCard);
    try {
      el.tables = list(26, 'a');
      await until(() => cards(el).length === 26, 'every card');
      expect(drawn).toEqual([0, 4, 12, 26]);
      // A list of other tables starts over, on a slower device: 1 ms a card, so 8 a task after the first 4.
      drawn.length = 0;
      perCard = 1;
      el.tables = list(30, 'b');
      await until(() => cards(el).length === 30, 'every card of the new list');
      expect(drawn).toEqual([0, 4, 12, 20, 28, 30]);
      // So slow that 4 cards take longer than a task should: 2, then 1 a task.
      drawn.length = 0;
      perCard = 8;
      el.tables = list(7, 'c');
      await until(() => cards(el).length === 7, 'every card of the third list');
      expect(drawn).toEqual([0, 4, 6, 7]);
    } finally {
      clock.mockRestore();
      observer.disconnect();
    }
    expect(cards(el).map((card) => card.table?.short_code)).toEqual(list(7, 'c').map((t) => t.short_code));
  });

  it('a new list of the same tables (a filter change) keeps their cards, moved into its order, all in one task', async () => {
    const el = await grid([]);
    const list = Array.from({ length: 40 }, (_, i) => ({
      short_code: `k${i}`,
      name: `T${i}`,
      industry: 'I',
      tags: [],
    }));
    el.tables = list;
    await until(() => cards(el).length === 40, 'every card');
    const before = new Map(cards(el).map((card) => [card.table!.short_code, card]));
    // The matches first, as the service lists them for a tag; the card of a table the list drops is let go.
    const reordered = [...list.slice(30), ...list.slice(0, 29)].map((table) => ({ ...table }));
    const drawn: number[] = [];
    const observer = new MutationObserver(() => drawn.push(cards(el).length));
    observer.observe(el.shadowRoot!, { childList: true, subtree: true });
    el.tables = reordered;
    await el.updateComplete;
    observer.disconnect();
    expect(drawn).toEqual([39]);
    expect(cards(el).map((card) => card.table)).toEqual(reordered);
    expect(cards(el).every((card) => before.get(card.table!.short_code) === card)).toBe(true);
    // A short code listed twice still gets a card in each place.
    el.tables = [list[0]!, list[0]!];
    await el.updateComplete;
    expect(cards(el)).toHaveLength(2);
  });

  it.skipIf(!inChromium)(
    'updateComplete settles once the cards fill the screen; the rest follow below it',
    async () => {
      const many = Array.from({ length: 400 }, (_, i) => ({
        short_code: `s${i}`,
        name: `T${i}`,
        industry: 'I',
        tags: [],
      }));
      const el = await grid(many);
      expect(cards(el).length).toBeLessThan(many.length);
      expect(el.getBoundingClientRect().bottom).toBeGreaterThanOrEqual(innerHeight);
      await until(() => cards(el).length === many.length, 'every card');
    },
  );

  it.skipIf(!inChromium)(
    'below the screen, twice as many cards each task, however slow; a new list starts over at 4',
    async () => {
      const many = (prefix: string) =>
        Array.from({ length: 400 }, (_, i) => ({
          short_code: `${prefix}${i}`,
          name: `T${i}`,
          industry: 'I',
          tags: [],
        }));
      const el = await grid([]);
      const drawn: number[] = [];
      const observer = new MutationObserver(() => drawn.push(cards(el).length));
      observer.observe(el.shadowRoot!, { childList: true, subtree: true });
      // So slow a device that the pacing alone would draw one card a task: 13 ms a card, over real time
      // (which until() keeps its deadline by).
      const now = performance.now.bind(performance);
      const clock = vi.spyOn(performance, 'now').mockImplementation(() => now() + cards(el).length * 13);
      try {
        el.tables = many('a');
        await el.updateComplete;
        const onScreen = cards(el).length;
        await until(() => cards(el).length === 400, 'every card');
        const steps = drawn.filter((n) => n > onScreen).map((n, i, all) => n - (all[i - 1] ?? onScreen));
        // Each step twice the last, but the final one, which takes what is left.
        for (let i = 1; i < steps.length - 1; i++) expect(steps[i]).toBe(2 * steps[i - 1]!);
        expect(steps.length).toBeLessThan(12);
        // A list of other tables while the first is still drawing below the screen: 4 first again.
        el.tables = many('b');
        await el.updateComplete;
        el.tables = many('c');
        drawn.length = 0;
        await until(() => cards(el)[0]?.table?.short_code === 'c0', 'the new list');
        expect(drawn.find((n) => n > 0)).toBe(4);
      } finally {
        clock.mockRestore();
        observer.disconnect();
      }
    },
  );

  it('localizes the count and empty state', async () => {
    const el = await fixture<HubTableGrid>(html`<hub-table-grid locale="zh-CN" .tables=${tables}></hub-table-grid>`);
    expect(part(el, 'count')!.textContent).toBe('共 2 个结果');
    el.strings = { results: '{n} found' };
    await el.updateComplete;
    expect(part(el, 'count')!.textContent).toBe('2 found');
  });

  describe('big lists: cards off screen are not rendered, and scrolling them in shifts nothing', () => {
    /** 300 cards whose names take one, two or three lines, so real heights differ from the assumed one. */
    const many: PublishedTable[] = Array.from({ length: 300 }, (_, i) => ({
      short_code: `c${i}`,
      name: `Table ${i} ${'with a longer name '.repeat((i % 3) * 3)}`,
      industry: 'Industry',
      tags: ['tag'],
    }));
    const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
    /** Chromium decides which content-visibility: auto boxes to skip a frame or two after layout. */
    const settle = async () => {
      for (let i = 0; i < 5; i++) await nextFrame();
    };

    it.skipIf(!inChromium)(
      'a card far below the viewport is skipped by rendering (content-visibility: auto)',
      async () => {
        const el = await grid(many);
        await until(() => cards(el).length === many.length, 'every card');
        const [first, last] = [cards(el)[0]!, cards(el).at(-1)!];
        expect(getComputedStyle(last).contentVisibility).toBe('auto');
        // The card keeps its box; what is skipped is its content. Chromium decides that at the frame after
        // the first layout (until then every card's content counts as skipped).
        const rendered = (card: Element) => part(card, 'name')!.checkVisibility({ contentVisibilityAuto: true });
        await until(() => rendered(first), 'the first card to render');
        expect(rendered(last)).toBe(false);
      },
    );

    it.skipIf(!inChromium)('scrolling down through every card and back up makes no layout shift', async () => {
      await grid(many);
      await settle();
      let shift = 0;
      const add = (entries: PerformanceEntryList) => {
        for (const entry of entries as (PerformanceEntry & { value: number })[]) shift += entry.value;
      };
      const observer = new PerformanceObserver((list) => add(list.getEntries()));
      observer.observe({ type: 'layout-shift' });
      const step = innerHeight;
      for (let y = 0; y <= document.documentElement.scrollHeight; y += step) {
        scrollTo(0, y);
        await nextFrame();
      }
      for (let y = scrollY; y >= 0; y -= step) {
        scrollTo(0, y);
        await nextFrame();
      }
      await settle();
      add(observer.takeRecords());
      observer.disconnect();
      expect(shift).toBe(0);
    });
  });

  /** Alpha matches the selected tag x; Beta is one the service added to fill its limit. */
  const gridOnPage = (look: Look, attrs: { tables?: PublishedTable[]; loading?: boolean; selected?: string[] }) =>
    onPage<HubTableGrid>(
      look,
      html`<hub-table-grid
        locale=${look.locale}
        .tables=${attrs.tables ?? []}
        ?loading=${attrs.loading ?? false}
        .tags=${attrs.selected ?? []}
        ?matches-only=${attrs.selected && !attrs.tables?.length}
      ></hub-table-grid>`,
    );
  describeAccessible({
    'loading skeletons': (look) => gridOnPage(look, { loading: true }),
    empty: (look) => gridOnPage(look, {}),
    'nothing matched, with show all': (look) => gridOnPage(look, { selected: ['x'] }),
    tables: (look) => gridOnPage(look, { tables }),
    'matching tables, the divider, then the fill-ins': (look) => gridOnPage(look, { tables, selected: ['x'] }),
    'reloading with tables shown': (look) => gridOnPage(look, { tables, loading: true }),
  });
});
