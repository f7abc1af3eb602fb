import { LitElement } from 'lit';
import { property } from 'lit/decorators.js';
import { stringsFor, type HubLocale, type HubStrings } from './strings.js';

/** The one base class: version stamp for the guarded define(), strings, and emit(). */
export class HubElement extends LitElement {
  static version = __HUB_EMBED_VERSION__;

  /** `zh-CN` or `en`; unset follows navigator.language. */
  @property() locale?: HubLocale;
  /** Overrides any UI text of the locale's table. */
  @property({ attribute: false }) strings?: Partial<HubStrings>;

  protected get t(): HubStrings {
    return { ...stringsFor(this.locale), ...this.strings };
  }

  /** Dispatches a `hub-*` event that crosses shadow roots; false when a listener cancelled it. */
  protected emit(name: string, detail: unknown, cancelable = false): boolean {
    return this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true, cancelable }));
  }
}
