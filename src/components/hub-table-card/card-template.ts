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
 * What a card shows and does. `broken`: an icon URL that failed to load, for which the placeholder shows;
 * `broke` is called with the URL when it fails, and the owner draws the card again with it (a table with
 * another icon tries that one). `select`: Enter, Space or a click on the card's control; the owner sends
 * hub-table-select.
 */
export interface CardState {
  table: PublishedTable;
  busy: boolean;
  broken?: string;
  broke: (icon: string) => void;
  select: () => void;
}

/** A card drawn into a parent: its nodes, and the state it was last drawn with, which its listeners read. */
interface Drawn {
  state: CardState;
  card: HTMLElement;
  icon: HTMLElement;
  /** What the icon shows: its URL, or the placeholder's text after a space (a URL never starts with one). */
  shows?: string;
}

const drawn = new WeakMap<ParentNode, Drawn>();

function el(tag: string, attributes: Record<string, string>, text = ''): HTMLElement {
  const node = document.createElement(tag);
  for (const name in attributes) node.setAttribute(name, attributes[name]!);
  node.textContent = text;
  return node;
}

/** A value as the text a template would show: nothing for null or undefined. */
// eslint-disable-next-line @typescript-eslint/no-base-to-string -- a table from the network may hold anything: shown as a template would
const text = (value: unknown) => (value == null ? '' : String(value));

/**
 * Draws one table's card into `parent`, the one markup of `<hub-table-card>` (into its shadow root) and of
 * each card of `<hub-table-grid>` (into a list item of its shadow root, with the card's stylesheet), and
 * updates it in place when drawn again. Plain DOM filled in with text: a grid draws a thousand of these,
 * and each costs what a hand-written page's card costs, where a template per card, tag and icon cost
 * several times that.
 */
export function drawCard(parent: ParentNode, state: CardState): void {
  let card = drawn.get(parent);
  if (!card) {
    const node = el('div', { part: 'card', role: 'button', tabindex: '0' });
    const icon = el('span', {});
    node.append(icon, el('span', { part: 'name' }), el('span', { part: 'industry' }), el('span', { part: 'tags' }));
    const made: Drawn = { state, card: node, icon };
    // The listeners read the state the card was last drawn with: drawing again changes that, not them.
    node.addEventListener('click', () => made.state.select());
    node.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter' && event.key !== ' ') return;
      // Space would scroll the page; a role=button div has no native activation to double up.
      event.preventDefault();
      made.state.select();
    });
    parent.append(node);
    drawn.set(parent, (card = made));
  }
  card.state = state;
  const { table, broken } = state;
  const name = text(table.name);
  const [, nameNode, industry, tags] = card.card.children;
  card.card.setAttribute('aria-busy', String(state.busy));
  nameNode!.textContent = name;
  industry!.textContent = text(table.industry);
  tags!.replaceChildren(...arrayOf(table.tags).map((tag) => el('span', { part: 'tag' }, text(tag))));
  const url = safeHttpUrl(table.icon);
  const icon = url && url !== broken ? url : undefined;
  // The first code point, not the first UTF-16 unit: an emoji or a rare CJK character stays whole.
  // eslint-disable-next-line @typescript-eslint/no-misused-spread
  const letter = [...name][0] ?? '';
  const shows = icon ?? ` ${letter}`;
  if (card.shows === shows) return;
  // Lazy and low priority before the source: the fetch starts as the source is set.
  const next = icon
    ? el('img', { part: 'icon', loading: 'lazy', fetchpriority: 'low', width: '40', height: '40', alt: '', src: icon })
    : el('span', { part: 'icon icon-placeholder', 'aria-hidden': 'true' }, letter);
  const drawnCard = card;
  if (icon) next.addEventListener('error', () => drawnCard.state.broke(icon));
  card.icon.replaceWith(next);
  card.icon = next;
  card.shows = shows;
}

/** Takes the card drawn into `parent` out, if there is one. */
export function clearCard(parent: ParentNode): void {
  drawn.get(parent)?.card.remove();
  drawn.delete(parent);
}
