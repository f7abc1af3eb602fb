import { html, nothing, type PropertyValues } from 'lit';
import type { PublishedTable } from '../../core/types.js';
import { HubElement, arrayOf } from '../base.js';
import type { HubTableCard } from '../hub-table-card/hub-table-card.js';
import { shared } from '../shared.styles.js';
import { fill } from '../strings.js';
import { countMatches } from './matches.js';
import { styles } from './hub-table-grid.styles.js';

/**
 * Cards a new list draws in the task that brings it: about a phone's screenful. Each later task draws
 * as many again as are drawn (4, 8, 16, ...), so that no task of a first render runs long on a slow
 * phone, and a list of thousands still takes a dozen tasks, not thousands.
 */
const FIRST_CARDS = 4;

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
 * @csspart empty - The empty state; part `show-all` is its control that clears the tag selection.
 * @csspart card - And the other <hub-table-card> parts: icon, icon-placeholder, name, industry, tags, tag.
 * @cssproperty --hub-card-min-width - Narrowest card before columns wrap (default 15em).
 * @cssproperty --hub-card-height - The height a card after the 48th of a list is assumed to have until
 *   it first scrolls into view (those cards are not rendered off screen; default 88px).
 * @event hub-table-select - `{table}`, cancelable, from the activated card.
 * @event hub-tags-change - `{tags: []}` when the user asks to show all tables from the empty state.
 */
export class HubTableGrid extends HubElement {
  static override styles = [shared, styles];
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

  /** How many cards are drawn: the first few, then twice as many each task, until all are. */
  #drawn = FIRST_CARDS;
  /** Flips with every new list, so that its cards are drawn as new elements (see render). */
  #flip = false;

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (!changed.has('tables')) return;
    this.#flip = !this.#flip;
    this.#drawn = FIRST_CARDS;
  }

  /** More cards in a task of their own, until all are drawn. */
  protected override updated(): void {
    if (this.#drawn < arrayOf(this.tables).length)
      setTimeout(() => {
        this.#drawn *= 2;
        this.requestUpdate();
      });
  }

  /** Settles once every card has been drawn and rendered, so that "updated" means what a user would see. */
  protected override async getUpdateComplete(): Promise<boolean> {
    let done = await super.getUpdateComplete();
    // After the timer updated() set: timers of the same delay run in order.
    while (this.#drawn < arrayOf(this.tables).length) {
      await new Promise((resolve) => setTimeout(resolve));
      done = await super.getUpdateComplete();
    }
    const cards = [...this.renderRoot.querySelectorAll<HubTableCard>('hub-table-card')];
    await Promise.all(cards.map((card) => card.updateComplete));
    return done;
  }

  #renderList(tables: readonly PublishedTable[], label: { text?: string; by?: string }) {
    const cards = tables.map(
      (table) => html`
        <hub-table-card
          role="listitem"
          exportparts=${CARD_PARTS}
          .table=${table}
          ?busy=${table.short_code === this.opening}
        ></hub-table-card>
      `,
    );
    return html`
      <div
        part="grid"
        role="list"
        aria-label=${label.text ?? nothing}
        aria-labelledby=${label.by ?? nothing}
        aria-busy=${this.loading}
      >${cards}</div>
    `;
  }

  #renderSkeletons() {
    const skeletons = Array.from({ length: 6 }, () => html`<div part="skeleton" aria-hidden="true"></div>`);
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

    let body;
    if (this.loading && !tables.length) body = this.#renderSkeletons();
    else if (!matches.length && !others.length) body = this.#renderEmpty(filtered);
    else
      body = html`
        ${matches.length ? this.#renderList(matches.slice(0, drawn), { text: t.tables }) : nothing}
        ${
          others.length && drawn > matches.length
            ? html`
              <p part="more" id="more">${t.moreTables}</p>
              ${this.#renderList(others.slice(0, drawn - matches.length), { by: 'more' })}
            `
            : nothing
        }
      `;
    // A new list is drawn as new elements: Lit draws a template and an array holding it afresh when
    // one replaces the other. The old cards are not changed in place or moved, which would shift what
    // the user is looking at. The count line stays, a live region that says what changed.
    return html`
      <p part="count" role="status">${count}</p>
      ${this.#flip ? [body] : body}
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'hub-table-grid': HubTableGrid;
  }
}
