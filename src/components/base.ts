import { LitElement, type PropertyDeclarations } from 'lit';
import type { HubEventDetails, HubEventName } from './events.js';
import { stringsFor, type HubLocale, type HubStrings, type WidgetStrings } from './strings.js';

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

/** The value if it is an array, else []: properties set from script may hold anything. */
export function arrayOf<T>(value: readonly T[] | undefined): readonly T[] {
  // Array.isArray narrows to any[]; the elements' type is what the caller declared, as before the check.
  return Array.isArray(value) ? (value as readonly T[]) : [];
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

  protected override async scheduleUpdate(): Promise<unknown> {
    if (!this.hasUpdated && (this.constructor as typeof HubElement).firstRenderAlone) await nextTask();
    return super.scheduleUpdate();
  }

  /** `zh-CN` or `en`; unset follows navigator.language. */
  declare locale?: HubLocale;
  /** Overrides any UI text of the locale's table. */
  declare strings?: Partial<HubStrings>;

  /** The texts in the element's locale, with the embedder's overrides (an open form adds its own). */
  protected get t(): WidgetStrings {
    return { ...stringsFor(this.locale), ...this.strings };
  }

  /** Dispatches a `hub-*` event that crosses shadow roots; false when a listener cancelled it. */
  protected emit<Name extends HubEventName>(name: Name, detail: HubEventDetails[Name], cancelable = false): boolean {
    return this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true, cancelable }));
  }
}
