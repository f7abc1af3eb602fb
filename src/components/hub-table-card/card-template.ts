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
 * renders it in its own shadow root, with the card's stylesheet, so that a card costs no element and no
 * shadow root of its own). `broken`: an icon URL that failed to load, for which the placeholder shows;
 * `broke` is called with the URL when it fails, and the owner renders the card again with it (a table
 * with another icon tries that one). `select`: Enter, Space or a click on the card's control; the owner
 * sends hub-table-select.
 */
export function cardTemplate(
  table: PublishedTable,
  busy: boolean,
  broken: string | undefined,
  broke: (icon: string) => void,
  select: () => void,
) {
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
  const onKey = (event: KeyboardEvent) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    // Space would scroll the page; a role=button div has no native activation to double up.
    event.preventDefault();
    select();
  };
  return html`
    <div
      part="card"
      role="button"
      tabindex="0"
      aria-busy=${busy}
      @click=${select}
      @keydown=${onKey}
    >
      ${
        icon && icon !== broken
          ? html`
            <img
              part="icon"
              src=${icon}
              alt=""
              loading="lazy"
              fetchpriority="low"
              width="40"
              height="40"
              @error=${() => broke(icon)}
            />
          `
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
