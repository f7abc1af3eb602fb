import { nothing, type TemplateResult } from 'lit';
import type { PublishedTable } from '../../core/types.js';
import { HubElement } from '../base.js';
import { shared } from '../shared.styles.js';
import { cardTemplate, listenToCards } from './card-template.js';
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

  /** The icon URL that failed to load: the placeholder shows instead. */
  declare private broken?: string;
  declare table?: PublishedTable;
  /** Its form is opening: the card says so until the form shows. */
  declare busy: boolean;

  constructor() {
    super();
    this.busy = false;
  }

  protected override firstUpdated(): void {
    listenToCards(
      this.renderRoot,
      () => this.emit('hub-table-select', { table: this.table! }, true),
      (_, icon) => (this.broken = icon),
    );
  }

  // Annotated: an inferred union is printed in the declarations in the order the compiler met its
  // members, which an incremental type check changes, and the API report with it.
  override render(): TemplateResult<1> | typeof nothing {
    return this.table ? cardTemplate(this.table, this.busy, this.broken) : nothing;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'hub-table-card': HubTableCard;
  }
}
