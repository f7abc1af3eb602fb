import { html, nothing, type PropertyValues } from 'lit';
import type { PublishedTable } from '../../core/types.js';
import { HubElement, arrayOf, nextTask } from '../base.js';
import type { HubTableCard } from '../hub-table-card/hub-table-card.js';
import { shared } from '../shared.styles.js';
import { fill } from '../strings.js';
import { countMatches } from './matches.js';
import { styles } from './hub-table-grid.styles.js';

/** Cards in the first task of drawing a first list: about a phone's first row or two. */
const FIRST_CARDS = 4;

/**
 * What one task of drawing may take, its layout included, in milliseconds of the device's own time: a
 * quarter of a long task (50 ms), so that none is long on a phone four times slower than its measure.
 * The next task draws twice as many cards when the last took under half of it, as many when it took
 * more, and half as many when it took longer: a fast device draws its first screen in two or three
 * tasks, a list of thousands in a dozen or two.
 */
const TASK_MS = 12;

/** Parts of <hub-table-card>, forwarded so that pages can style cards through the grid. */
export const CARD_PARTS = 'card,icon,icon-placeholder,name,industry,tags,tag';

/**
 * @tag hub-table-grid
 * @summary The tables as cards, with skeletons while loading, an empty state and an announced count.
 * Needs <hub-table-card> defined. While `loading` with tables shown, the grid stays visible and readable, marked busy.
 * With `tags` selected, the tables matching them come first and a divider (part `more`) separates the
 * tables the service added to fill its limit; `matches-only` leaves those out.
 * @csspart count - The result count, a live region (`role="status"`).
 * @csspart grid - A card list (`role="list"`, `aria-busy` while loading): the matching tables, and
 *   after the divider the other tables.
 * @csspart more - The divider before the tables that match none of the selected tags.
 * @csspart skeleton - Placeholder cards while loading with no tables yet.
 * @csspart empty - The empty state.
 * @csspart show-all - The empty state's control that clears the tag selection.
 * @csspart card - Each <hub-table-card>'s parts are forwarded: card, icon, icon-placeholder, name,
 *   industry, tags, tag.
 * @csspart icon - Forwarded from <hub-table-card>.
 * @csspart icon-placeholder - Forwarded from <hub-table-card>.
 * @csspart name - Forwarded from <hub-table-card>.
 * @csspart industry - Forwarded from <hub-table-card>.
 * @csspart tags - Forwarded from <hub-table-card>.
 * @csspart tag - Forwarded from <hub-table-card>.
 * @cssproperty --hub-card-min-width - Narrowest card before columns wrap (default 15em).
 * @cssproperty --hub-card-height - The height a card after the 48th of a list is assumed to have until
 *   it first scrolls into view (those cards are not rendered off screen; default 88px).
 * @event hub-table-select - `{table}`, cancelable, from the activated card.
 * @event hub-tags-change - `{tags: []}` when the user asks to show all tables from the empty state.
 */
export class HubTableGrid extends HubElement {
  static override styles = [shared, styles];
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
   * How many places of the list hold a card: none at first (the task that brings the first list draws
   * its count, and the filter above), then a task's worth at a time (TASK_MS), until all do. A later list
   * fills at once as many places as it has cards of the last list (moved), and draws the rest in tasks as
   * a first list does: a filter change is one task, a list of other tables starts over.
   */
  #drawn = 0;
  /**
   * Each table's card, by short code: a new list (a filter change, a refresh) moves the cards it shares
   * with the last one and updates them in place, as a plain page would, instead of making them anew.
   */
  #cards = new Map<string, HubTableCard>();
  /** How many cards the next task draws: FIRST_CARDS for each new list, then as its pace says. */
  #count = FIRST_CARDS;
  /** The task drawing more cards, while there are more to draw. */
  #drawing?: Promise<void>;
  /** The grid reached the bottom of the screen when the last task's cards were laid out. */
  #filled = false;

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('tables')) {
      this.#drawn = arrayOf(this.tables).filter((table) => this.#cards.has(table.short_code)).length;
      this.#count = FIRST_CARDS;
      this.#filled = false;
    }
  }

  protected override updated(): void {
    if (!this.#drawing && this.#drawn < arrayOf(this.tables).length) void this.#drawRest();
  }

  /** More cards, a task at a time, until all are drawn. */
  async #drawRest(): Promise<void> {
    // What came with the list (the filter above, the count) is laid out in a task of its own first, so
    // that the first cards' task counts the cards alone.
    this.#drawing = nextTask().then(() => void this.getBoundingClientRect());
    await this.#drawing;
    while (this.#drawn < arrayOf(this.tables).length) {
      this.#drawing = this.#drawMore();
      await this.#drawing;
    }
    this.#drawing = undefined;
  }

  /** Draws #count more cards in a task of their own, lays them out in it, and sets how many the next draws. */
  async #drawMore(): Promise<void> {
    await nextTask();
    const start = performance.now();
    const count = this.#count;
    this.#drawn += count;
    this.requestUpdate();
    await this.#rendered();
    // Below the screen, twice as many each task, laid out by the frames (content-visibility skips most):
    // a render and a layout of every card drawn so far in each of hundreds of small tasks would make a
    // list of thousands quadratic.
    let next = 2 * count;
    if (!this.#filled) {
      // Until the screen is full, laid out now, in this task: its time counts what the cards cost, and
      // the frame after only paints.
      this.#filled = this.getBoundingClientRect().bottom >= innerHeight;
      const spent = performance.now() - start;
      next = spent > TASK_MS ? Math.ceil(count / 2) : spent * 2 > TASK_MS ? count : next;
    }
    // A new list came meanwhile and set its own count: keep it.
    if (count === this.#count) this.#count = next;
  }

  /** This update, and its cards', are done. */
  async #rendered(): Promise<boolean> {
    const done = await super.getUpdateComplete();
    const cards = [...this.renderRoot.querySelectorAll<HubTableCard>('hub-table-card')];
    await Promise.all(cards.map((card) => card.updateComplete));
    return done;
  }

  /**
   * Settles once the cards fill the screen below the grid's top, or all are drawn: what a user sees
   * first. The rest come a few tasks later, below the screen.
   */
  protected override async getUpdateComplete(): Promise<boolean> {
    let done = await this.#rendered();
    while (this.#drawing && !this.#filled) {
      await this.#drawing;
      done = await this.#rendered();
    }
    return done;
  }

  /** The card of `table`: the one it had, or a new one (also for a short code listed twice). */
  #card(table: PublishedTable, cards: Map<string, HubTableCard>): HubTableCard {
    const code = table.short_code;
    let card = this.#cards.get(code);
    if (!card || cards.has(code)) {
      card = document.createElement('hub-table-card');
      card.setAttribute('role', 'listitem');
      card.setAttribute('exportparts', CARD_PARTS);
    }
    cards.set(code, card);
    card.table = table;
    card.busy = code === this.opening;
    return card;
  }

  #renderList(
    tables: readonly PublishedTable[],
    label: { text?: string; by?: string },
    cards: Map<string, HubTableCard>,
  ) {
    return html`
      <div
        part="grid"
        role="list"
        aria-label=${label.text ?? nothing}
        aria-labelledby=${label.by ?? nothing}
        aria-busy=${this.loading}
      >${tables.map((table) => this.#card(table, cards))}</div>
    `;
  }

  #renderSkeletons() {
    // Unseen Chinese text in both weights the content uses: the first text a fresh page lays out in a
    // CJK font costs a font load and a fallback search (5-11 ms in Chromium here, 4x that on Lighthouse's
    // phone), which this moves into the loading state's frame, while the network is busy, out of the
    // first content's.
    const skeletons = Array.from({ length: 6 }, () => html`<div part="skeleton" aria-hidden="true">表<b>表</b></div>`);
    return html`<div part="grid" role="list" aria-label=${this.t.tables} aria-busy="true">${skeletons}</div>`;
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
    const matched = countMatches(tables, arrayOf(this.tags));
    const matches = tables.slice(0, matched);
    const others = this.matchesOnly ? [] : tables.slice(matched);
    // The first cards in order, the divider only once they reach it: the rest is added after them.
    const drawn = this.#drawn;
    let count = fill(t.results, tables.length);
    if (filtered) count = fill(t.matching, matched) + (this.matchesOnly ? '' : ` · ${fill(t.more, others.length)}`);
    if (this.loading) count = t.loading;

    // The cards of this render: the next one finds them by short code (a card not shown is let go).
    const cards = new Map<string, HubTableCard>();
    let body;
    if (this.loading && !tables.length) body = this.#renderSkeletons();
    else if (!matches.length && !others.length) body = this.#renderEmpty(filtered);
    else
      body = html`
        ${matches.length ? this.#renderList(matches.slice(0, drawn), { text: t.tables }, cards) : nothing}
        ${
          others.length && drawn > matches.length
            ? html`
              <p part="more" id="more">${t.moreTables}</p>
              ${this.#renderList(others.slice(0, drawn - matches.length), { by: 'more' }, cards)}
            `
            : nothing
        }
      `;
    this.#cards = cards;
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
