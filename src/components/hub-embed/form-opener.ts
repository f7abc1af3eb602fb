// The form half of <hub-embed>: everything that only an open form needs. It is its own chunk, loaded on
// the first sign of intent (form-opener-loader.ts), so that the bytes before hub-ready stay small.
import type { PublishedTable } from '../../core/types.js';
import { refusesToken } from '../../core/form-report.js';
import { buildFormUrl } from '../../core/token-links.js';
import { parseFormSite } from '../../core/urls.js';
import type { HubEventMap } from '../events.js';
import type { Connection } from './connection.js';
import type { HostLink } from './host.js';
import { HubFormFrame } from '../hub-form-frame/hub-form-frame.js';
import type { HubLocale, HubStrings } from '../strings.js';
// What the half shares with the main file (Lit, define) comes through its imports module: see ../form-half-imports.ts.
import { adoptStyles, define, html, nothing, preconnect } from '../form-half-imports.js';
import { styles } from './form-opener.styles.js';
import { styles as staleCards } from './stale-cards.styles.js';
import { FormPreparer, type PreparedForm } from './form-preparer.js';

// The chunk brings its element with it: <hub-form-frame> exists once a form can open.
define('hub-form-frame', HubFormFrame);

// A page that uses <hub-form-frame> on its own makes its `src` with buildFormUrl: in the <script> builds
// that function is in this half only, so loadFormOpener() hands it over with the element.
export { buildFormUrl, HubFormFrame };

export type OpenMode = 'modal' | 'inline' | 'navigate';

/** Lets a host (a WebView bridge) open the form itself: resolve true and the element opens nothing. */
export type OpenFormHook = (request: { shortCode: string; url: string }) => boolean | Promise<boolean>;

/** The public side of the <hub-embed> that the form half serves. */
export interface OpenerElement {
  readonly renderRoot: HTMLElement | DocumentFragment;
  readonly openMode: OpenMode;
  readonly formUrl: string;
  readonly locale?: HubLocale;
  readonly strings?: Partial<HubStrings>;
  readonly openFormHook?: OpenFormHook;
  readonly updateComplete: Promise<boolean>;
  addEventListener(type: 'keydown', listener: (event: KeyboardEvent) => void): void;
  addEventListener(
    type: 'pointerover' | 'pointermove' | 'pointerdown' | 'pointerleave',
    listener: (event: PointerEvent) => void,
  ): void;
  requestUpdate(): void;
}

/** What the element lends the form half of its private side. */
export interface FormSeat {
  /** The element's token source and client, shared with its loader (made on first use). */
  connection(): Connection;
  /** The native host's link (HostLink), when one answered: it may open the form, and hears what the page says. */
  link(): HostLink | undefined;
  /** The element's own events: `hub-form-open` and `hub-form-close`, also told to a native host. */
  announce(name: 'hub-form-open' | 'hub-form-close', shortCode: string): void;
}

/**
 * The open form: its table, its URL (token included), its own frame, where focus goes back when it closes,
 * and whether it loaded again with a new token after its page refused the first.
 */
interface OpenForm extends PreparedForm {
  returnFocus?: HTMLElement;
  renewed?: boolean;
}

/**
 * Opens a table's form in the three modes: in a `<dialog>` (modal), in place of the grid (inline), or
 * by top-level navigation. Owns the dialog's manners: Escape anywhere in the widget and a backdrop
 * click close it, and focus returns to the card that opened it.
 *
 * In the modal mode a click on a card whose form its FormPreparer prepared (form-preparer.ts) shows that
 * very frame. Nothing is prepared for a native host or an `openFormHook` (either may open the form
 * elsewhere), inline or by navigation.
 */
export class FormOpener {
  #element: OpenerElement;
  #seat: FormSeat;
  #form?: OpenForm;
  #preparer: FormPreparer;

  constructor(element: OpenerElement, seat: FormSeat) {
    this.#element = element;
    this.#seat = seat;
    // The dialog's styles and the stale cards' join the element's own, which Lit has adopted (or, without adoptedStyleSheets,
    // appended as <style> elements: then adoptStyles appends one more).
    const root = element.renderRoot as ShadowRoot;
    adoptStyles(root, [...(root.adoptedStyleSheets ?? []), styles, staleCards]);
    element.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && this.close()) event.preventDefault();
    });
    this.#preparer = new FormPreparer(element, {
      token: () => this.#token(),
      mayPrepare: () =>
        !this.#form &&
        !element.openFormHook &&
        !seat.link() &&
        element.openMode !== 'inline' &&
        element.openMode !== 'navigate',
      heldFrame: (table, url) => this.#newFrame(table, url, true),
    });
  }

  /**
   * Checks the form site before a form URL is made of it: a missing or non-https form-url (loopback aside)
   * is a setup error, thrown. The element asks each time it reaches for this half: after hub-ready, and on
   * a sign of intent or a click, when a good form site also gets a connection warmed up (`warm`), so that
   * the click finds it open; a page where no form opens makes none.
   */
  checkFormSite(warm: boolean): void {
    const site = parseFormSite(this.#element.formUrl);
    if (warm) preconnect(site.href, false);
  }

  /** An access token with at least a minute left, for a form URL. */
  #token(): Promise<string> {
    return this.#seat.connection().tokens.get({ minValidityMs: 60_000 });
  }

  get #dialog(): HTMLDialogElement | null {
    return this.#element.renderRoot.querySelector('dialog');
  }

  /**
   * Opens the form of `table`: handed to `openFormHook` or a native host when one takes it, else shown
   * in the element's open mode after `hub-form-open`. `returnFocus` gets the focus back when it closes.
   */
  async open(table: PublishedTable, returnFocus?: HTMLElement): Promise<void> {
    const element = this.#element;
    const seat = this.#seat;
    const shortCode = table.short_code;
    // Built here only: the hook, a native host, the navigation and <hub-form-frame> all get this URL.
    const url = buildFormUrl(element.formUrl, shortCode, await this.#token());
    if ((await element.openFormHook?.({ shortCode, url })) || (await seat.link()?.openForm({ shortCode, url }))) return;
    seat.announce('hub-form-open', shortCode);
    if (element.openMode === 'navigate') {
      open(url, '_top');
      return;
    }
    // The frame prepared with this very URL stays, loaded or loading, and is released (what its page said
    // meanwhile comes out). Any other prepared frame leaves with its page; this form gets a frame of its own.
    const frame = this.#preparer.take(url) ?? this.#newFrame(table, url);
    frame.held = false;
    this.#form = { table, url, frame, returnFocus };
    element.requestUpdate();
    await element.updateComplete;
    if (element.openMode !== 'inline') this.#dialog?.showModal();
    // The frame's close control first, so the way out is where focus lands (inline, the grid is hidden).
    frame.focus();
  }

  /**
   * The form of `shortCode` with a new token, for its page at `url` refused the one in it: that token is
   * dropped (for the lists too), and the token source asks for another with `reason: 'unauthorized'`
   * and the refused one as `previous`. A token already replaced is not dropped again.
   */
  async renew({ shortCode, url }: { shortCode: string; url: string }): Promise<string> {
    const { tokens } = this.#seat.connection();
    tokens.invalidate(new URL(url).searchParams.get('token') ?? '');
    return buildFormUrl(this.#element.formUrl, shortCode, await this.#token());
  }

  /** Closes the open form, returns focus to its card and fires `hub-form-close`; false when none was open. */
  close(): boolean {
    const form = this.#form;
    if (!form) return false;
    this.#form = undefined;
    this.#element.requestUpdate();
    // close() on a dialog that is not open does nothing (inline mode, or Escape closed it already).
    this.#dialog?.close();
    this.#seat.announce('hub-form-close', form.table.short_code);
    void this.#element.updateComplete.then(() => form.returnFocus?.focus());
    return true;
  }

  /** The form in place of the grid (inline mode), or undefined when the grid shows. */
  renderInline() {
    return this.#element.openMode === 'inline' && this.#form ? this.#frameOf(this.#form) : undefined;
  }

  /** The dialog of the modal mode (an open-mode the element does not know falls back to it). */
  renderDialog() {
    const mode = this.#element.openMode;
    if (mode === 'inline' || mode === 'navigate') return nothing;
    // A prepared form loads in the same place, so that opening it keeps its frame.
    const form = this.#form ?? this.#preparer.prepared;
    return html`
      <dialog
        part="dialog"
        aria-label=${this.#form?.table.name ?? ''}
        @click=${this.#onDialogClick}
        @close=${this.#onDialogClose}
      >
        ${form ? this.#frameOf(form) : nothing}
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
    const link = this.#seat.link();
    if (event.type === 'hub-error') link?.tell('hub-error', (event as HubEventMap['hub-error']).detail);
    else {
      // The frame's own table: only an open frame speaks, and each frame serves one form.
      const frame = event.currentTarget as HubFormFrame;
      const { detail } = event as HubEventMap['hub-form-message'];
      link?.tell('hub-form-message', { ...detail, shortCode: frame.shortCode });
      if (refusesToken(detail.data)) void this.#renewOpen(frame);
    }
  };

  /**
   * The open form's page refused its token: the form loads again, once, in a new frame with a new token
   * (a new iframe, as for every form). A page that refuses the new one too keeps its message, and the
   * next open asks for another token: nothing loops.
   */
  async #renewOpen(frame: HubFormFrame): Promise<void> {
    const form = this.#form;
    if (form?.frame !== frame || form.renewed) {
      // Not the open form's first refusal: its token is still dropped, so the next open asks anew.
      this.#seat.connection().tokens.invalidate(new URL(frame.src).searchParams.get('token') ?? '');
      return;
    }
    form.renewed = true;
    try {
      const url = await this.renew({ shortCode: form.table.short_code, url: form.url });
      // Closed, or another form opened, while the token came.
      if (this.#form !== form) return;
      const renewed = { ...form, url, frame: this.#newFrame(form.table, url) };
      this.#form = renewed;
      this.#element.requestUpdate();
      await this.#element.updateComplete;
      renewed.frame.focus();
    } catch {
      // The refused page stays with its own message; the next open tries again.
    }
  }

  /**
   * A frame for one form. `held`: a prepared form, out of sight, whose frame keeps its events until it
   * opens. Its events reach the element and the host as a rendered frame's would.
   *
   * A new element, so a new iframe, for each form: an iframe given another `src` would navigate, and each
   * such navigation is an entry in the page's session history (Back would then reload earlier forms out of
   * sight); its window would also stay the same one, so that a late message of the earlier page could pass
   * for the later form's.
   */
  #newFrame(table: PublishedTable, url: string, held = false): HubFormFrame {
    const frame = new HubFormFrame();
    frame.setAttribute('part', 'frame');
    frame.setAttribute(
      'exportparts',
      'bar,title,close,iframe,loading:frame-loading,error:frame-error,retry:frame-retry',
    );
    frame.src = url;
    frame.shortCode = table.short_code;
    frame.tableName = table.name;
    frame.held = held;
    frame.addEventListener('hub-form-close', this.#onFrameClose);
    frame.addEventListener('hub-error', this.#onFrameEvent);
    frame.addEventListener('hub-form-message', this.#onFrameEvent);
    return frame;
  }

  /** The form's frame, with the element's texts as they are now, to render where the form shows. */
  #frameOf(form: PreparedForm): HubFormFrame {
    form.frame.locale = this.#element.locale;
    form.frame.strings = this.#element.strings;
    return form.frame;
  }
}
