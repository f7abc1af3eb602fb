// The screens of <hub-table-grid>: the drawn cards laid out in screens of whole rows, each sized to the window.
import type { PublishedTable } from '../../core/types.js';
import type { Card } from './card-pool.js';

/**
 * The most cards the task that brings a list draws first, whatever the time: a screenful on a large
 * screen, and the cards of a list's first screen, which is always rendered (see Screens.place). A smaller
 * screen draws what fills it (see Screens.measure).
 */
export const SCREEN_CARDS = 48;

/**
 * The least height of a card: its icon, padding and border. The rows that fill the window are counted with
 * it, so that the window is never short of cards, whatever their text.
 */
const CARD_MIN_PX = 48;

/**
 * The screens of one grid's shadow root. Its lists hold their cards in screens: whole rows of cards, a
 * screenful each, each a grid on the list's columns; the first list's first screen holds the cards of the
 * task that brings the list. Off screen, a screen is not rendered (content-visibility) until it scrolls
 * near: a frame then costs what is on screen, whatever the length of the list, and a card put into a
 * screen off screen costs no layout.
 */
export class Screens {
  /**
   * The columns and the rows of a screen of cards: a screenful, in whole rows. A list's first screen holds
   * instead what the task that brings the list draws of it, `first` cards from the first place.
   */
  #columns = 0;
  #rows = SCREEN_CARDS;
  #first = SCREEN_CARDS;
  /** Whether the next placing starts the lists over: a new list of tables, or screens of another size. */
  #restart = false;
  /** How many cards each list element holds: a step of the drawing adds the next ones. */
  #placed = new WeakMap<Element, number>();
  #root: () => ParentNode;

  /** `root`: where the grid renders (its shadow root, made once the grid connects). */
  constructor(root: () => ParentNode) {
    this.#root = root;
  }

  /**
   * A new list of `count` tables: the lists start over, and this returns how many cards the task that brings
   * it draws first: none of an empty list (the loading state's, a new one at each render of <hub-embed>),
   * which has no card to draw, nor screens to measure, which would read a layout; the cards that fill the
   * window (measure); or, in a grid with no screen yet (a new one), one card, by which it then measures
   * its screens (remeasure).
   */
  newList(count: number): number {
    this.#restart = true;
    return count && (this.#root().querySelector('.screen') ? this.#measure() : 1);
  }

  /** Whether the screens were measured with columns: a grid not laid out yet has none. */
  get measured(): boolean {
    return !!this.#columns;
  }

  /** Whether the grid shows another number of columns than its screens were measured with. */
  columnsChanged(): boolean {
    const columns = this.#shownColumns();
    return !!columns && columns !== this.#columns;
  }

  /** Measures the screens again, and starts the lists over in screens of the new size: returns `first`. */
  remeasure(): number {
    this.#restart = true;
    return this.#measure();
  }

  /**
   * The columns the grid shows its cards in (the first screen of the last list, or of its skeletons), or 0
   * while it is not laid out (the grid hidden). A list from the network comes in a task of its own, after
   * the last frame's layout, so the read mostly finds the layout done; where it does not, it does early the
   * layout the next frame would have done.
   */
  #shownColumns(): number {
    const screen = this.#root().querySelector('.screen');
    const tracks = screen && getComputedStyle(screen).gridTemplateColumns;
    return !tracks || tracks === 'none' ? 0 : tracks.split(' ').length;
  }

  /**
   * Measures the screens, and returns the first screen's cards: the cards that fill the window from the top of the cards
   * down, in rows of the least card height, at most a large screen's (SCREEN_CARDS). Below a phone's
   * filter that is about ten: drawing only those keeps the task that brings a list, and the frame that
   * lays them out, short on the slow devices phones are. Every other screen is a screenful, rows of the
   * least card height down the whole window: never shorter than the window, so that scrolling by a window
   * at a time never finds a screen that was not rendered yet above one on screen.
   */
  #measure(): number {
    const columns = this.#shownColumns();
    this.#columns = columns;
    this.#rows = SCREEN_CARDS;
    this.#first = SCREEN_CARDS;
    // A grid not laid out (hidden) draws SCREEN_CARDS, in screens of as many, and reads no height: on a
    // phone's page (one with a viewport meta tag), even reading the window's is a layout.
    if (columns) {
      // Whole rows of the least card height down `height` px, as many as SCREEN_CARDS at most.
      const cards = (height: number) =>
        columns * Math.min(Math.ceil(SCREEN_CARDS / columns), Math.max(1, Math.ceil(height / CARD_MIN_PX)));
      this.#rows = cards(innerHeight) / columns;
      // From the top of the cards: the first screen's, which the columns were read from.
      this.#first = cards(innerHeight - this.#root().querySelector('.screen')!.getBoundingClientRect().top);
    }
    return this.#first;
  }

  /**
   * Puts the cards of the first `drawn` places in their lists (`matches`, the first `matched` tables, and
   * `others`), each card taken from `card`, which updates it for its table. `all`: every card drawn is
   * updated, not only the new ones (what they show may have changed).
   */
  place(
    tables: readonly PublishedTable[],
    matched: number,
    drawn: number,
    all: boolean,
    card: (table: PublishedTable, index: number) => Card,
  ): void {
    drawn = Math.min(drawn, tables.length);
    const size = this.#rows * (this.#columns || 1);
    for (const [id, from, to, end] of [
      ['matches', 0, Math.min(drawn, matched), matched],
      ['others', matched, drawn, tables.length],
    ] as const) {
      const list = this.#root().querySelector<HTMLElement>(`#${id}`);
      if (!list) continue;
      // A list the template made anew holds nothing: only a new list of tables starts one over.
      const placed = this.#restart ? 0 : (this.#placed.get(list) ?? 0);
      const screens = list.children;
      // The first list's first screen holds what the task that brings the list draws (first); each other
      // screen, a screenful, which a list that begins in that task's cards has room in for the rest of them.
      const head = from ? size : this.#first;
      const screenOf = (place: number) => (place < head ? 0 : 1 + Math.floor((place - head) / size));
      const count = screenOf(end - from - 1) + 1;
      // A list started over takes new screens: the last one's go with their cards, a removal per screen
      // rather than per card.
      if (this.#restart) list.replaceChildren();
      while (screens.length > count) list.lastElementChild!.remove();
      while (screens.length < count) list.append(Object.assign(document.createElement('div'), { className: 'screen' }));
      // Only a list new, or started over, may have another number of rows: setting them on the list is a
      // change to its style, which restyles every screen (see the grid's styles). Through the CSSOM, as a
      // strict Content-Security-Policy refuses a style attribute.
      if (!placed) list.style.setProperty('--_rows', String(this.#rows));
      // A step of the drawing only appends: the cards already in are drawn again only when what they show
      // may have changed (the opening one), so that a step costs its own cards, not the whole list's.
      for (let index = all ? from : from + placed; index < to; index++) {
        const node = card(tables[index]!, index);
        if (index >= from + placed) screens[screenOf(index - from)]!.append(node);
      }
      this.#placed.set(list, Math.max(placed, to - from));
    }
    this.#restart = false;
  }
}
