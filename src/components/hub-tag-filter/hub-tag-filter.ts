import { html } from 'lit';
import { HubElement, arrayOf } from '../base.js';
import { formHalf, loadFormOpener } from '../hub-embed/form-opener-loader.js';
import { shared } from '../shared.styles.js';
import { styles } from './hub-tag-filter.styles.js';

/**
 * @tag hub-tag-filter
 * @summary Multi-select tag chips. The service lists the tables matching any selected tag first, then fills
 * its limit from other projects; <hub-table-grid> shows where the matching tables end.
 * @csspart toolbar - The chip row (`role="toolbar"`).
 * @csspart chip - Every chip, a `<button aria-pressed>`.
 * @csspart chip-all - The "All" chip, pressed when nothing is selected.
 * @csspart chip-pressed - Chips that are pressed.
 * @cssproperty --hub-tags-max-height - Height after which the chips scroll (default 8.5em: three rows
 *   and half of the next, so that the scroll shows).
 * @event hub-tags-change - `{tags: string[]}`, the new selection, on a user's click only.
 */
export class HubTagFilter extends HubElement {
  static override styles = [shared, styles];
  protected static override firstRenderAlone = true;
  static override properties = {
    focused: { attribute: false },
    offered: { attribute: false },
    tags: { attribute: false },
  };

  /** Roving tabindex: the one chip reachable with Tab. */
  declare private focused: number;
  /** Every tag to offer. */
  declare offered: string[];
  /** The selected tags, as on <hub-embed>; empty means "All". */
  declare tags: string[];

  constructor() {
    super();
    this.focused = 0;
    this.offered = [];
    this.tags = [];
  }

  #toggle(index: number, tag?: string): void {
    this.focused = index;
    const was = arrayOf(this.tags);
    if (tag === undefined && !was.length) return;
    const next = tag === undefined ? [] : was.includes(tag) ? was.filter((other) => other !== tag) : [...was, tag];
    this.tags = next;
    this.emit('hub-tags-change', { tags: next });
  }

  /**
   * Arrow keys, Home and End move the roving focus (chip-keys.ts). That code loads with the form half: a key
   * pressed before it is in takes effect once it is.
   */
  #onKey(event: KeyboardEvent, chip = event.target): void {
    const half = formHalf();
    if (!half) {
      void loadFormOpener().then(
        () => this.#onKey(event, chip),
        () => undefined,
      );
      return;
    }
    const chips = [...this.renderRoot.querySelectorAll('button')];
    this.focused = half.moveChipFocus(event, chip, chips, getComputedStyle(this).direction === 'rtl') ?? this.focused;
  }

  override render() {
    const offered = [...new Set(arrayOf(this.offered))];
    const selected = arrayOf(this.tags);
    const focused = Math.min(this.focused, offered.length);
    const all = this.t.all;
    const chips = [undefined, ...offered].map((tag, index) => {
      const pressed = tag === undefined ? selected.length === 0 : selected.includes(tag);
      const parts = ['chip', tag === undefined && 'chip-all', pressed && 'chip-pressed'].filter(Boolean).join(' ');
      return html`
        <button
          part=${parts}
          aria-pressed=${pressed}
          tabindex=${index === focused ? 0 : -1}
          title=${tag ?? all}
          @click=${() => this.#toggle(index, tag)}
        >${tag ?? all}</button>
      `;
    });
    return html`
      <div part="toolbar" role="toolbar" aria-label=${this.t.filter} @keydown=${this.#onKey}>${chips}</div>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'hub-tag-filter': HubTagFilter;
  }
}
