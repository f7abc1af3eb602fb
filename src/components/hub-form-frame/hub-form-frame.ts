import { parseFormSite } from '../../core/urls.js';
import type { HubEventDetails, HubEventName } from '../events.js';
// Lit, the base class and the shared texts through the form half's imports module: this element is part of the half.
import { fill, html, HubElement, HubError, nothing, shared } from '../form-half-imports.js';
import type { HubStrings } from '../strings.js';
import { formStrings } from './hub-form-frame.strings.js';
import { styles } from './hub-form-frame.styles.js';

/** A reported height past this is a broken or hostile page, not a form: it changes nothing. */
const TALLEST_REPORT = 100_000;
/** The page reports its height as it changes; the frame follows once the reports pause this long. */
const HEIGHT_SETTLE_MS = 100;

/**
 * Shows the form page at `src`, the form URL that `buildFormUrl(form_url, short_code, token)` makes: the
 * element that opens the form builds it once, and the same URL goes to the iframe, a native host or a
 * navigation alike.
 *
 * @tag hub-form-frame
 * @summary The form page of one table in a sandboxed iframe, with loading, timeout/retry and close.
 * @csspart bar - The header row with the title and the close control.
 * @csspart title - The table name.
 * @csspart close - The close control.
 * @csspart loading - Shown until the iframe fires `load`.
 * @csspart error - Shown after the load timeout or for an unusable src.
 * @csspart retry - Reloads the iframe.
 * @csspart iframe - The iframe.
 * @cssproperty --hub-frame-min-height - Minimum height until the form page reports its own (default 480px).
 * @cssproperty --hub-frame-max-height - The most the form page's reported height may take (default 2400px).
 * @event hub-form-message - `{data}` of a `message` from the form page's own window and origin, except
 *   the page's request to close, `{source: 'hub-form', type: 'close'}`, which fires hub-form-close instead,
 *   and its height, `{source: 'hub-form', type: 'height', height}`, which sizes the frame.
 * @event hub-form-close - `{shortCode}`, when the user presses the close control or the form page asks
 *   to close (Escape pressed inside it, for one).
 * @event hub-error - `{error}` with kind `timeout` when the page did not load in time.
 */
export class HubFormFrame extends HubElement {
  static override styles = [shared, styles];
  static override properties = {
    status: { attribute: false },
    src: { attribute: false },
    shortCode: { attribute: 'short-code' },
    tableName: { attribute: 'table-name' },
    sandbox: {},
    referrerPolicy: { attribute: 'referrerpolicy' },
    allow: {},
    timeout: { type: Number },
    held: { attribute: false },
  };

  /** `src` once checked; undefined while there is none or it is unusable. */
  #url?: URL;
  #problem?: string;
  #timer?: ReturnType<typeof setTimeout>;
  /** The events of a held frame, each a dispatch to make, in order, when it is released. */
  #waiting: (() => void)[] = [];
  #heightTimer?: ReturnType<typeof setTimeout>;

  declare private status: 'idle' | 'loading' | 'ready' | 'error';

  /**
   * The form URL, `buildFormUrl(form_url, short_code, token)`: https unless the host is loopback. A
   * property only: it carries the token, which an attribute would expose to the page's DOM.
   */
  declare src: string;
  /** The table's short code: named by `hub-form-close`, and the iframe's title when there is no table-name. */
  declare shortCode: string;
  /** Shown in the bar and in the iframe's title. */
  declare tableName: string;
  /** The iframe's sandbox. The form needs scripts, its own origin (storage), forms and popups (payment). */
  declare sandbox: string;
  /** Must send the embedding origin: the form page may read it from document.referrer. */
  declare referrerPolicy: string;
  /** The iframe's permissions policy. */
  declare allow: string;
  /** Milliseconds to wait for the page's `load` before showing an error with retry. */
  declare timeout: number;
  /**
   * The page loads out of sight, ahead of its opening (`<hub-embed>` prepares the form of the card a
   * pointer rests on): what the page says and a timeout wait, and are dispatched in order when `held`
   * turns false. Not even a capturing listener hears of a form nobody has opened.
   */
  declare held: boolean;

  constructor() {
    super();
    this.status = 'idle';
    this.src = '';
    this.shortCode = '';
    this.tableName = '';
    this.sandbox = 'allow-scripts allow-same-origin allow-forms allow-popups';
    this.referrerPolicy = 'strict-origin-when-cross-origin';
    this.allow = 'clipboard-write; payment';
    this.timeout = 15_000;
    this.held = false;
  }

  /** The widget's texts and the form's own: English's come with this element, another locale's with its table. */
  protected override get t(): HubStrings {
    return { ...formStrings, ...super.t };
  }

  get #iframe(): HTMLIFrameElement | null | undefined {
    // renderRoot exists only once connected; retry() is public and may come earlier.
    return this.renderRoot?.querySelector('iframe');
  }

  override connectedCallback(): void {
    super.connectedCallback();
    addEventListener('message', this.#onMessage);
    if (this.#url && this.status === 'loading') this.#arm();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    removeEventListener('message', this.#onMessage);
    clearTimeout(this.#timer);
    clearTimeout(this.#heightTimer);
  }

  override willUpdate(changed: Map<PropertyKey, unknown>): void {
    if (changed.has('src')) this.#start();
  }

  override updated(): void {
    if (this.held) return;
    for (const dispatch of this.#waiting.splice(0)) dispatch();
  }

  /** Dispatches the frame's own event, or keeps it while the frame is held (at most its last 20). */
  protected override emit<Name extends HubEventName>(name: Name, detail: HubEventDetails[Name]): boolean {
    if (!this.held) return super.emit(name, detail);
    this.#waiting.push(() => super.emit(name, detail));
    if (this.#waiting.length > 20) this.#waiting.shift();
    return true;
  }

  #start(): void {
    // A new page: what the one before said while held is of no interest any more.
    this.#waiting = [];
    this.#url = undefined;
    this.#problem = undefined;
    clearTimeout(this.#timer);
    // A new page has not said its height yet: the minimum holds until it does.
    clearTimeout(this.#heightTimer);
    this.style.removeProperty('--_page-height');
    this.status = 'idle';
    if (!this.src) return;
    try {
      // The token travels in the URL: only to an https site (or a loopback one), never to a script URL.
      this.#url = parseFormSite(this.src, 'src');
    } catch (error) {
      this.#problem = (error as Error).message;
      this.status = 'error';
      return;
    }
    this.status = 'loading';
    this.#arm();
  }

  #arm(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.status = 'error';
      this.emit('hub-error', { error: new HubError('timeout', 'Form page timed out; retry.') });
    }, this.timeout);
  }

  #onLoad(): void {
    // A late load of a page already given up on must not hide the error.
    if (this.status !== 'loading') return;
    clearTimeout(this.#timer);
    this.status = 'ready';
  }

  #onMessage = (event: MessageEvent): void => {
    const own = this.#iframe?.contentWindow;
    // Without a window of its own (no iframe yet), `source === null` must not pass for a match. An
    // iframe is there only with a URL.
    if (!own || event.source !== own || event.origin !== this.#url!.origin) return;
    const data: unknown = event.data;
    const ask = data as { source?: unknown; type?: unknown } | null;
    // The page's request to close: keys pressed inside the cross-origin page (Escape) never reach the
    // widget, so the page tells it. A held frame is out of sight: nothing of it is open to close.
    if (ask?.source === 'hub-form' && ask.type === 'close') {
      if (!this.held) this.#close();
    } else if (ask?.source === 'hub-form' && ask.type === 'height') {
      this.#follow((data as { height?: unknown }).height);
    } else this.emit('hub-form-message', { data });
  };

  /**
   * Sizes the page's part of the frame to the height the page reports, in CSS pixels, once its reports
   * pause. Anything but a number from 0 to TALLEST_REPORT changes nothing; CSS bounds the rest.
   */
  #follow(height: unknown): void {
    if (typeof height !== 'number' || !(height >= 0 && height <= TALLEST_REPORT)) return;
    clearTimeout(this.#heightTimer);
    this.#heightTimer = setTimeout(() => {
      // CSSOM, not a style attribute: a page whose CSP forbids inline styles allows it.
      this.style.setProperty('--_page-height', `${Math.ceil(height)}px`);
    }, HEIGHT_SETTLE_MS);
  }

  #close = (): void => void this.emit('hub-form-close', { shortCode: this.shortCode });

  /**
   * Focuses the close control: the first control in the frame, and the way out that stays in reach
   * (focus inside the cross-origin form page is out of the widget's hearing).
   */
  override focus(options?: FocusOptions): void {
    this.renderRoot?.querySelector<HTMLElement>('[part~="close"]')?.focus(options);
  }

  /** Loads the form page again, e.g. after the timeout. */
  retry(): void {
    const iframe = this.#iframe;
    // An iframe is there only with a URL.
    if (!iframe) return;
    this.status = 'loading';
    // Assigning src navigates again even when the value is unchanged.
    iframe.src = this.#url!.href;
    this.#arm();
  }

  override render() {
    const t = this.t;
    const status = this.status;
    const problem = this.#problem;
    const url = this.#url;
    // In a cross-origin-isolated page (COOP + COEP) a frame loads only with an embedder policy of its own,
    // which the form site may send, or as `credentialless` (Chromium; set before the frame navigates):
    // the form needs no cookie, its token is in its URL. docs/csp.md, "Cross-origin-isolated pages".
    return html`
      <div part="bar">
        <span part="title">${this.tableName}</span>
        <button part="close" aria-label=${t.close} title=${t.close} @click=${this.#close}>✕</button>
      </div>
      ${status === 'loading' ? html`<div part="loading" role="status">${t.loading}</div>` : nothing}
      ${
        status === 'error'
          ? html`
            <div part="error" role="alert">
              ${problem ?? t.frameError}
              ${problem ? nothing : html`<button part="retry" @click=${this.retry}>${t.retry}</button>`}
            </div>
          `
          : nothing
      }
      ${
        url
          ? html`
            <iframe
              part="iframe"
              ?credentialless=${globalThis.crossOriginIsolated}
              src=${url.href}
              title=${fill(t.form, this.tableName || this.shortCode)}
              sandbox=${this.sandbox}
              referrerpolicy=${this.referrerPolicy}
              allow=${this.allow}
              @load=${this.#onLoad}
            ></iframe>
          `
          : nothing
      }
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'hub-form-frame': HubFormFrame;
  }
}
