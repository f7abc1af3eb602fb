import { describe, expect, it, vi } from 'vitest';
import { fixture, fixtureCleanup, html } from '@open-wc/testing';
import '../../src/define.js';
import { CARD_PARTS, type HubTableGrid } from '../../src/components/hub-table-grid/hub-table-grid.js';
import type { PublishedTable } from '../../src/core/types.js';
import type { CardNode } from '../../src/components/hub-table-card/card-template.js';
import { describeAccessible, onPage, type Look } from './accessible.js';
import { loadFormOpener } from '../../src/components/hub-embed/form-opener-loader.js';
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

/** The grid's cards: list items in its own shadow root, each carrying its table. */
function cards(el: HubTableGrid) {
  return [...el.shadowRoot!.querySelectorAll<CardNode>('[role="listitem"]')];
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

  it('a new grid measuring its first card, and drawing the rest in steps, gives no Lit warning in a dev console; updateComplete waits for the first screen', async () => {
    // Lit warns once per page and message: forget any earlier one, so that this render would warn again.
    const issued = (globalThis as { litIssuedWarnings?: Set<string> }).litIssuedWarnings;
    for (const warning of [...(issued ?? [])]) if (warning !== 'dev-mode') issued!.delete(warning);
    const warn = vi.spyOn(console, 'warn');
    try {
      // Enough that the cards past the first screen come in steps of the drawing schedule too.
      const many = Array.from({ length: 200 }, (_, i) => ({ short_code: `t${i}`, name: `Table ${i}`, tags: [] }));
      const el = await grid(many);
      expect(cards(el).length).toBeGreaterThan(1);
      await until(() => cards(el).length === many.length, 'every card drawn');
      expect(warn.mock.calls.map((call) => String(call[0]))).toEqual([]);
    } finally {
      warn.mockRestore();
    }
  });

  it('loading with no tables shows skeleton cards and announces loading', async () => {
    const el = await grid([], true);
    expect(parts(el, 'skeleton').length).toBeGreaterThan(0);
    expect(part(el, 'grid')!.getAttribute('aria-busy')).toBe('true');
    expect(part(el, 'count')!.textContent).toBe('Loading…');
    expect(part(el, 'empty')).toBeNull();
  });

  it('loading with tables keeps them visible at full contrast, marked busy by an accent rule, without skeletons', async () => {
    const el = await grid(tables, true);
    expect(cards(el)).toHaveLength(2);
    expect(parts(el, 'skeleton')).toHaveLength(0);
    expect(part(el, 'grid')!.getAttribute('aria-busy')).toBe('true');
    if (inChromium) {
      expect(getComputedStyle(part(el, 'grid')!).opacity).toBe('1');
      expect(getComputedStyle(part(el, 'count')!).boxShadow).not.toBe('none');
    }
  });

  it.skipIf(!inChromium)(
    "marking the list busy changes nothing of the list's own style, whose screens inherit from it, nor anything its cards inherit",
    async () => {
      const el = await grid(list(200, 'i'));
      await until(() => cards(el).length === 200, 'every card');
      /** Every property a stylesheet could set; on the list, a change to any restyles every screen. */
      const styleOf = (element: Element, { custom }: { custom: boolean }) => {
        const style = getComputedStyle(element);
        return [...style]
          .filter((name) => custom || !name.startsWith('--'))
          .map((name) => `${name}:${style.getPropertyValue(name)}`);
      };
      const list0 = part(el, 'grid')!;
      const both = () => [styleOf(list0, { custom: true }), styleOf(cards(el)[0]!, { custom: false })];
      const idle = both();
      el.loading = true;
      await el.updateComplete;
      expect(list0.getAttribute('aria-busy')).toBe('true');
      expect(both()).toEqual(idle);
    },
  );

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

  /** `n` tables whose short codes start with `prefix`. */
  const list = (n: number, prefix: string): PublishedTable[] =>
    Array.from({ length: n }, (_, i) => ({ short_code: `${prefix}${i}`, name: `T${i}`, industry: 'I', tags: ['t'] }));

  /** Counts the tasks that begin from now on: a message to ourselves, posted again each time. */
  function taskCounter() {
    const counter = { tasks: 0, stop: () => channel.port1.close() };
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      counter.tasks++;
      channel.port2.postMessage(0);
    };
    channel.port2.postMessage(0);
    return counter;
  }

  it.skipIf(!inChromium)(
    'the task that brings a list draws its cards down to the bottom of the screen, and updateComplete settles in it; the rest follow in later tasks',
    async () => {
      const el = await grid([]);
      const counter = taskCounter();
      // A slow device's clock, 1 ms a card: the first task has no time for all 400.
      const clock = vi.spyOn(performance, 'now').mockImplementation(() => cards(el).length);
      try {
        el.tables = list(400, 's');
        await el.updateComplete;
        expect(counter.tasks).toBe(0);
        expect(el.getBoundingClientRect().bottom).toBeGreaterThanOrEqual(innerHeight);
        expect(cards(el).length).toBeLessThan(400);
      } finally {
        clock.mockRestore();
        counter.stop();
      }
      await until(() => cards(el).length === 400, 'every card');
      expect(cards(el).map((card) => card.table?.short_code)).toEqual(list(400, 's').map((t) => t.short_code));
    },
  );

  it.skipIf(!inChromium)(
    "a one-column grid's first task draws the cards that fill the window below the list's top, in rows of the least card height",
    async () => {
      // Loading, as the widget shows it before its first list: the skeletons lay out the columns.
      const el = await grid([], true);
      el.style.display = 'block';
      el.style.width = '200px';
      el.style.marginTop = '150px';
      const rows = () => Math.ceil((innerHeight - part(el, 'grid')!.getBoundingClientRect().top) / 48);
      // A slow device's clock, 2 ms a card: the first task has no time to draw more than it must.
      const clock = vi.spyOn(performance, 'now').mockImplementation(() => cards(el).length * 2);
      try {
        const first = rows();
        el.tables = list(400, 'o');
        el.loading = false;
        await el.updateComplete;
        expect(first).toBeLessThan(48);
        expect(cards(el)).toHaveLength(first);
        expect(el.getBoundingClientRect().bottom).toBeGreaterThanOrEqual(innerHeight);
        await until(() => cards(el).length === 400, 'every card');
        // Scrolled down, the list's top above the window: its first rows above the window count too.
        scrollTo(0, 300);
        const next = rows();
        expect(next).toBeGreaterThan(first);
        el.tables = list(400, 'o').reverse();
        await el.updateComplete;
        expect(cards(el)).toHaveLength(next);
        expect(el.getBoundingClientRect().bottom).toBeGreaterThanOrEqual(innerHeight);
        await until(() => cards(el).length === 400, 'every card of the next list');
      } finally {
        clock.mockRestore();
        scrollTo(0, 0);
      }
    },
  );

  it('the first task draws a screenful (48 cards) and what time is left in it, then each later task as many as TASK_MS holds at the pace measured in the last', async () => {
    /** Draws `n` tables on a device's clock on which each card costs `perCard` ms. */
    async function steps(n: number, perCard: number) {
      // A grid laid out in one column, with a list already: its next list is measured at once. The window
      // as tall as a screenful of the least card height, so that the screen holds SCREEN_CARDS (48).
      const el = await grid(list(1, 'w'));
      el.style.cssText = 'display: block; width: 200px';
      const screen = () => el.shadowRoot!.querySelector('.screen')!;
      await until(() => getComputedStyle(screen()).gridTemplateColumns.split(' ').length === 1, 'one column');
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
      const height = Object.getOwnPropertyDescriptor(window, 'innerHeight')!;
      Object.defineProperty(window, 'innerHeight', { ...height, get: () => 48 * 48 + 1000 });
      const drawn: string[] = [];
      const counter = taskCounter();
      // One record per step: a mutation observer's callback runs once each step's update is done. A step that
      // draws no card more (the same cards put in screens again) is not recorded, and counted: none comes.
      let redrawn = 0;
      const observer = new MutationObserver(() => {
        const record = `${cards(el).length}${counter.tasks ? '' : ' first'}`;
        if (drawn.at(-1) === record) redrawn++;
        else drawn.push(record);
      });
      observer.observe(el.shadowRoot!, { childList: true, subtree: true });
      // The list's own cards: the one of the list before goes with the first step.
      const listed = () => cards(el).filter((card) => card.table!.short_code.startsWith('p')).length;
      const clock = vi.spyOn(performance, 'now').mockImplementation(() => listed() * perCard);
      try {
        el.tables = list(n, 'p');
        await until(() => cards(el).length === n, 'every card');
      } finally {
        Object.defineProperty(window, 'innerHeight', height);
        clock.mockRestore();
        observer.disconnect();
        counter.stop();
        fixtureCleanup();
      }
      expect(redrawn).toBe(0);
      return drawn;
    }
    // 1 ms a card: a screenful (48) in the first task, then 16 a task.
    expect(await steps(100, 1)).toEqual(['48 first', '64', '80', '96', '100']);
    // 8 ms a card: the same first task, then 2 a task.
    expect(await steps(56, 8)).toEqual(['48 first', '50', '52', '54', '56']);
    // 1/8 ms a card: the first task has time for 80 more, then 128 a task.
    expect(await steps(400, 0.125)).toEqual(['48 first', '128 first', '256', '384', '400']);
    // A fast device draws a whole list at once.
    expect(await steps(400, 0.01)).toEqual(['48 first', '400 first']);
  });

  /** The window's height as layoutReads gives it to the grid: a phone's, whatever the test runner's frame is. */
  const READ_HEIGHT = 823;

  /**
   * What `run` reads of the layout (it may forget what it read so far): the window's height (on a phone's page, one with a viewport meta tag, a
   * layout of its own), a box, a computed style. Each, read in the middle of a task, forces a layout there.
   */
  async function layoutReads(run: (reads: string[]) => Promise<void>): Promise<string[]> {
    // Other tests' grids gone, and their last resize observations read: only `run` reads from here on.
    for (const grid of document.querySelectorAll('hub-table-grid')) grid.remove();
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 20)));
    const reads: string[] = [];
    const height = Object.getOwnPropertyDescriptor(window, 'innerHeight')!;
    const box = Element.prototype.getBoundingClientRect;
    const style = window.getComputedStyle;
    Object.defineProperty(window, 'innerHeight', { ...height, get: () => (reads.push('innerHeight'), READ_HEIGHT) });
    Element.prototype.getBoundingClientRect = function (this: Element) {
      reads.push('getBoundingClientRect');
      return box.call(this);
    };
    window.getComputedStyle = (...args) => (reads.push('getComputedStyle'), style(...args));
    try {
      await run(reads);
    } finally {
      Object.defineProperty(window, 'innerHeight', height);
      Element.prototype.getBoundingClientRect = box;
      window.getComputedStyle = style;
    }
    return reads;
  }

  it.skipIf(!inChromium)(
    'a new grid reads the layout once, by its first card, then its first task draws the cards that fill the window, and none is placed again',
    async () => {
      const many = list(100, 'm');
      const el = document.createElement('hub-table-grid');
      el.style.cssText = 'display: block; width: 200px';
      let moved = 0;
      const observer = new MutationObserver((records) => {
        for (const record of records) moved += [...record.removedNodes].filter((node) => 'table' in node).length;
      });
      const reads = await layoutReads(async () => {
        el.tables = many;
        document.body.append(el);
        await el.updateComplete;
      });
      // One column, the rows of the least card height below the list's top, in the window the grid was
      // given (not the test runner's frame, whose height differs from one machine to another).
      const first = Math.ceil((READ_HEIGHT - part(el, 'grid')!.getBoundingClientRect().top) / 48);
      expect(reads).toEqual(['getComputedStyle', 'innerHeight', 'innerHeight', 'getBoundingClientRect']);
      expect(first).toBeLessThan(48);
      expect(cards(el).length).toBeGreaterThanOrEqual(first);
      expect(el.getBoundingClientRect().bottom).toBeGreaterThanOrEqual(READ_HEIGHT);
      // Laid out, the grid keeps the screens it measured: the resize observer makes none again.
      observer.observe(el.shadowRoot!, { childList: true, subtree: true });
      await until(() => cards(el).length === many.length, 'every card');
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      observer.disconnect();
      expect(moved).toBe(0);
      el.remove();
    },
  );

  it.skipIf(!inChromium)(
    "a new empty list (each render of <hub-embed>'s loading state gives one) reads no layout: it has no screens to measure",
    async () => {
      const el = document.createElement('hub-table-grid');
      el.loading = true;
      const reads = await layoutReads(async (sofar) => {
        document.body.append(el);
        await el.updateComplete;
        // Laid out, its skeletons' screen observed: a list now would be measured.
        await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 20)));
        sofar.length = 0;
        for (let i = 0; i < 3; i++) {
          el.tables = [];
          await el.updateComplete;
        }
      });
      expect(reads).toEqual([]);
      expect(parts(el, 'skeleton').length).toBeGreaterThan(0);
      el.remove();
    },
  );

  it('a pace of a fraction of a card a task still draws every card of every list, in order, each once', async () => {
    const el = await grid([]);
    // 1.37 ms a card, as a real clock would measure it: each step's pace is a fraction of a card.
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => cards(el).length * 1.37);
    try {
      el.tables = list(300, 'f');
      await until(() => cards(el).length === 300, 'every card');
      const filtered = [...list(300, 'f').slice(7), ...list(300, 'f').slice(0, 7)];
      el.tables = filtered;
      await until(() => cards(el).length === 300 && cards(el)[0]!.table === filtered[0], 'every card again');
      expect(cards(el).map((card) => card.table)).toEqual(filtered);
    } finally {
      clock.mockRestore();
    }
  });

  it('the card of the table whose form is opening says it is busy, wherever it is in the list, and only it', async () => {
    const count = inChromium ? 400 : 60;
    const el = await grid(list(count, 'b'));
    await until(() => cards(el).length === count, 'every card');
    const busy = () =>
      cards(el)
        .filter((card) => part(card, 'card')!.getAttribute('aria-busy') === 'true')
        .map((card) => card.table!.short_code);
    expect(busy()).toEqual([]);
    // Cards already in are drawn again for it: a step of the drawing alone would only append.
    el.opening = `b${count - 1}`;
    await el.updateComplete;
    expect(busy()).toEqual([`b${count - 1}`]);
    el.opening = 'b0';
    await el.updateComplete;
    expect(busy()).toEqual(['b0']);
    el.opening = undefined;
    await el.updateComplete;
    expect(busy()).toEqual([]);
  });

  it("a filter change keeps each table's card, its very DOM moved into the new order and updated in place, and draws its first screen in the task that brings it", async () => {
    const count = inChromium ? 400 : 40;
    const el = await grid(list(count, 'k'));
    await until(() => cards(el).length === count, 'every card');
    const before = new Map(cards(el).map((card) => [card.table!.short_code, [card, part(card, 'card')]]));
    // The matches first, as the service lists them for a tag, in new objects as a new answer brings them;
    // the card of a table the list drops is let go.
    const reordered = [...list(count, 'k').slice(30), ...list(count, 'k').slice(0, 29)].map((table) => ({
      ...table,
      name: `${table.name}!`,
    }));
    const counter = taskCounter();
    el.tables = reordered;
    await el.updateComplete;
    counter.stop();
    expect(counter.tasks).toBe(0);
    if (inChromium) expect(el.getBoundingClientRect().bottom).toBeGreaterThanOrEqual(innerHeight);
    await until(() => cards(el).length === reordered.length, 'every card of the new order');
    expect(cards(el).map((card) => card.table)).toEqual(reordered);
    for (const card of cards(el)) {
      const [node, control] = before.get(card.table!.short_code)!;
      expect(card).toBe(node);
      expect(part(card, 'card')).toBe(control);
      expect(part(card, 'name')!.textContent).toBe(card.table!.name);
    }
    // A short code listed twice still gets a card in each place.
    el.tables = [reordered[0]!, reordered[0]!];
    await until(() => cards(el).length === 2, 'both cards');
    expect(new Set(cards(el)).size).toBe(2);
  });

  it('updateComplete always settles: a new list mid-draw, the grid or its cards taken out mid-draw, a render that throws', async () => {
    const settles = (el: HubTableGrid) =>
      Promise.race([
        el.updateComplete.then(
          () => 'settled',
          () => 'settled',
        ),
        new Promise((resolve) => setTimeout(() => resolve('hung'), 5_000)),
      ]);
    const el = await grid([]);
    const task = () => new Promise((resolve) => setTimeout(resolve));
    el.tables = list(300, 'a');
    await task();
    el.tables = list(300, 'b');
    expect(await settles(el)).toBe('settled');
    await task();
    el.remove();
    el.tables = list(300, 'c');
    expect(await settles(el)).toBe('settled');
    document.body.append(el);
    await task();
    for (const card of cards(el)) card.remove();
    el.tables = list(300, 'd');
    expect(await settles(el)).toBe('settled');
    await task();
    el.loading = true;
    el.tables = [];
    expect(await settles(el)).toBe('settled');
    el.loading = false;
    // Lit reports a render's error as an unhandled rejection, which the test runner would count against
    // this test (a listener of the page's own keeps it from that); only Chromium's is the page's own.
    if (!inChromium) return;
    const reported: unknown[] = [];
    const hear = (event: PromiseRejectionEvent) => {
      reported.push(event.reason);
      event.preventDefault();
    };
    addEventListener('unhandledrejection', hear);
    try {
      const hostile = {
        short_code: 'x',
        get name(): string {
          throw new Error('a table that cannot be read');
        },
      };
      el.tables = [...list(3, 'e'), hostile as unknown as PublishedTable];
      expect(await settles(el)).toBe('settled');
      // And the grid draws the next list as ever.
      el.tables = list(3, 'f');
      await until(() => cards(el).length === 3 && reported.length > 0, 'the next list, and the error reported');
      expect(String(reported[0])).toContain('a table that cannot be read');
    } finally {
      removeEventListener('unhandledrejection', hear);
    }
  });

  it.skipIf(!inChromium)(
    "each card's parts can be styled from the page through ::part, as in <hub-table-card>",
    async () => {
      const el = await grid([{ short_code: 'a', name: 'Alpha', industry: 'A', tags: ['x'] }]);
      const style = document.createElement('style');
      style.textContent = CARD_PARTS.split(',')
        .map((name, i) => `hub-table-grid::part(${name}) { outline: ${i + 1}px dotted red }`)
        .join('\n');
      document.head.append(style);
      try {
        for (const [i, name] of CARD_PARTS.split(',').entries())
          if (name !== 'icon') expect(getComputedStyle(part(el, name)!).outlineWidth, name).toBe(`${i + 1}px`);
        // The placeholder is part icon too; the rule for icon-placeholder comes later and wins.
        expect(part(el, 'icon')).toBe(part(el, 'icon-placeholder'));
      } finally {
        style.remove();
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
        // The card's screen keeps its box; what is skipped is its content. Chromium decides that at the frame
        // after the first layout (until then every card's content counts as skipped).
        const rendered = (card: Element) => part(card, 'name')!.checkVisibility({ contentVisibilityAuto: true });
        await until(() => rendered(first), 'the first card to render');
        expect(rendered(last)).toBe(false);
      },
    );

    it.skipIf(!inChromium)(
      'cards line up in whole rows across screens, and again after a resize to another number of columns',
      async () => {
        const el = await grid(many);
        // 15em cards of the grid's 14px text with 8px gaps: four columns at 900px, five at 1100px.
        el.style.cssText = 'display: block; width: 900px';
        await until(() => cards(el).length === many.length, 'every card');
        const lined = (columns: number) => {
          const boxes = cards(el).map((card) => card.getBoundingClientRect());
          return boxes.every(
            (box, i) =>
              box.left === boxes[i % columns]!.left && box.top === boxes[i - (i % columns)]!.top && box.width > 0,
          );
        };
        await until(() => lined(4), 'four columns');
        el.style.width = '1100px';
        // 48 cards make no whole rows of five: the screens are made again, in a task after the resize.
        await until(() => lined(5), 'five columns');
        expect(cards(el).map((card) => card.table)).toEqual(many);
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

    /** The control of the card of table `code`, focused, with the card scrolled to `top` px of the viewport. */
    async function focusAt(el: HubTableGrid, code: string, top: number) {
      const card = cards(el).find((node) => node.table!.short_code === code)!;
      scrollBy(0, card.getBoundingClientRect().top - top);
      await settle();
      part(card, 'card')!.focus();
      return card;
    }
    const focusedCode = (el: HubTableGrid) =>
      (el.shadowRoot!.activeElement?.closest('[role="listitem"]') as CardNode | null)?.table?.short_code;

    it.skipIf(!inChromium)(
      'the columns change: the focused card keeps the focus, by its table, and making the screens again moves nothing on screen',
      async () => {
        // Its screens past the first come with the form half, and what keeps the place with them.
        await loadFormOpener();
        const el = await grid(many);
        el.style.cssText = 'display: block; width: 900px';
        await until(() => cards(el).length === many.length, 'every card');
        await settle();
        const columns = () =>
          getComputedStyle(el.shadowRoot!.querySelector('.screen')!).gridTemplateColumns.split(' ').length;
        for (const [width, count] of [
          ['1100px', 5],
          ['700px', 3],
        ] as const) {
          const card = await focusAt(el, 'c120', 100);
          // Where the resize itself puts the card (the page reflows its text at once); the screens are made
          // again in a task after it, which must not move it.
          el.style.width = width;
          const resized = card.getBoundingClientRect().top;
          await until(() => columns() === count, `${count} columns`);
          await settle();
          expect(focusedCode(el), width).toBe('c120');
          expect(Math.abs(card.getBoundingClientRect().top - resized), width).toBeLessThan(2);
        }
        scrollTo(0, 0);
      },
    );

    it.skipIf(!inChromium)(
      'the same tables fetched again: each card stays, focused or not, the view does not move, and each shows its new data',
      async () => {
        await loadFormOpener();
        const el = await grid(many);
        await until(() => cards(el).length === many.length, 'every card');
        await settle();
        const card = await focusAt(el, 'c200', 150);
        const [y, top] = [scrollY, card.getBoundingClientRect().top];
        el.tables = many.map((table) => ({ ...table, name: `${table.name} (again)` }));
        await el.updateComplete;
        await settle();
        expect(focusedCode(el)).toBe('c200');
        expect(scrollY).toBe(y);
        expect(card.getBoundingClientRect().top).toBeCloseTo(top, 0);
        expect(cards(el)).toHaveLength(many.length);
        expect(part(card, 'name')!.textContent).toContain('(again)');
        scrollTo(0, 0);
      },
    );
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
