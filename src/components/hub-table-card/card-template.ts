import { html } from 'lit';
import type { PublishedTable } from '../../core/types.js';
import { arrayOf } from '../base.js';
import { cardMarkup, TAG_PART } from './card-markup-template.js';

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
 * element and no shadow root of its own), described once in card-markup-template.ts. `broken`: an icon URL
 * that failed to load, for which the placeholder shows (a table with another icon tries that one). The
 * template binds no listener: one listener on the owner's root hears every card (listenToCards), instead
 * of three bindings, each with a function of its own, made for each of a thousand cards.
 */
export function cardTemplate(table: PublishedTable, busy: boolean, broken?: string) {
  // One fragment of plain nodes, not a template and a part each: a grid draws a thousand cards, and those
  // cost more than the rest of the card.
  const tags = document.createDocumentFragment();
  for (const tag of arrayOf(table.tags)) {
    const node = document.createElement('span');
    node.setAttribute('part', TAG_PART);
    node.textContent = tag;
    tags.append(node);
  }
  return cardMarkup(html, table, busy, broken, tags);
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
