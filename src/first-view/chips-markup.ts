// The tag filter's chips as <hub-tag-filter> renders them (hub-tag-filter.ts), for the server's first view.
// A copy, not the element's own template: sharing the element's template cost the <script> bundles' first
// files 18-34 B gzip more than the card's sharing, past the npm path's room (see docs/architecture.md). The
// drift test (test/components/first-view-drift.test.ts) holds this copy to the element's rendered chips.
import type { WidgetStrings } from '../components/strings.js';
import { html, type Markup } from './markup-tag.js';

/**
 * The chip row: "All", then a `<button aria-pressed>` per offered tag (a tag offered twice shows once),
 * pressed when `selected` holds it ("All" when it holds none); "All" is the chip reachable with Tab.
 */
export function chipsMarkup(
  t: Pick<WidgetStrings, 'all' | 'filter'>,
  offered: readonly string[],
  selected: readonly string[],
): Markup {
  const chips = [undefined, ...new Set(offered)].map((tag, index) => {
    const pressed = tag === undefined ? selected.length === 0 : selected.includes(tag);
    const parts = ['chip', tag === undefined && 'chip-all', pressed && 'chip-pressed'].filter(Boolean).join(' ');
    return html`
      <button part=${parts} aria-pressed=${pressed} tabindex=${index === 0 ? 0 : -1} title=${tag ?? t.all}>${tag ?? t.all}</button>
    `;
  });
  return html`<div part="toolbar" role="toolbar" aria-label=${t.filter}>${chips}</div>`;
}
