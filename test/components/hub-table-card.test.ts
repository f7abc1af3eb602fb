import { describe, expect, it } from 'vitest';
import { fixture, fixtureCleanup, html, oneEvent } from '@open-wc/testing';
import '../../src/define.js';
import type { HubTableCard } from '../../src/components/hub-table-card/hub-table-card.js';
import type { HubTableGrid } from '../../src/components/hub-table-grid/hub-table-grid.js';
import type { PublishedTable } from '../../src/core/types.js';
import { describeAccessible, onPage, type Look } from './accessible.js';
import { inChromium, key, part, parts } from './helpers.js';

const table: PublishedTable = {
  short_code: 'k3Xp9a',
  name: 'Steel works',
  industry: 'Construction',
  icon: 'https://example.com/i.png',
  tags: ['steel', 'build'],
};

async function card(value: unknown): Promise<HubTableCard> {
  return fixture<HubTableCard>(html`<hub-table-card .table=${value as PublishedTable}></hub-table-card>`);
}

describe('<hub-table-card>', () => {
  it('shows icon, name, industry and tags as parts inside one role=button control', async () => {
    const el = await card(table);
    const control = part(el, 'card')!;
    expect(control.getAttribute('role')).toBe('button');
    expect(control.tabIndex).toBe(0);
    expect(part(el, 'name')!.textContent).toBe('Steel works');
    expect(part(el, 'industry')!.textContent).toBe('Construction');
    expect(parts(el, 'tag').map((tag) => tag.textContent)).toEqual(['steel', 'build']);
    expect(el.shadowRoot!.querySelectorAll('button, a, input')).toHaveLength(0);
  });

  it('the icon is lazy, low priority (list requests to the same host go first) and fixed-size', async () => {
    const el = await card(table);
    const img = part<HTMLImageElement>(el, 'icon')!;
    expect(img.tagName).toBe('IMG');
    expect(img.getAttribute('loading')).toBe('lazy');
    expect(img.getAttribute('fetchpriority')).toBe('low');
    expect([img.getAttribute('width'), img.getAttribute('height')]).toEqual(['40', '40']);
    expect(img.getAttribute('alt')).toBe('');
  });

  it('a missing or non-http(s) icon shows the placeholder', async () => {
    for (const icon of [undefined, '', 'javascript:alert(1)', 'data:image/svg+xml,<svg/>', 'not a url']) {
      const el = await card({ ...table, icon });
      expect(el.shadowRoot!.querySelector('img')).toBeNull();
      expect(part(el, 'icon-placeholder')!.textContent).toBe('S');
      fixtureCleanup();
    }
  });

  it('a table without a name shows an empty placeholder, not "undefined"', async () => {
    const el = await card({ ...table, name: '', icon: undefined });
    expect(part(el, 'icon-placeholder')!.textContent).toBe('');
    expect(part(el, 'name')!.textContent).toBe('');
  });

  it('a broken icon is replaced by the placeholder, and a new table tries its icon again', async () => {
    const el = await card(table);
    part(el, 'icon')!.dispatchEvent(new Event('error'));
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('img')).toBeNull();
    expect(part(el, 'icon-placeholder')).not.toBeNull();
    el.table = { ...table, icon: 'https://example.com/other.png' };
    await el.updateComplete;
    expect(part<HTMLImageElement>(el, 'icon')!.getAttribute('src')).toBe('https://example.com/other.png');
  });

  it('click, Enter and Space fire hub-table-select {table}, cancelable, bubbling and composed', async () => {
    const el = await card(table);
    const control = part(el, 'card')!;
    setTimeout(() => control.click());
    const clicked = await oneEvent(el, 'hub-table-select');
    expect(clicked.detail.table).toBe(table);
    expect([clicked.cancelable, clicked.bubbles, clicked.composed]).toEqual([true, true, true]);
    const seen: unknown[] = [];
    el.addEventListener('hub-table-select', (event) => seen.push(event.detail.table));
    expect(key(control, 'Enter').defaultPrevented).toBe(true);
    expect(key(control, ' ').defaultPrevented).toBe(true);
    expect(key(control, 'a').defaultPrevented).toBe(false);
    expect(seen).toEqual([table, table]);
  });

  it('renders the same markup and styles as each card of <hub-table-grid>: one template, one stylesheet', async () => {
    /** Each element's name, attributes and children, and each text: the markup, without Lit's comments. */
    const shape = (node: Node): unknown =>
      node instanceof Element
        ? [node.localName, [...node.attributes].map((a) => `${a.name}=${a.value}`), [...node.childNodes].map(shape)]
        : node.nodeType === Node.TEXT_NODE
          ? node.textContent
          : null;
    for (const value of [table, { ...table, icon: undefined, tags: [] }, { ...table, name: '🍂<b>x</b>' }]) {
      const el = await card(value);
      const grid = await fixture<HubTableGrid>(html`<hub-table-grid .tables=${[value]}></hub-table-grid>`);
      expect(shape(part(grid, 'card')!)).toEqual(shape(part(el, 'card')!));
      const sheets = (root: ShadowRoot) => root.adoptedStyleSheets.flatMap((sheet) => [...sheet.cssRules]);
      const cardRules = sheets(el.shadowRoot!).map((rule) => rule.cssText);
      const gridRules = sheets(grid.shadowRoot!).map((rule) => rule.cssText);
      expect(cardRules.every((rule) => gridRules.includes(rule))).toBe(true);
      fixtureCleanup();
    }
  });

  it('without a table it renders nothing and fires nothing', async () => {
    const el = await card(undefined);
    expect(part(el, 'card')).toBeNull();
  });

  it('hostile data renders as text: HTML, U+2028, emoji, very long names, wrong types', async () => {
    const name = '<script>alert(1)</script>\u2028🍂' + 'x'.repeat(3000);
    const el = await card({
      short_code: 'a',
      name,
      industry: '<b>i</b>',
      icon: 'javascript:alert(1)',
      tags: 'not-an-array',
    });
    expect(part(el, 'name')!.textContent).toBe(name);
    expect(part(el, 'industry')!.textContent).toBe('<b>i</b>');
    expect(el.shadowRoot!.querySelector('script, b')).toBeNull();
    expect(parts(el, 'tag')).toHaveLength(0);
    if (inChromium) {
      el.style.width = '240px';
      expect(part(el, 'card')!.getBoundingClientRect().width).toBeLessThanOrEqual(240);
      expect(part(el, 'name')!.getBoundingClientRect().height).toBeLessThan(100);
    }
  });

  it.skipIf(!inChromium)('a very long tag is cut with an ellipsis inside the card', async () => {
    const el = await card({ ...table, tags: ['x'.repeat(500), 'short'] });
    el.style.width = '240px';
    const [long] = parts(el, 'tag');
    const tags = part(el, 'tags')!.getBoundingClientRect();
    expect(long!.scrollWidth).toBeGreaterThan(long!.clientWidth);
    expect(long!.getBoundingClientRect().right).toBeLessThanOrEqual(tags.right);
    expect(tags.right).toBeLessThanOrEqual(part(el, 'card')!.getBoundingClientRect().right);
  });

  /** A 1x1 PNG: an icon that loads, without the network. */
  const icon =
    'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
  const cardOnPage = (value: PublishedTable) => (look: Look) =>
    onPage<HubTableCard>(look, html`<hub-table-card locale=${look.locale} .table=${value}></hub-table-card>`);
  describeAccessible({
    'with its icon': cardOnPage({ ...table, icon }),
    'with the placeholder for a missing icon': cardOnPage({ ...table, icon: undefined }),
    'with long names, industry and tags': cardOnPage({
      ...table,
      name: '秋季 Autumn promotion '.repeat(12),
      industry: 'Construction and heavy engineering '.repeat(6),
      tags: ['x'.repeat(200), '物流'.repeat(40), 'short'],
    }),
  });
});
