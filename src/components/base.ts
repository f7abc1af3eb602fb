import { LitElement, type PropertyDeclarations } from 'lit';
// Beside the count of matches, where the server's first view reads it without Lit.
export { arrayOf } from './hub-table-grid/matches.js';
import type { HubEventDetails, HubEventName } from './events.js';
import { localeFor } from '../core/locale.js';
import { stringsFor, type HubLocale, type HubStrings, type WidgetStrings } from './strings.js';
import { textsFor } from './texts-loader.js';

type Versioned = CustomElementConstructor & { version?: string };

let warned = false;

/**
 * Registers `tag` unless it is taken. A page may load the script twice: the same version is skipped
 * silently, another version once with a warning, because two versions cannot share a tag name.
 */
export function define(tag: string, ctor: Versioned): void {
  const existing: Versioned | undefined = customElements.get(tag);
  if (!existing) {
    customElements.define(tag, ctor);
    return;
  }
  if (existing.version === ctor.version || warned) return;
  warned = true;
  // An element class of another library may have no version.
  console.warn(
    `hub-embed ${String(ctor.version)}: <${tag}> already defined by ${existing.version ?? 'another version'}; kept.`,
  );
}

/** Settles in a task of its own: a message to ourselves, which no timer clamping delays. */
export const nextTask = () =>
  new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      resolve(0);
    };
    port2.postMessage(0);
  });

/**
 * The language of `node`'s texts: the first `locale` (a hub element's) or `lang` on it or up the tree,
 * shadow roots crossed (so the parts of <hub-embed> and its form speak the widget's language, and a
 * widget the page's), else the browser's. As HTML inherits `lang`, and as a host page sets it.
 */
export function localeOf(node: Node): HubLocale {
  for (let at: Node | null | undefined = node; at; at = at.parentNode ?? (at as Partial<ShadowRoot>).host) {
    const tag = (at as Partial<HubElement>).locale || (at as Partial<HTMLElement>).lang;
    if (tag) return localeFor(tag);
  }
  return localeFor();
}

/**
 * The one base class: version stamp for the guarded define(), strings, and emit().
 * Elements declare reactive properties in `static properties` with `declare` fields: Vite's compiler does
 * not lower standard decorators with `accessor`, and plain fields need no decorator helpers at run time.
 * Internal state is `{ attribute: false }` (all that `state: true` does at run time), so that the
 * custom-elements analyzer does not list it as an attribute.
 */
export class HubElement extends LitElement {
  static version = __HUB_EMBED_VERSION__;
  static override properties: PropertyDeclarations = { locale: {}, strings: { attribute: false } };

  /**
   * The elements a page draws as it loads (`<hub-embed>`, its grid and its filter) render first in a
   * task of their own: the task that defines them, or that brings the tags and the list, then does not
   * also draw each part, and none runs long. Cards and the form frame render at once.
   */
  protected static firstRenderAlone = false;

  /**
   * An element whose first render shows no text (<hub-embed>: the loading grid, which waits itself) makes
   * it at once, so that what the update starts (the token's request) runs while the texts load.
   */
  declare protected static firstRenderWithoutText?: boolean;

  override connectedCallback(): void {
    super.connectedCallback();
    // A page in another language than English starts loading its texts here, before the first update.
    void textsFor(localeOf(this));
  }

  protected override async scheduleUpdate(): Promise<unknown> {
    const type = this.constructor as typeof HubElement;
    if (!this.hasUpdated && type.firstRenderAlone) await nextTask();
    // Nothing is drawn in English and then again in the page's language: the render waits for its table.
    const texts = (this.hasUpdated || !type.firstRenderWithoutText) && textsFor(localeOf(this));
    if (texts) await texts;
    return super.scheduleUpdate();
  }

  /**
   * A language tag: `en`, `zh-CN`, `zh-TW`, `ja` or `ko`, or any tag that `localeFor` maps to one
   * (`zh-Hant-HK`, `ja-JP`). Unset follows the `lang` of the element or the page, else the browser's.
   */
  declare locale?: HubLocale;
  /** Overrides any UI text of the locale's table. */
  declare strings?: Partial<HubStrings>;

  /** The texts in the element's locale, with the embedder's overrides (an open form adds its own). */
  protected get t(): WidgetStrings {
    return { ...stringsFor(localeOf(this)), ...this.strings };
  }

  /** Dispatches a `hub-*` event that crosses shadow roots; false when a listener cancelled it. */
  protected emit<Name extends HubEventName>(name: Name, detail: HubEventDetails[Name], cancelable = false): boolean {
    return this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true, cancelable }));
  }
}
