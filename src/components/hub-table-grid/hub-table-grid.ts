import { html, nothing, render, type PropertyValues } from 'lit';
import type { PublishedTable } from '../../core/types.js';
import { HubElement, arrayOf, nextTask } from '../base.js';
import { cardTemplate, listenToCards, type CardNode } from '../hub-table-card/card-template.js';
import { styles as cardStyles } from '../hub-table-card/hub-table-card.styles.js';
import { shared } from '../shared.styles.js';
import { fill } from '../strings.js';
import { countMatches } from './matches.js';
import { styles } from './hub-table-grid.styles.js';

/**
 * The most cards the task that brings a list draws first, whatever the time: a screenful on a large
 * screen, and the cards of a list's first screen, which is always rendered (see #place). A smaller screen
 * draws what fills it (see #screenCards).
 */
export const SCREEN_CARDS = 48;

/**
 * The least height of a card: its icon, padding and border. The rows that fill the window are counted with
 * it, so that the window is never short of cards, whatever their text.
 */
const CARD_MIN_PX = 48;

/**
 * What one task of drawing may take, its layout included, in milliseconds of the device's own clock, which
 * a slow phone's slowness is in: a third of a long task (50 ms), leaving the rest to the frame that paints
 * what it drew and to an input that comes meanwhile.
 */
export const TASK_MS = 16;

/** A card of the grid, with what its markup was last rendered with besides its table. */
type Card = CardNode & { busy?: boolean; broken?: string };

/** Parts of the card (see card-template.ts), forwarded so that pages can style cards through the grid. */
export const CARD_PARTS = 'card,icon,icon-placeholder,name,industry,tags,tag';

/**
 * @tag hub-table-grid
 * @summary The tables as cards, with skeletons while loading, an empty state and an announced count.
 * Each card is the markup of <hub-table-card>, drawn in the grid's own shadow root. While `loading` with
 * tables shown, the grid stays visible and readable, marked busy.
 * With `tags` selected, the tables matching them come first and a divider (part `more`) separates the
 * tables the service added to fill its limit; `matches-only` leaves those out.
 * @csspart count - The result count, a live region (`role="status"`); an accent rule under it while
 *   loading with tables shown.
 * @csspart grid - A card list (`role="list"`, `aria-busy` while loading): the matching tables, and
 *   after the divider the other tables. A column of screens of cards, each a grid on the list's
 *   `grid-template-columns` and `gap`: set those on it, not its `display`.
 * @csspart more - The divider before the tables that match none of the selected tags.
 * @csspart skeleton - Placeholder cards while loading with no tables yet.
 * @csspart empty - The empty state.
 * @csspart show-all - The empty state's control that clears the tag selection.
 * @csspart card - Each card's control, as in <hub-table-card>; its other parts too: icon,
 *   icon-placeholder, name, industry, tags, tag.
 * @csspart icon - As in <hub-table-card>.
 * @csspart icon-placeholder - As in <hub-table-card>.
 * @csspart name - As in <hub-table-card>.
 * @csspart industry - As in <hub-table-card>.
 * @csspart tags - As in <hub-table-card>.
 * @csspart tag - As in <hub-table-card>.
 * @cssproperty --hub-card-min-width - Narrowest card before columns wrap (default 15em).
 * @cssproperty --hub-card-height - The height a card below a list's first screen is assumed to have until
 *   it first scrolls into view (cards off screen are not rendered; default 88px).
 * @event hub-table-select - `{table}`, cancelable, from the activated card.
 * @event hub-tags-change - `{tags: []}` when the user asks to show all tables from the empty state.
 */
export class HubTableGrid extends HubElement {
  static override styles = [shared, cardStyles, styles];
  protected static override firstRenderAlone = true;
  static override properties = {
    tables: { attribute: false },
    loading: { type: Boolean },
    tags: { attribute: false },
    opening: { attribute: false },
    matchesOnly: { type: Boolean, attribute: 'matches-only' },
  };

  declare tables: PublishedTable[];
  declare loading: boolean;
  /** The selected tags the tables were listed for; they decide where the matching tables end. */
  declare tags: string[];
  /** The short code of the table whose form is opening: its card shows busy. */
  declare opening?: string;
  /** Show only the tables that match the selected tags, not the ones the service added to fill its limit. */
  declare matchesOnly: boolean;

  constructor() {
    super();
    this.tables = [];
    this.loading = false;
    this.tags = [];
    this.matchesOnly = false;
  }

  /**
   * Each table's card by short code, made once: a new list (a filter change, a refresh) moves the cards it
   * shares with the last one and updates them in place, as a plain page would, instead of making them
   * anew. Only the current list's cards are kept.
   */
  #cards = new Map<string, Card>();
  /** The card of each place of the list, in its order (a short code listed twice has two). */
  #places: Card[] = [];
  /** How many places of the list hold a card: a new list starts over, and the cards come in steps. */
  #drawn = 0;
  /** When the task drawing now began, while one does, and how many places were drawn before it. */
  #start?: number;
  #from = 0;
  /** How many cards the next task draws, from what a card cost in the last; none while no task is queued. */
  #next = 0;
  /** How many tables, from the first, match the selected tags (countMatches): the first list's length. */
  #matched = 0;
  /**
   * The columns the grid shows its cards in (the first screen of the last list, or of its skeletons), or 0
   * while it is not laid out (the grid hidden). A list from the network comes in a task of its own, after
   * the last frame's layout, so the read mostly finds the layout done; where it does not, it does early the
   * layout the next frame would have done.
   */
  #columns(): number {
    const screen = this.renderRoot.querySelector('.screen');
    const tracks = screen && getComputedStyle(screen).gridTemplateColumns;
    return !tracks || tracks === 'none' ? 0 : tracks.split(' ').length;
  }

  /**
   * The columns and the rows of a screen of cards (see #place): a screenful, in whole rows. A list's first
   * screen holds instead what the task that brings the list draws of it, #first cards from the first place.
   */
  #screenColumns = 0;
  #screenRows = SCREEN_CARDS;
  #first = SCREEN_CARDS;

  /**
   * Measures the screens, and returns #first: the cards that fill the window from the top of the cards
   * down, in rows of the least card height, at most a large screen's (SCREEN_CARDS). Below a phone's
   * filter that is about ten: drawing only those keeps the task that brings a list, and the frame that
   * lays them out, short on the slow devices phones are. Every other screen is a screenful, rows of the
   * least card height down the whole window: never shorter than the window, so that scrolling by a window
   * at a time never finds a screen that was not rendered yet above one on screen.
   */
  #screenCards(): number {
    const columns = this.#columns();
    this.#screenColumns = columns;
    this.#screenRows = SCREEN_CARDS;
    this.#first = SCREEN_CARDS;
    // A grid not laid out (hidden) draws SCREEN_CARDS, in screens of as many, and reads no height: on a
    // phone's page (one with a viewport meta tag), even reading the window's is a layout.
    if (columns) {
      // Whole rows of the least card height down `height` px, as many as SCREEN_CARDS at most.
      const cards = (height: number) =>
        columns * Math.min(Math.ceil(SCREEN_CARDS / columns), Math.max(1, Math.ceil(height / CARD_MIN_PX)));
      this.#screenRows = cards(innerHeight) / columns;
      // From the top of the cards: the first screen's, which the columns were read from.
      this.#first = cards(innerHeight - this.renderRoot.querySelector('.screen')!.getBoundingClientRect().top);
    }
    return this.#first;
  }

  /**
   * Another number of columns (the grid resized, or shown) makes the screens again, of whole rows of them.
   * In a task of its own: changed inside the observer's callback, the layout would be observed again.
   */
  #resized = new ResizeObserver(() => {
    const columns = this.#columns();
    if (columns && columns !== this.#screenColumns)
      void nextTask().then(() => {
        this.#screenCards();
        this.#restart = true;
        this.requestUpdate();
      });
  });

  override connectedCallback(): void {
    super.connectedCallback();
    this.#resized.observe(this);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    // Observed, the element would be held by its own observer after the page lets it go.
    this.#resized.disconnect();
  }

  protected override firstUpdated(): void {
    // One listener for every card: from the grid, to a listener outside its shadow root, a card's event is the grid's.
    listenToCards(
      this.renderRoot,
      (card: Card) => this.emit('hub-table-select', { table: card.table! }, true),
      (card: Card, icon) => {
        card.broken = icon;
        this.#renderCard(card);
      },
    );
  }

  /*
   * How the cards are drawn. The task that brings a list draws its first screenful (#screenCards; a new
   * grid measures it by its first card), so that what the user sees first is all there in the first frame
   * and nothing on screen moves after it; a filter change is such a list, its cards moved and updated
   * rather than made. The cards below the screen follow in tasks of about TASK_MS each, sized by what a
   * card cost in the last: an input (a chip's click) never waits behind a long task, and the frame between
   * two tasks paints what is drawn. Off screen, their screens are not rendered until they scroll near (see
   * #place), so a task's own time is what they cost. A device fast enough draws everything in the first
   * task.
   */
  protected override willUpdate(changed: PropertyValues<this>): void {
    if (!changed.has('tables')) return;
    const last = this.#cards;
    this.#cards = new Map();
    this.#places = arrayOf(this.tables).map((table) => {
      let card = last.get(table.short_code);
      last.delete(table.short_code);
      if (!card) {
        card = document.createElement('div');
        card.setAttribute('role', 'listitem');
      }
      this.#cards.set(table.short_code, card);
      return card;
    });
    // An empty list (the loading state's, a new one at each render of <hub-embed>) has no card to draw, nor
    // screens to measure, which would read a layout. A grid with no screen yet (a new one) draws one card
    // first, and measures its screens by it (see updated).
    this.#drawn = this.#places.length && (this.renderRoot.querySelector('.screen') ? this.#screenCards() : 1);
    this.#restart = true;
    this.#from = 0;
    this.#start = performance.now();
  }

  protected override updated(changed: PropertyValues<this>): void {
    this.#place(changed.has('opening'));
    if (this.#drawn == 1 && !this.#screenColumns) {
      // Its first card in, a new grid's screens are laid out as small as they will be: this task draws
      // its first screenful, in screens of whole rows, and the frame after lays out no card it then moves.
      // Measured, a grid has columns, or draws SCREEN_CARDS where it has none (hidden): no second time.
      this.#drawn = this.#screenCards();
      this.#restart = true;
      this.requestUpdate();
      return;
    }
    const start = this.#start;
    if (start === undefined || this.#drawn >= arrayOf(this.tables).length) {
      this.#start = undefined;
      return;
    }
    const drawn = this.#drawn - this.#from;
    const spent = performance.now() - start;
    // What the rest of this task has time for, at this task's pace.
    const more = Math.floor(((TASK_MS - spent) * drawn) / spent);
    if (more > 0) {
      this.#drawn += more;
      this.requestUpdate();
      return;
    }
    this.#start = undefined;
    if (!this.#next)
      void nextTask().then(() => {
        this.#start = performance.now();
        this.#from = this.#drawn;
        this.#drawn += this.#next;
        this.#next = 0;
        this.requestUpdate();
      });
    // Whole cards, at least one: a fraction of one, at a slow pace, is one more.
    this.#next = Math.max(1, Math.ceil((TASK_MS * drawn) / spent));
  }

  /**
   * Settles once this update and the steps of its task are done: with a new list, once its first
   * screenful is drawn, or all of it. The rest come in the tasks after, below the screen.
   */
  protected override async getUpdateComplete(): Promise<boolean> {
    // Each step of a task is an update of its own, asked for by the last; TASK_MS bounds them.
    while (!(await super.getUpdateComplete()));
    return true;
  }

  /** The card at place `index`, updated for `table`. */
  #card(table: PublishedTable, index: number): Card {
    const card = this.#places[index]!;
    const busy = table.short_code === this.opening;
    if (card.table !== table || card.busy !== busy) {
      card.table = table;
      card.busy = busy;
      this.#renderCard(card);
    }
    return card;
  }

  #renderCard(card: Card): void {
    render(cardTemplate(card.table!, card.busy!, card.broken), card);
  }

  /**
   * A card list, named by `label`, or else by the divider above it. Its cards are not in the template:
   * #place puts them in, so that a new list takes the place of the last in one call, and a step of the
   * drawing only appends.
   */
  #renderList(id: 'matches' | 'others', label?: string) {
    return html`
      <div
        id=${id}
        part="grid"
        role="list"
        aria-label=${label ?? nothing}
        aria-labelledby=${label ? nothing : 'more'}
        aria-busy=${this.loading}
      ></div>
    `;
  }

  /** Whether the next placing starts the lists over: a new list of tables, or screens of another size. */
  #restart = false;
  /** How many cards each list element holds: a step of the drawing adds the next ones. */
  #placed = new WeakMap<Element, number>();

  /**
   * Puts the drawn places' cards in their lists, each card updated for its table. A list holds its cards
   * in screens: whole rows of cards, a screenful each (#screenCards), each a grid on the list's columns;
   * the first list's first screen holds the cards of the task that brings the list.
   * Off screen, a screen is not rendered (content-visibility) until it scrolls near: a frame then costs
   * what is on screen, whatever the length of the list, and a card put into a screen off screen costs
   * no layout.
   */
  #place(all: boolean): void {
    const tables = arrayOf(this.tables);
    const matched = this.#matched;
    const drawn = Math.min(this.#drawn, tables.length);
    const size = this.#screenRows * (this.#screenColumns || 1);
    for (const [id, from, to, end] of [
      ['matches', 0, Math.min(drawn, matched), matched],
      ['others', matched, drawn, tables.length],
    ] as const) {
      const list = this.renderRoot.querySelector<HTMLElement>(`#${id}`);
      if (!list) continue;
      // A list the template made anew holds nothing: only a new list of tables starts one over.
      const placed = this.#restart ? 0 : (this.#placed.get(list) ?? 0);
      const screens = list.children;
      // The first list's first screen holds what the task that brings the list draws (#first); each other
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
      if (!placed) list.style.setProperty('--_rows', String(this.#screenRows));
      // A step of the drawing only appends: the cards already in are drawn again only when what they show
      // may have changed (the opening one), so that a step costs its own cards, not the whole list's.
      for (let index = all ? from : from + placed; index < to; index++) {
        const card = this.#card(tables[index]!, index);
        if (index >= from + placed) screens[screenOf(index - from)]!.append(card);
      }
      this.#placed.set(list, Math.max(placed, to - from));
    }
    this.#restart = false;
  }

  #renderSkeletons() {
    // Unseen Chinese text in both weights the content uses: the first text a fresh page lays out in a
    // CJK font costs a font load and a fallback search (5-11 ms in Chromium here, 4x that on Lighthouse's
    // phone), which this moves into the loading state's frame, while the network is busy, out of the
    // first content's.
    const skeletons = Array.from({ length: 6 }, () => html`<div part="skeleton" aria-hidden="true">表<b>表</b></div>`);
    return html`<div part="grid" role="list" aria-label=${this.t.tables} aria-busy="true">
      <div class="screen">${skeletons}</div>
    </div>`;
  }

  #renderEmpty(noMatch: boolean) {
    const t = this.t;
    if (!noMatch) return html`<p part="empty">${t.empty}</p>`;
    const showAll = () => this.emit('hub-tags-change', { tags: [] });
    return html`
      <p part="empty">
        ${t.noMatch}
        <button part="show-all" @click=${showAll}>${t.showAll}</button>
      </p>
    `;
  }

  override render() {
    const t = this.t;
    const tables = arrayOf(this.tables);
    const filtered = arrayOf(this.tags).length > 0;
    // Kept for #place, which puts the cards in after this render.
    const matched = countMatches(tables, arrayOf(this.tags));
    this.#matched = matched;
    const others = this.matchesOnly ? 0 : tables.length - matched;
    // The first cards in order, the divider only once they reach it: the rest is added after them.
    const drawn = this.#drawn;
    let count = fill(t.results, tables.length);
    if (filtered) count = fill(t.matching, matched) + (this.matchesOnly ? '' : ` · ${fill(t.more, others)}`);
    if (this.loading) count = t.loading;

    let body;
    if (this.loading && !tables.length) body = this.#renderSkeletons();
    else if (!matched && !others) body = this.#renderEmpty(filtered);
    else
      body = html`
        ${matched ? this.#renderList('matches', t.tables) : nothing}
        ${
          others && drawn > matched
            ? html`
              <p part="more" id="more">${t.moreTables}</p>
              ${this.#renderList('others')}
            `
            : nothing
        }
      `;
    // The count line stays, a live region that says what changed.
    return html`
      <p part="count" role="status">${count}</p>
      ${body}
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'hub-table-grid': HubTableGrid;
  }
}
