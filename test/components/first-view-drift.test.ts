// The server's first view (src/first-view/) against what the elements render (issue 80, item 1):
// the same lists, from the same simulator, give the same shadow trees. Comments (Lit's markers), <style>
// (the elements adopt their sheets instead) and whitespace-only text are not markup that differs; the grid's
// lists' `style` (their screens' row count, set once laid out) is the element's measure, not the server's.
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureCleanup } from '@open-wc/testing';
import '../../src/define.js';
import { stringsFor } from '../../src/components/strings.js';
import type { PublishedTable } from '../../src/core/types.js';
import { toTable } from '../../src/core/web-client.js';
import { firstViewMarkup } from '../../src/first-view/first-view-markup.js';
import { filterOf, gridOf, inChromium, loadedEmbed, publishedAnswers, setupHub } from './helpers.js';

afterEach(() => fixtureCleanup());

/** A tree as plain data: tag, sorted attributes, children; what both sides must agree on. */
type Shape = string | { tag: string; attributes: string[]; children: Shape[] };
function shape(node: Node): Shape[] {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent!.trim() ? [node.textContent!] : [];
  if (node.nodeType !== Node.ELEMENT_NODE) return [];
  const element = node as Element;
  if (element.localName === 'style' || element.localName === 'template') return [];
  const attributes = [...element.attributes]
    // The view's mark, by which the element takes it over (first-view-takeover.test.ts).
    .filter((a) => a.name !== 'style' && a.name !== 'data-first-view')
    .map((a) => `${a.name}=${a.value}`)
    .sort();
  return [{ tag: hostTag(element), attributes, children: rootShape(element) }];
}
/**
 * The element a node stands for: the server writes the filter and the grid as <div>s holding their shadow
 * trees (an element would upgrade and draw into them), known by the parts they forward.
 */
function hostTag(element: Element): string {
  const forwarded = element.localName === 'div' ? element.getAttribute('exportparts') : null;
  if (forwarded?.startsWith('toolbar,')) return 'hub-tag-filter';
  if (forwarded?.startsWith('count,')) return 'hub-table-grid';
  return element.localName;
}

/** The children of a node, merged where Lit's markers split one text in two. */
function rootShape(parent: ParentNode): Shape[] {
  const out: Shape[] = [];
  for (const child of parent.childNodes)
    for (const item of shape(child)) {
      const last = out.at(-1);
      if (typeof item === 'string' && typeof last === 'string') out[out.length - 1] = last + item;
      else out.push(item);
    }
  return out;
}

const HOSTILE: unknown[] = [
  {
    short_code: 'rtl',
    name: '\u202eevil\u200f名',
    industry: 'a\u2028b',
    tags: ['</template><script>x</script>'],
    icon: 'javascript:alert(1)',
  },
  {
    short_code: 'emoji',
    name: '🍂 leaf',
    industry: '<b>bold</b>',
    tags: ['x', 'y & z'],
    icon: `${location.origin}/never-answers/a.png?x="1"`,
  },
];

// Declarative shadow DOM is parsed by a real engine only (happy-dom has no parseHTMLUnsafe): Chromium.
describe.skipIf(!inChromium)('first view drift: the server HTML and the elements render the same shadow trees', () => {
  it('the filter, the cards and the count agree, for the lists a page loads', async () => {
    const s = setupHub();
    // Icons that stay loading (the test server's /never-answers/): one that failed would show the
    // placeholder in the element only, which is the element's later state, not drift.
    for (const [i, name] of ['Drift Alpha', '\u202eevil\u200f名', '🍂 <b>leaf</b>'].entries())
      s.hub.addTable({
        project_id: 8800 + i,
        short_code: `drift-${i}`,
        name,
        industry: 'a\u2028b',
        icon: `${location.origin}/never-answers/icon-${i}.png?q="1"`,
        tags: ['drift', '</template><script>x</script>'],
        type: 'A',
        published: true,
        price_cents: 0,
      });
    const attrs = { limit: '6', tags: 'drift', 'matches-only': '' };
    const el = await loadedEmbed(s, { ...attrs, locale: 'en' });
    const selected = ['drift'];
    // The same answers the prefetch would fetch, from the same simulator.
    const { offered, tables } = await publishedAnswers(s.hub, { tags: selected, limit: 6 });
    const server = Document.parseHTMLUnsafe(
      firstViewMarkup({
        attributes: [['locale', 'en']],
        strings: stringsFor('en'),
        offered,
        tables,
        selected,
        matchesOnly: true,
      }),
    );
    const embed = server.querySelector('hub-embed')!;
    expect(embed.shadowRoot, 'declarative shadow root').toBeTruthy();
    const [serverFilter, serverGrid] = embed.shadowRoot!.querySelector('[data-first-view]')!.children;
    expect(rootShape(serverFilter!.shadowRoot!)).toEqual(rootShape(filterOf(el).shadowRoot!));
    expect(rootShape(serverGrid!.shadowRoot!)).toEqual(rootShape(gridOf(el).shadowRoot!));
    expect(rootShape(embed.shadowRoot!)).toEqual(rootShape(el.shadowRoot!));
  });

  it('hostile names, tags and icons: the server card and the element card agree', async () => {
    const tables = HOSTILE.map(toTable).filter((table): table is PublishedTable => !!table);
    const server = Document.parseHTMLUnsafe(
      firstViewMarkup({
        attributes: [],
        strings: stringsFor('en'),
        offered: ['</template>'],
        tables,
        selected: [],
        matchesOnly: false,
      }),
    );
    const grid = document.createElement('hub-table-grid');
    grid.locale = 'en';
    grid.tables = tables;
    document.body.append(grid);
    try {
      await grid.updateComplete;
      const serverGrid = server.querySelector('hub-embed')!.shadowRoot!.querySelector('[exportparts^="count,"]')!;
      expect(serverGrid.shadowRoot!.querySelector('script')).toBeNull();
      expect(rootShape(serverGrid.shadowRoot!)).toEqual(rootShape(grid.shadowRoot!));
    } finally {
      grid.remove();
    }
  });
});
