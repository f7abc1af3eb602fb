import { html, nothing } from 'lit';
import { safeHttpUrl } from '../../core/urls.js';
import type { PublishedTable } from '../../core/types.js';
import { HubElement, arrayOf } from '../base.js';
import { shared } from '../shared.styles.js';
import { styles } from './hub-table-card.styles.js';

/**
 * @tag hub-table-card
 * @summary One published table as a single control: Enter, Space or a click selects it.
 * @csspart card - The control (`role="button"`, `aria-busy` while its form is opening).
 * @csspart icon - The icon image or its placeholder, always 40×40.
 * @csspart icon-placeholder - Shown for a missing, broken or non-http(s) icon.
 * @csspart name - The table's name.
 * @csspart industry - The industry.
 * @csspart tags - The tag list.
 * @csspart tag - Each tag of the list.
 * @event hub-table-select - `{table}`, cancelable; the owner opens the form unless it is prevented.
 */
export class HubTableCard extends HubElement {
  static override styles = [shared, styles];
  static override properties = {
    broken: { attribute: false },
    table: { attribute: false },
    busy: { type: Boolean },
  };

  /** The icon failed to load: show the placeholder instead. Starts unset, which reads as false. */
  declare private broken?: boolean;
  declare table?: PublishedTable;
  /** Its form is opening: the card says so until the form shows. */
  declare busy: boolean;

  constructor() {
    super();
    this.busy = false;
  }

  override willUpdate(changed: Map<PropertyKey, unknown>): void {
    if (changed.has('table')) this.broken = false;
  }

  #activate(): void {
    if (this.table) this.emit('hub-table-select', { table: this.table }, true);
  }

  #onKey(event: KeyboardEvent): void {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    // Space would scroll the page; a role=button div has no native activation to double up.
    event.preventDefault();
    this.#activate();
  }

  override render() {
    const table = this.table;
    if (!table) return nothing;
    const name = String(table.name ?? '');
    const icon = !this.broken && safeHttpUrl(table.icon);
    const tags = arrayOf(table.tags).map((tag) => html`<span part="tag">${tag}</span>`);
    return html`
      <div part="card" role="button" tabindex="0" aria-busy=${this.busy} @click=${this.#activate} @keydown=${this.#onKey}>
        ${
          icon
            ? html`
              <img
                part="icon"
                src=${icon}
                alt=""
                loading="lazy"
                fetchpriority="low"
                width="40"
                height="40"
                @error=${() => (this.broken = true)}
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
}

declare global {
  interface HTMLElementTagNameMap {
    'hub-table-card': HubTableCard;
  }
}
