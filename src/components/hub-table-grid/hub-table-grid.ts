import { html, nothing, type PropertyValues } from 'lit';
import type { PublishedTable } from '../../core/types.js';
import { HubElement, arrayOf, nextTask } from '../base.js';
import { formHalf, loadFormOpener } from '../hub-embed/form-opener-loader.js';
import { listenToCards } from '../hub-table-card/card-template.js';
import { styles as cardStyles } from '../hub-table-card/hub-table-card.styles.js';
import { shared } from '../shared.styles.js';
import { fill } from '../strings.js';
import { CardPool, renderCard, type Card } from './card-pool.js';
import type { DrawSchedule } from './draw-schedule.js';
import { countMatches } from './matches.js';
import { Screens } from './screens.js';
import { styles } from './hub-table-grid.styles.js';

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

  #pool = new CardPool();
  #screens = new Screens(() => this.renderRoot);
  /** How many places of the list hold a card: a new list starts over, and the cards come in steps. */
  #drawn = 0;
  /** When the task that brought the list began: the first screen's pace, for the steps after it. */
  #listedAt = 0;
  /** The steps past a list's first screen, once the form half that carries them is in (see #drawRest). */
  #schedule?: DrawSchedule;
  /** How many tables, from the first, match the selected tags (countMatches): the first list's length. */
  #matched = 0;
  /** The same list again (see willUpdate): its cards stay where they are, and are updated in place. */
  #again = false;

  /**
   * Another number of columns (the grid resized, or shown) makes the screens again, of whole rows of them.
   * In a task of its own: changed inside the observer's callback, the layout would be observed again.
   */
  #resized = new ResizeObserver(() => {
    if (this.#screens.columnsChanged())
      void nextTask().then(() => {
        // The same cards in screens of another size: the focused card keeps the focus, and the card on top of
        // the view its place on screen (keep-place.ts, which comes with the form half, as the screens past
        // the first do).
        const restore = formHalf()?.keepPlace(this.renderRoot as ShadowRoot);
        this.#screens.remeasure();
        this.requestUpdate();
        void this.updateComplete.then(restore);
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
        renderCard(card);
      },
    );
  }

  /*
   * How the cards are drawn. The task that brings a list draws its first screenful (screens.ts; a new
   * grid measures it by its first card), so that what the user sees first is all there in the first frame
   * and nothing on screen moves after it; a filter change is such a list, its cards moved and updated
   * rather than made. The cards below the screen follow in tasks of about TASK_MS each, sized by what a
   * card cost in the last: an input (a chip's click) never waits behind a long task, and the frame between
   * two tasks paints what is drawn. Off screen, their screens are not rendered until they scroll near (see
   * screens.ts), so a task's own time is what they cost. A device fast enough draws everything in the first
   * task.
   */
  protected override willUpdate(changed: PropertyValues<this>): void {
    if (!changed.has('tables')) return;
    const tables = arrayOf(this.tables);
    // The same tables again, in the same order and with as many matching (a list fetched again, or for the
    // same selection): the cards stay in their screens, drawn as far as they were, so the focus and the
    // scroll stay too; only what each shows is updated.
    this.#again = this.#pool.list(tables) && countMatches(tables, arrayOf(this.tags)) == this.#matched;
    if (this.#again) return;
    this.#drawn = this.#screens.newList(tables.length);
    this.#listedAt = performance.now();
    this.#schedule?.begin(this.#listedAt);
  }

  protected override updated(changed: PropertyValues<this>): void {
    const tables = arrayOf(this.tables);
    const opening = this.opening;
    this.#screens.place(tables, this.#matched, this.#drawn, changed.has('opening') || this.#again, (table, index) =>
      this.#pool.card(table, index, opening),
    );
    if (this.#drawn == 1 && !this.#screens.measured) {
      // Its first card in, a new grid's screens are laid out as small as they will be: this task draws
      // its first screenful, in screens of whole rows, and the frame after lays out no card it then moves.
      // Measured, a grid has columns, or draws SCREEN_CARDS where it has none (hidden): no second time.
      this.#drawTo(this.#screens.remeasure());
      return;
    }
    if (this.#drawn < tables.length) this.#drawRest(tables.length);
  }

  /**
   * Draws the first `drawn` places, in the next update. Asked for from updated() (a step that follows the
   * last in the same task), that update is asked for in a microtask, once this one is over: else it would
   * be one Lit warns of in development ("scheduled an update after an update completed"), in every app's
   * console. It is still asked for before this update's promise settles (that waits a microtask more), so
   * getUpdateComplete's loop waits for it, and it renders in the same task.
   */
  #drawTo = (drawn: number): void => {
    this.#drawn = drawn;
    queueMicrotask(() => this.requestUpdate());
  };

  /**
   * Draws the places past the first screen, in the schedule's steps (draw-schedule.ts). The schedule comes
   * with the form half: the first list waits for it below its first screen, and its first step is paced by
   * the task that drew that screen. A half that cannot load leaves the rest to one step.
   */
  #drawRest(total: number): void {
    if (this.#schedule) {
      this.#schedule.stepDone(total);
      return;
    }
    const listedAt = this.#listedAt;
    loadFormOpener().then(
      ({ DrawSchedule }) => {
        this.#schedule ??= new DrawSchedule(() => this.#drawn, this.#drawTo);
        this.#schedule.begin(listedAt);
        this.#schedule.stepDone(arrayOf(this.tables).length);
      },
      () => this.#drawTo(total),
    );
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

  /**
   * A card list, named by `label`, or else by the divider above it. Its cards are not in the template:
   * the screens put them in (screens.ts), so that a new list takes the place of the last in one call, and a step of the
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
    // Kept for the screens, which put the cards in after this render.
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
