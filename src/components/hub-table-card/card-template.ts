import { html } from 'lit';
import { safeHttpUrl } from '../../core/urls.js';
import type { PublishedTable } from '../../core/types.js';
import { arrayOf } from '../base.js';

/**
 * A card on the page: a `<hub-table-card>`, or a list item (`role="listitem"`) of `<hub-table-grid>`.
 * Each carries its table, so that what hears an event inside one (a pointer resting on it) can tell which.
 */
export interface CardNode extends HTMLElement {
  table?: PublishedTable;
}

/**
 * One table's card, the one markup for `<hub-table-card>` and for each card of `<hub-table-grid>` (which
 * renders it into a list item of its own shadow root, with the card's stylesheet, so that a card costs no
 * element and no shadow root of its own). `broken`: an icon URL that failed to load, for which the
 * placeholder shows (a table with another icon tries that one). The template binds no listener: one
 * listener on the owner's root hears every card (listenToCards), instead of three bindings, each with a
 * function of its own, made for each of a thousand cards.
 */
export function cardTemplate(table: PublishedTable, busy: boolean, broken?: string) {
  const name = String(table.name ?? '');
  const icon = safeHttpUrl(table.icon);
  // One fragment of plain nodes, not a template and a part each: a grid draws a thousand cards, and those
  // cost more than the rest of the card.
  const tags = document.createDocumentFragment();
  for (const tag of arrayOf(table.tags)) {
    const node = document.createElement('span');
    node.setAttribute('part', 'tag');
    node.textContent = tag;
    tags.append(node);
  }
  return html`
    <div part="card" role="button" tabindex="0" aria-busy=${busy}>
      ${
        icon && icon !== broken
          ? html`<img part="icon" src=${icon} alt="" loading="lazy" fetchpriority="low" width="40" height="40" />`
          : // The first code point, not the first UTF-16 unit: an emoji or a rare CJK character stays whole.
            // eslint-disable-next-line @typescript-eslint/no-misused-spread
            html`<span part="icon icon-placeholder" aria-hidden="true">${[...name][0]}</span>`
      }
      <span part="name">${name}</span>
      <span part="industry">${table.industry}</span>
      <span part="tags">${tags}</span>
    </div>
  `;
}

/**
 * What the cards rendered under `root` do, with one listener for all of them: Enter, Space or a click on
 * a card's control calls `select` with the card's parent (the node its template was rendered into), and
 * an icon that fails to load calls `broke` with the parent and the icon's URL (the owner renders the card
 * again with it). Heard on the way down, as an image's error does not bubble.
 */
export function listenToCards<Parent extends ParentNode>(
  root: Node,
  select: (parent: Parent) => void,
  broke: (parent: Parent, icon: string) => void,
): void {
  const listener = (event: Event) => {
    const target = event.target as Element;
    const parent = target.closest('[part=card]')?.parentNode as Parent | null;
    const { key } = event as KeyboardEvent;
    if (!parent) return;
    if (event.type === 'error') broke(parent, (target as HTMLImageElement).src);
    else if (!key) select(parent);
    else if (key === 'Enter' || key === ' ') {
      // Space would scroll the page; a role=button div has no native activation to double up.
      event.preventDefault();
      select(parent);
    }
  };
  for (const type of ['click', 'keydown', 'error']) root.addEventListener(type, listener, true);
}
