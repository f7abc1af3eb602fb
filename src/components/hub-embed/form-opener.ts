// The form half of <hub-embed>: everything that only an open form needs. It is its own chunk, loaded on
// the first sign of intent (form-opener-loader.ts), so that the bytes before hub-ready stay small.
import { adoptStyles, html, nothing } from 'lit';
import type { PublishedTable } from '../../core/types.js';
import { buildFormUrl } from '../../core/urls.js';
import { define } from '../base.js';
import type { HubEventMap } from '../events.js';
import type { HostLink } from './host.js';
import { HubFormFrame } from '../hub-form-frame/hub-form-frame.js';
import type { HubLocale, HubStrings } from '../strings.js';
import { styles } from './form-opener.styles.js';

// The chunk brings its element with it: <hub-form-frame> exists once a form can open.
define('hub-form-frame', HubFormFrame);

// A page that uses <hub-form-frame> on its own makes its `src` with buildFormUrl: in the <script> builds
// that function is in this half only, so loadFormOpener() hands it over with the element.
export { buildFormUrl, HubFormFrame };

export type OpenMode = 'modal' | 'inline' | 'navigate';

/** Lets a host (a WebView bridge) open the form itself: resolve true and the element opens nothing. */
export type OpenFormHook = (request: { shortCode: string; url: string }) => boolean | Promise<boolean>;

/** The public side of the <hub-embed> that the form half serves. */
export interface FormHost {
  readonly renderRoot: HTMLElement | DocumentFragment;
  readonly openMode: OpenMode;
  readonly formUrl: string;
  readonly locale?: HubLocale;
  readonly strings?: Partial<HubStrings>;
  readonly openFormHook?: OpenFormHook;
  readonly updateComplete: Promise<boolean>;
  addEventListener(type: 'keydown', listener: (event: KeyboardEvent) => void): void;
  requestUpdate(): void;
}

/** What the element lends the form half of its private side. */
export interface FormSeat {
  /** An access token with at least a minute left. */
  token(): Promise<string>;
  /** The native host, when one answered: it may open the form, and hears what the form page says. */
  host(): HostLink | undefined;
  /** The element's own events: `hub-form-open` and `hub-form-close`, also told to a native host. */
  announce(name: 'hub-form-open' | 'hub-form-close', shortCode: string): void;
}

/** An open form: its table, its URL (token included), and where focus goes back when it closes. */
interface OpenForm {
  table: PublishedTable;
  url: string;
  returnFocus?: HTMLElement;
}

/**
 * Opens a table's form in the three modes: in a `<dialog>` (modal), in place of the grid (inline), or
 * by top-level navigation. Owns the dialog's manners: Escape anywhere in the widget and a backdrop
 * click close it, and focus returns to the card that opened it.
 */
export class FormOpener {
  #host: FormHost;
  #seat: FormSeat;
  #form?: OpenForm;

  constructor(host: FormHost, seat: FormSeat) {
    this.#host = host;
    this.#seat = seat;
    // The dialog's styles join the element's own, which Lit has adopted (or, without adoptedStyleSheets,
    // appended as <style> elements: then adoptStyles appends one more).
    const root = host.renderRoot as ShadowRoot;
    adoptStyles(root, [...(root.adoptedStyleSheets ?? []), styles]);
    host.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && this.close()) event.preventDefault();
    });
  }

  get #dialog(): HTMLDialogElement | null {
    return this.#host.renderRoot.querySelector('dialog');
  }

  /**
   * Opens the form of `table`: handed to `openFormHook` or a native host when one takes it, else shown
   * in the element's open mode after `hub-form-open`. `returnFocus` gets the focus back when it closes.
   */
  async open(table: PublishedTable, returnFocus?: HTMLElement): Promise<void> {
    const host = this.#host;
    const seat = this.#seat;
    const shortCode = table.short_code;
    // Built here only: the hook, a native host, the navigation and <hub-form-frame> all get this URL.
    const url = buildFormUrl(host.formUrl, shortCode, await seat.token());
    if ((await host.openFormHook?.({ shortCode, url })) || (await seat.host()?.openForm({ shortCode, url }))) return;
    seat.announce('hub-form-open', shortCode);
    if (host.openMode === 'navigate') {
      open(url, '_top');
      return;
    }
    this.#form = { table, url, returnFocus };
    host.requestUpdate();
    await host.updateComplete;
    if (host.openMode !== 'inline') this.#dialog?.showModal();
    // The frame's close control first, so the way out is where focus lands (inline, the grid is hidden).
    host.renderRoot.querySelector<HubFormFrame>('hub-form-frame')?.focus();
  }

  /** Closes the open form, returns focus to its card and fires `hub-form-close`; false when none was open. */
  close(): boolean {
    const form = this.#form;
    if (!form) return false;
    this.#form = undefined;
    this.#host.requestUpdate();
    // close() on a dialog that is not open does nothing (inline mode, or Escape closed it already).
    this.#dialog?.close();
    this.#seat.announce('hub-form-close', form.table.short_code);
    void this.#host.updateComplete.then(() => form.returnFocus?.focus());
    return true;
  }

  /** The form in place of the grid (inline mode), or undefined when the grid shows. */
  renderInline() {
    return this.#host.openMode === 'inline' && this.#form ? this.#renderFrame(this.#form) : undefined;
  }

  /** The dialog of the modal mode (an open-mode the element does not know falls back to it). */
  renderDialog() {
    const mode = this.#host.openMode;
    if (mode === 'inline' || mode === 'navigate') return nothing;
    const form = this.#form;
    return html`
      <dialog
        part="dialog"
        aria-label=${form?.table.name ?? ''}
        @click=${this.#onDialogClick}
        @close=${this.#onDialogClose}
      >
        ${form ? this.#renderFrame(form) : nothing}
      </dialog>
    `;
  }

  /** A click on the backdrop closes the dialog: its target is the dialog, at a point outside its box. */
  #onDialogClick = (event: MouseEvent): void => {
    const dialog = this.#dialog;
    if (!dialog || event.target !== dialog) return;
    const box = dialog.getBoundingClientRect();
    const inside =
      event.clientX >= box.left &&
      event.clientX <= box.right &&
      event.clientY >= box.top &&
      event.clientY <= box.bottom;
    if (!inside) this.close();
  };

  /** A dialog's `close` event comes a task later: by then a newer form may be open in it. */
  #onDialogClose = (): void => {
    if (!this.#dialog?.open) this.close();
  };

  #onFrameClose = (event: Event): void => {
    event.stopPropagation();
    this.close();
  };

  /**
   * The form page never reaches the host itself: <hub-form-frame> passes on only messages from its own
   * iframe and the form URL's origin, and those (and its timeout) reach the host from here; the events
   * bubble on to the page.
   */
  #onFrameEvent = (event: HubEventMap['hub-error'] | HubEventMap['hub-form-message']): void => {
    const host = this.#seat.host();
    if (event.type === 'hub-error') host?.tell('hub-error', (event as HubEventMap['hub-error']).detail);
    else {
      const shortCode = this.#form?.table.short_code ?? '';
      host?.tell('hub-form-message', { ...(event as HubEventMap['hub-form-message']).detail, shortCode });
    }
  };

  #renderFrame(form: OpenForm) {
    return html`
      <hub-form-frame
        part="frame"
        exportparts="bar,title,close,iframe,loading:frame-loading,error:frame-error,retry:frame-retry"
        .locale=${this.#host.locale}
        .strings=${this.#host.strings}
        .src=${form.url}
        .shortCode=${form.table.short_code}
        .tableName=${form.table.name}
        @hub-form-close=${this.#onFrameClose}
        @hub-error=${this.#onFrameEvent}
        @hub-form-message=${this.#onFrameEvent}
      ></hub-form-frame>
    `;
  }
}
