import { html } from 'lit';
import type { PublishedTable } from '../../core/types.js';
import { HubElement, arrayOf } from '../base.js';
import { shared } from '../shared.styles.js';
import { fill } from '../strings.js';
import { styles } from './hub-table-grid.styles.js';

/** Parts of <hub-table-card>, forwarded so that pages can style cards through the grid. */
export const CARD_PARTS = 'card,icon,icon-placeholder,name,industry,tags,tag';

/**
 * @tag hub-table-grid
 * @summary The tables as cards, with skeletons while loading, an empty state and an announced count.
 * Needs <hub-table-card> defined. While `loading` with tables shown, the grid stays visible, dimmed.
 * @csspart count - The result count, a live region (`role="status"`).
 * @csspart grid - The card list (`role="list"`, `aria-busy` while loading).
 * @csspart skeleton - Placeholder cards while loading with no tables yet.
 * @csspart empty - The empty state.
 * @csspart card - And the other <hub-table-card> parts: icon, icon-placeholder, name, industry, tags, tag.
 * @cssproperty --hub-card-min-width - Narrowest card before columns wrap (default 15em).
 * @event hub-table-select - `{table}`, cancelable, from the activated card.
 */
export class HubTableGrid extends HubElement {
  static override styles = [shared, styles];
  static override properties = { tables: { attribute: false }, loading: { type: Boolean } };

  declare tables: PublishedTable[];
  declare loading: boolean;

  constructor() {
    super();
    this.tables = [];
    this.loading = false;
  }

  /** The cards, or skeletons while the first tables load. */
  #renderGrid(tables: readonly PublishedTable[], busy: boolean) {
    const items = tables.length
      ? tables.map(
          (table) => html`<hub-table-card role="listitem" exportparts=${CARD_PARTS} .table=${table}></hub-table-card>`,
        )
      : Array.from({ length: 6 }, () => html`<div part="skeleton" aria-hidden="true"></div>`);
    return html`<div part="grid" role="list" aria-label=${this.t.tables} aria-busy=${busy}>${items}</div>`;
  }

  override render() {
    const t = this.t;
    const tables = arrayOf(this.tables);
    const count = tables.length;
    const busy = this.loading;
    return html`
      <p part="count" role="status">${busy ? t.loading : fill(t.results, count)}</p>
      ${count || busy ? this.#renderGrid(tables, busy) : html`<p part="empty">${t.empty}</p>`}
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'hub-table-grid': HubTableGrid;
  }
}
