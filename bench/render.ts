/**
 * Render: <hub-table-grid> against a hand-written plain-DOM grid of the same cards, in the same page.
 * Each figure is the time from handing over the data to the end of the next frame (a task queued from
 * requestAnimationFrame runs after that frame's style, layout and paint). The filter change re-orders
 * the list as the simulator does (tables matching the tag first): the element keeps each table's card
 * and moves it, and the baseline moves its existing card nodes into the new order and updates the count in
 * place, as careful hand-written code would. The element draws each list paced, as on a page: its first
 * screenful in the task that brings it, the rest in short tasks; its figure runs until the last card is
 * in. Ratios are paired: element / baseline within each repeat (who goes first rotates), then the median
 * and the spread (min to max) over the repeats. Fonts are warmed first. A third grid shows what a shadow
 * root per card would cost: the same plain code, each card in a shadow root of its own with the card's
 * stylesheet and parts, as a page placing <hub-table-card> elements would have, but no Lit. A fourth is the
 * plain grid paced as the element paces (SCREEN_CARDS, then tasks of TASK_MS): what pacing costs on its own,
 * the floor a paced grid stands on, beside which the element's own cost shows.
 */
import type { Browser } from 'playwright-core';
import { TASK_MS } from '../src/components/hub-table-grid/draw-schedule.js';
import { CARD_PARTS } from '../src/components/hub-table-grid/hub-table-grid.js';
import { SCREEN_CARDS } from '../src/components/hub-table-grid/screens.js';
import { styles as cardStyles } from '../src/components/hub-table-card/hub-table-card.styles.js';
import { shared } from '../src/components/shared.styles.js';
import { warmFonts } from './lib/fonts.js';
import { median, ratio } from './lib/stats.js';
import { startPageServer } from './lib/page-server.js';

export interface RenderCase {
  count: number;
  reps: number;
  litRenderMs: number;
  plainRenderMs: number;
  litFilterMs: number;
  plainFilterMs: number;
  /** The plain grid with each card in a shadow root, styled as <hub-table-card> is. */
  shadowRenderMs: number;
  shadowFilterMs: number;
  /** The plain grid paced as the element paces its cards: what pacing costs with nothing of Lit. */
  pacedRenderMs: number;
  pacedFilterMs: number;
  /** Median of the per-repeat ratios element / paced plain grid: the element's cost over pacing's own. */
  renderVsPaced: number;
  filterVsPaced: number;
  /** Median of the per-repeat ratios element / baseline, and their spread. */
  renderRatio: number;
  renderRatioSpread: [number, number];
  filterRatio: number;
  filterRatioSpread: [number, number];
  /** Cards counted in each grid after rendering: proves each rendered every card. */
  litCards: number;
  plainCards: number;
  shadowCards: number;
  pacedCards: number;
}

/** Rendering 1,000 cards, paced as the element paces them, at most this much the plain page's in one go. */
export const RENDER_TARGET_RATIO = 1.1;
/** A filter change over 1,000 cards at most this much the plain page's that moves its nodes in place. */
export const FILTER_TARGET_RATIO = 1.1;

interface Sample {
  pacedRender: number;
  pacedFilter: number;
  pacedCards: number;
  litRender: number;
  plainRender: number;
  shadowRender: number;
  litFilter: number;
  plainFilter: number;
  shadowFilter: number;
  litCards: number;
  plainCards: number;
  shadowCards: number;
}

type Grid = 'lit' | 'plain' | 'shadow' | 'paced';

/** Runs in the page. Self-contained: playwright serialises it. */
async function runInPage({
  count,
  order,
  cardStyle,
  pacing,
}: {
  count: number;
  order: Grid[];
  /** The element's pacing (its first screenful, and what one later task may take), for the paced plain grid. */
  pacing: { screenCards: number; taskMs: number };
  /** <hub-table-card>'s stylesheet and the parts the grid forwards, for the shadow-root cards. */
  cardStyle: { css: string; parts: string };
}): Promise<Sample> {
  const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  const tags = Array.from({ length: 20 }, (_, i) => `tag-${i}`);
  const tables = Array.from({ length: count }, (_, i) => ({
    short_code: `c${i.toString(36)}`,
    name: `Table ${i} ${['钢结构安装', 'Delivery', 'Catering', '教育培训'][i % 4]}`,
    industry: ['Construction', 'Logistics', '餐饮', 'Education'][i % 4]!,
    tags: [tags[i % 20]!, tags[(i * 7 + 3) % 20]!, tags[(i * 13 + 5) % 20]!],
  }));
  const matches = (t: (typeof tables)[number]) => t.tags.includes('tag-3');
  const filtered = [...tables.filter(matches), ...tables.filter((t) => !matches(t))];

  if (!document.getElementById('plain-style')) {
    const style = document.createElement('style');
    style.id = 'plain-style';
    // The same layout rules the elements use, so both grids lay out the same boxes.
    style.textContent =
      '.p-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(15em,1fr));gap:8px}' +
      // As the element's cards: after a screenful (48), off-screen ones are not rendered until they scroll near.
      '.p-item:nth-child(n+49){content-visibility:auto;contain-intrinsic-size:auto 88px}' +
      '.p-card{display:grid;grid-template:auto auto 1fr / 40px minmax(0,1fr);gap:2px 8px;height:100%;box-sizing:border-box;padding:8px;cursor:pointer;overflow-wrap:anywhere;border:1px solid #d1d9e0;border-radius:8px}' +
      '.p-icon{grid-row:span 3;width:40px;height:40px;display:grid;place-items:center;background:#f6f8fa;font-weight:600}' +
      '.p-name{font-weight:600;display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical;overflow:hidden}' +
      '.p-tags{display:flex;flex-wrap:wrap;gap:4px;min-width:0}.p-tag{padding:0 6px;font-size:.85em;border-radius:99px;background:#f6f8fa}';
    document.head.append(style);
  }
  const el = (tag: string, cls: string, text?: string) => {
    const node = document.createElement(tag);
    node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  };
  /** The cards by short code, so that a filter change moves existing nodes instead of making new ones. */
  const items = new Map<string, HTMLElement>();
  const cardSheet = new CSSStyleSheet();
  cardSheet.replaceSync(cardStyle.css);
  /** A table's card in its list item. `shadow`: in the item's shadow root, with <hub-table-card>'s stylesheet and parts. */
  const makeItem = (host: HTMLElement, table: (typeof tables)[number], shadow: boolean) => {
    const item = el('div', 'p-item');
    item.setAttribute('role', 'listitem');
    const card = el('div', 'p-card');
    card.setAttribute('role', 'button');
    card.tabIndex = 0;
    card.addEventListener('click', () => host.dispatchEvent(new CustomEvent('select', { detail: table })));
    card.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') host.dispatchEvent(new CustomEvent('select', { detail: table }));
    });
    const icon = el('span', 'p-icon', [...table.name][0] ?? '');
    icon.setAttribute('aria-hidden', 'true');
    const tagList = el('span', 'p-tags');
    for (const tag of table.tags) tagList.append(el('span', 'p-tag', tag));
    card.append(icon, el('span', 'p-name', table.name), el('span', 'p-industry', table.industry), tagList);
    if (shadow) {
      // The card's parts instead of classes: its stylesheet selects them.
      for (const node of [card, ...card.querySelectorAll('span')]) {
        node.setAttribute('part', node.className.slice(2).replace('icon', 'icon icon-placeholder'));
        node.removeAttribute('class');
      }
      item.setAttribute('exportparts', cardStyle.parts);
      const root = item.attachShadow({ mode: 'open' });
      root.adoptedStyleSheets = [cardSheet];
      root.append(card);
    } else item.append(card);
    items.set(table.short_code, item);
    return item;
  };
  /** A new list's count line and its empty grid, the cards of the last list forgotten. */
  const newList = (list: typeof tables) => {
    items.clear();
    const count = el('p', 'p-count', `${list.length} results`);
    count.setAttribute('role', 'status');
    const grid = el('div', 'p-grid');
    grid.setAttribute('role', 'list');
    return [count, grid] as const;
  };
  const renderPlain = (host: HTMLElement, list: typeof tables, shadow = false) => {
    const [count, grid] = newList(list);
    for (const table of list) grid.append(makeItem(host, table, shadow));
    host.replaceChildren(count, grid);
  };
  /** A task of its own, as the element starts each step of its drawing: a message to ourselves. */
  const nextTask = () =>
    new Promise<void>((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        resolve();
      };
      channel.port2.postMessage(0);
    });
  /**
   * Puts the items of `list` in `grid` paced as the element paces its cards, with nothing of Lit: a
   * screenful in this task, then as many as each later task's share of time holds. `item` makes or finds
   * each. What pacing costs on its own: the floor of a paced grid.
   */
  const appendPaced = async (grid: Element, list: typeof tables, item: (table: (typeof tables)[number]) => Element) => {
    let at = 0;
    for (; at < Math.min(pacing.screenCards, list.length); at++) grid.append(item(list[at]!));
    while (at < list.length) {
      await nextTask();
      const start = performance.now();
      while (at < list.length && performance.now() - start < pacing.taskMs) grid.append(item(list[at++]!));
    }
  };
  const renderPaced = async (host: HTMLElement, list: typeof tables) => {
    const [count, grid] = newList(list);
    host.replaceChildren(count, grid);
    await appendPaced(grid, list, (table) => makeItem(host, table, false));
  };
  const reorderPaced = async (host: HTMLElement, list: typeof tables) => {
    host.querySelector('.p-count')!.textContent = `${list.length} results`;
    const grid = host.querySelector('.p-grid')!;
    grid.replaceChildren();
    await appendPaced(grid, list, (table) => items.get(table.short_code)!);
  };
  /** The same tables in a new order: the nodes move, the count's text changes, nothing is rebuilt. */
  const reorderPlain = (host: HTMLElement, list: typeof tables) => {
    host.querySelector('.p-count')!.textContent = `${list.length} results`;
    host.querySelector('.p-grid')!.replaceChildren(...list.map((table) => items.get(table.short_code)!));
  };

  /**
   * Until the grid holds `count` cards in the order of `list`: a first list comes a few tasks after
   * updateComplete. Polled between the grid's tasks by counting alone, the least work a page could do to
   * know, so that the polling adds as little as it can to the grid's figure; the order is checked once.
   */
  const allDrawn = async (grid: HTMLElement & { updateComplete: Promise<boolean> }, list: typeof tables) => {
    await grid.updateComplete;
    const items = () => grid.shadowRoot!.querySelectorAll('[role="listitem"]');
    while (items().length < list.length) await new Promise((resolve) => setTimeout(resolve));
    // Each card a list item of the grid's shadow root, carrying its table.
    const codes = [...items()].map(
      (card) => (card as HTMLElement & { table?: { short_code: string } }).table?.short_code,
    );
    if (codes.some((code, i) => code !== list[i]!.short_code)) throw new Error('the grid drew another order');
  };
  const sample: Partial<Sample> = {};
  const runLit = async () => {
    const grid = document.createElement('hub-table-grid') as HTMLElement & {
      tables: unknown;
      updateComplete: Promise<boolean>;
    };
    document.body.append(grid);
    await frame();
    let start = performance.now();
    grid.tables = tables;
    await allDrawn(grid, tables);
    await frame();
    sample.litRender = performance.now() - start;
    sample.litCards = grid.shadowRoot!.querySelectorAll('[role="listitem"]').length;
    start = performance.now();
    grid.tables = filtered;
    await allDrawn(grid, filtered);
    await frame();
    sample.litFilter = performance.now() - start;
    grid.remove();
    await frame();
  };
  const runPlain = async (grid: Exclude<Grid, 'lit'>) => {
    const host = document.createElement('div');
    document.body.append(host);
    await frame();
    let start = performance.now();
    if (grid === 'paced') await renderPaced(host, tables);
    else renderPlain(host, tables, grid === 'shadow');
    await frame();
    const renderMs = performance.now() - start;
    sample[`${grid}Cards`] = host.querySelectorAll('.p-item').length;
    start = performance.now();
    if (grid === 'paced') await reorderPaced(host, filtered);
    else reorderPlain(host, filtered);
    await frame();
    const filterMs = performance.now() - start;
    Object.assign(sample, { [`${grid}Render`]: renderMs, [`${grid}Filter`]: filterMs });
    host.remove();
    await frame();
  };
  for (const grid of order) await (grid === 'lit' ? runLit() : runPlain(grid));
  return sample as Sample;
}

export async function measureRender(
  browser: Browser,
  options: { counts: number[]; reps: number },
): Promise<RenderCase[]> {
  // The page server needs a simulator address only for its token endpoint, which this page never calls.
  const server = await startPageServer({ baseUrl: 'http://127.0.0.1:9', apiKey: 'unused' });
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  const results: RenderCase[] = [];
  const cardStyle = { css: `${shared.cssText}\n${cardStyles.cssText}`, parts: CARD_PARTS };
  const pacing = { screenCards: SCREEN_CARDS, taskMs: TASK_MS };
  try {
    await page.goto(server.url);
    await page.waitForFunction(() => customElements.get('hub-table-grid') !== undefined);
    await page.evaluate(warmFonts);
    for (const count of options.counts) {
      const samples: Sample[] = [];
      // Who goes first rotates, so warm caches and GC debt do not always favour the same grid.
      const grids: Grid[] = ['lit', 'plain', 'shadow', 'paced'];
      for (let rep = 0; rep < options.reps; rep++) {
        const order = grids.map((_, i) => grids[(i + rep) % grids.length]!);
        samples.push(await page.evaluate(runInPage, { count, order, cardStyle, pacing }));
      }
      const pick = (key: keyof Sample) => median(samples.map((s) => s[key]));
      const paired = (lit: keyof Sample, plain: keyof Sample) => {
        const ratios = samples.map((s) => ratio(s[lit], s[plain]));
        return [median(ratios), [Math.min(...ratios), Math.max(...ratios)]] as const;
      };
      const [renderRatio, renderRatioSpread] = paired('litRender', 'plainRender');
      const [filterRatio, filterRatioSpread] = paired('litFilter', 'plainFilter');
      const [renderVsPaced] = paired('litRender', 'pacedRender');
      const [filterVsPaced] = paired('litFilter', 'pacedFilter');
      results.push({
        renderRatio,
        renderRatioSpread: [...renderRatioSpread],
        filterRatio,
        filterRatioSpread: [...filterRatioSpread],
        count,
        reps: options.reps,
        litRenderMs: pick('litRender'),
        plainRenderMs: pick('plainRender'),
        litFilterMs: pick('litFilter'),
        plainFilterMs: pick('plainFilter'),
        shadowRenderMs: pick('shadowRender'),
        shadowFilterMs: pick('shadowFilter'),
        pacedRenderMs: pick('pacedRender'),
        pacedFilterMs: pick('pacedFilter'),
        renderVsPaced,
        filterVsPaced,
        litCards: Math.min(...samples.map((s) => s.litCards)),
        plainCards: Math.min(...samples.map((s) => s.plainCards)),
        shadowCards: Math.min(...samples.map((s) => s.shadowCards)),
        pacedCards: Math.min(...samples.map((s) => s.pacedCards)),
      });
    }
  } finally {
    await page.close();
    await server.close();
  }
  return results;
}
