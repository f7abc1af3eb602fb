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

function element(tag: string, part: string, text = ''): HTMLElement {
  const node = document.createElement(tag);
  node.setAttribute('part', part);
  node.textContent = text;
  return node;
}

/** A value shown as text, as a template would show it: nothing for null or undefined. */
// eslint-disable-next-line @typescript-eslint/no-base-to-string -- a table from the network may hold anything
const text = (value: unknown) => (value == null ? '' : String(value));

/** The card's control and its parts, without content: made once, then cloned for each card. */
let blank: HTMLElement | undefined;

function newCard(): HTMLElement {
  if (!blank) {
    blank = element('div', 'card');
    blank.setAttribute('role', 'button');
    blank.tabIndex = 0;
    blank.append(
      element('span', 'icon'),
      element('span', 'name'),
      element('span', 'industry'),
      element('span', 'tags'),
    );
  }
  return blank.cloneNode(true) as HTMLElement;
}

/**
 * Draws one table's card into `parent`, or updates the card drawn there: the one markup of
 * `<hub-table-card>` (into its shadow root) and of each card of `<hub-table-grid>` (into a list item of the
 * grid's shadow root, with the card's stylesheet, so that a card costs no element and no shadow root of its
 * own). Plain nodes cloned and filled with text, as a hand-written page draws them: a grid draws a thousand
 * cards, and a template per card cost twice the time. `broken`: an icon URL that failed to load, for which
 * the placeholder shows (a table with another icon tries that one). What a card does is listenToCards'.
 */
export function drawCard(parent: ParentNode, table: PublishedTable, busy: boolean, broken?: string): void {
  // Beside the card, a shadow root may hold styles, where Lit has to add them as nodes.
  const card = parent.querySelector<HTMLElement>('[part="card"]') ?? parent.appendChild(newCard());
  const [icon, name, industry, tags] = card.children as unknown as HTMLElement[];
  const title = text(table.name);
  card.setAttribute('aria-busy', String(busy));
  name!.textContent = title;
  industry!.textContent = text(table.industry);
  tags!.replaceChildren(...arrayOf(table.tags).map((tag) => element('span', 'tag', text(tag))));
  const url = safeHttpUrl(table.icon);
  if (url && url !== broken) {
    if (icon!.getAttribute('src') === url) return;
    // Lazy and low priority before the source: the fetch starts as the source is set. The priority as an
    // attribute: an engine without the property would keep it as a plain field.
    const img = element('img', 'icon');
    img.setAttribute('fetchpriority', 'low');
    icon!.replaceWith(Object.assign(img, { loading: 'lazy', width: 40, height: 40, alt: '', src: url }));
  } else {
    // The first code point, not the first UTF-16 unit: an emoji or a rare CJK character stays whole.
    // eslint-disable-next-line @typescript-eslint/no-misused-spread
    const placeholder = element('span', 'icon icon-placeholder', [...title][0] ?? '');
    placeholder.setAttribute('aria-hidden', 'true');
    icon!.replaceWith(placeholder);
  }
}

/**
 * Whether the card drawn for `drawn` shows `table` as it is: a new answer brings new objects for the same
 * tables, and a card redrawn with what it shows would cost a list of a thousand the time of drawing it.
 */
export function showsSame(drawn: PublishedTable, table: PublishedTable): boolean {
  const [tags, others] = [arrayOf(drawn.tags), arrayOf(table.tags)];
  return (
    drawn.name === table.name &&
    drawn.industry === table.industry &&
    drawn.icon === table.icon &&
    tags.length === others.length &&
    tags.every((tag, index) => tag === others[index])
  );
}

/** Takes the card drawn into `parent` out. */
export function clearCard(parent: ParentNode): void {
  parent.querySelector('[part="card"]')?.remove();
}

/**
 * What the cards drawn under `root` do, with one listener for all of them: Enter, Space or a click on a
 * card's control calls `select` with the card's parent (the node drawCard drew it into), and an icon that
 * fails to load calls `broke` with the parent and the icon's URL (the owner draws the card again with it).
 * Heard on the way down, as an image's error does not bubble.
 */
export function listenToCards<Parent extends ParentNode>(
  root: Node,
  select: (parent: Parent) => void,
  broke: (parent: Parent, icon: string) => void,
): void {
  const listener = (event: Event) => {
    const target = event.target as Element;
    const parent = target.closest?.('[part="card"]')?.parentNode as Parent | null;
    const { key } = event as KeyboardEvent;
    if (!parent) return;
    if (event.type === 'error') broke(parent, target.getAttribute('src')!);
    else if (key === undefined) select(parent);
    else if (key === 'Enter' || key === ' ') {
      // Space would scroll the page; a role=button div has no native activation to double up.
      event.preventDefault();
      select(parent);
    }
  };
  for (const type of ['click', 'keydown', 'error']) root.addEventListener(type, listener, true);
}
