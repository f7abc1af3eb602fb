// The form half of <hub-embed>: everything that only an open form needs. It is its own chunk, loaded on
// the first sign of intent (form-opener-loader.ts), so that the bytes before hub-ready stay small.
import { adoptStyles, html, nothing } from 'lit';
import type { PublishedTable } from '../../core/types.js';
import { buildFormUrl } from '../../core/urls.js';
import { define } from '../base.js';
import type { HubEventMap } from '../events.js';
import type { HostEventDetails } from './host.js';
import { HubFormFrame } from '../hub-form-frame/hub-form-frame.js';
import type { HubStrings } from '../strings.js';
import { styles } from './form-opener.styles.js';

// The chunk brings its element with it: <hub-form-frame> exists once a form can open.
define('hub-form-frame', HubFormFrame);

export { HubFormFrame };

export type OpenMode = 'modal' | 'inline' | 'navigate';

/** Lets a host (a WebView bridge) open the form itself: resolve true and the element opens nothing. */
export type OpenFormHook = (request: { shortCode: string; url: string }) => boolean | Promise<boolean>;

/** The public side of the <hub-embed> that the form half serves. */
export interface FormHost {
  readonly renderRoot: HTMLElement | DocumentFragment;
  readonly openMode: OpenMode;
  readonly formUrl: string;
  readonly openFormHook?: OpenFormHook;
  readonly updateComplete: Promise<boolean>;
  addEventListener(type: 'keydown', listener: (event: KeyboardEvent) => void): void;
  requestUpdate(): void;
}

/** What the element lends the form half of its private side. */
export interface FormSeat {
  /** The element's texts in its locale. */
  strings(): HubStrings;
  /** An access token with at least a minute left. */
  token(): Promise<string>;
  /** Offers the form to a native host: true when the host opened it. */
  hostOpens(request: { shortCode: string; url: string }): Promise<boolean> | undefined;
  /** The element's own events: `hub-form-open` and `hub-form-close`, also told to a native host. */
  announce(name: 'hub-form-open' | 'hub-form-close', shortCode: string): void;
  /** Tells a native host what the form page said, or that it timed out (the events bubble to the page too). */
  tellHost<Name extends 'hub-error' | 'hub-form-message'>(name: Name, detail: HostEventDetails[Name]): void;
}

/** An open form: its table, the token in its URL, and where focus goes back when it closes. */
interface OpenForm {
  table: PublishedTable;
  token: string;
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
    const token = await seat.token();
    const url = buildFormUrl(host.formUrl, shortCode, token);
    if ((await host.openFormHook?.({ shortCode, url })) || (await seat.hostOpens({ shortCode, url }))) return;
    seat.announce('hub-form-open', shortCode);
    if (host.openMode === 'navigate') {
      open(url, '_top');
      return;
    }
    this.#form = { table, token, returnFocus };
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
   * iframe and the form URL's origin, and those (and its timeout) reach the host through the seat.
   */
  #onFrameEvent = (event: HubEventMap['hub-error'] | HubEventMap['hub-form-message']): void => {
    if (event.type === 'hub-error') this.#seat.tellHost('hub-error', (event as HubEventMap['hub-error']).detail);
    else {
      const shortCode = this.#form?.table.short_code ?? '';
      this.#seat.tellHost('hub-form-message', { ...(event as HubEventMap['hub-form-message']).detail, shortCode });
    }
  };

  #renderFrame(form: OpenForm) {
    return html`
      <hub-form-frame
        part="frame"
        exportparts="bar,title,close,iframe,loading:frame-loading,error:frame-error,retry:frame-retry"
        .strings=${this.#seat.strings()}
        .formUrl=${this.#host.formUrl}
        .shortCode=${form.table.short_code}
        .token=${form.token}
        .tableName=${form.table.name}
        @hub-form-close=${this.#onFrameClose}
        @hub-error=${this.#onFrameEvent}
        @hub-form-message=${this.#onFrameEvent}
      ></hub-form-frame>
    `;
  }
}
