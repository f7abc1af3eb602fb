import { html, nothing } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import { HubError } from '../../core/errors.js';
import { buildFormUrl } from '../../core/urls.js';
import { HubElement } from '../base.js';
import { shared } from '../shared.styles.js';
import { fill } from '../strings.js';
import { styles } from './hub-form-frame.styles.js';

/**
 * @tag hub-form-frame
 * @summary The form page of one table in a sandboxed iframe, with loading, timeout/retry and close.
 * @csspart bar - The header row with the title and the close control.
 * @csspart title - The table name.
 * @csspart close - The close control.
 * @csspart loading - Shown until the iframe fires `load`.
 * @csspart error - Shown after the load timeout or for an unusable form URL.
 * @csspart retry - Reloads the iframe.
 * @csspart iframe - The iframe.
 * @cssproperty --hub-frame-min-height - Minimum height (default 480px).
 * @event hub-form-message - `{data}` of a `message` from the form page's own window and origin.
 * @event hub-form-close - `{shortCode}`, when the user presses the close control.
 * @event hub-error - `{error}` with kind `timeout` when the page did not load in time.
 */
export class HubFormFrame extends HubElement {
  static override styles = [shared, styles];

  private url?: string;
  private problem?: string;
  private timer?: ReturnType<typeof setTimeout>;

  @query('iframe') private iframe?: HTMLIFrameElement;
  @state() private status: 'idle' | 'loading' | 'ready' | 'error' = 'idle';

  /** The form site, `{form_url}`. */
  @property({ attribute: 'form-url' }) formUrl = '';
  @property({ attribute: 'short-code' }) shortCode = '';
  /** The access token. A property only: an attribute would expose it to the page's DOM. */
  @property({ attribute: false }) token = '';
  /** Shown in the bar and in the iframe's title. */
  @property({ attribute: 'table-name' }) tableName = '';
  /** The iframe's sandbox. The form needs scripts, its own origin (storage), forms and popups (payment). */
  @property() sandbox = 'allow-scripts allow-same-origin allow-forms allow-popups';
  /** Must send the embedding origin: the form page may read it from document.referrer. */
  @property({ attribute: 'referrerpolicy' }) referrerPolicy = 'strict-origin-when-cross-origin';
  /** The iframe's permissions policy. */
  @property() allow = 'clipboard-write; payment';
  /** Milliseconds to wait for the page's `load` before showing an error with retry. */
  @property({ type: Number }) timeout = 15_000;

  override connectedCallback(): void {
    super.connectedCallback();
    addEventListener('message', this.onMessage);
    if (this.url && this.status === 'loading') this.arm();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    removeEventListener('message', this.onMessage);
    clearTimeout(this.timer);
  }

  override willUpdate(changed: Map<PropertyKey, unknown>): void {
    if (changed.has('formUrl') || changed.has('shortCode') || changed.has('token')) this.start();
  }

  private start(): void {
    this.url = this.problem = undefined;
    clearTimeout(this.timer);
    this.status = 'idle';
    if (!this.formUrl || !this.shortCode || !this.token) return;
    try {
      this.url = buildFormUrl(this.formUrl, this.shortCode, this.token);
    } catch (error) {
      this.problem = (error as Error).message;
      this.status = 'error';
      return;
    }
    this.status = 'loading';
    this.arm();
  }

  private arm(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.status = 'error';
      this.emit('hub-error', { error: new HubError('timeout', `The form page did not load within ${this.timeout / 1000} s.`) });
    }, this.timeout);
  }

  private onLoad(): void {
    // A late load of a page already given up on must not hide the error.
    if (this.status !== 'loading') return;
    clearTimeout(this.timer);
    this.status = 'ready';
  }

  private onMessage = (event: MessageEvent): void => {
    const own = this.iframe?.contentWindow;
    // Without a window of its own (no iframe yet), `source === null` must not pass for a match.
    if (!own || event.source !== own || !this.url || event.origin !== new URL(this.url).origin) return;
    this.emit('hub-form-message', { data: event.data });
  };

  /** Loads the form page again, e.g. after the timeout. */
  retry(): void {
    if (!this.url || !this.iframe) return;
    this.status = 'loading';
    // Assigning src navigates again even when the value is unchanged.
    this.iframe.src = this.url;
    this.arm();
  }

  override render() {
    const t = this.t;
    const status = this.status;
    return html`<div part="bar">
        <span part="title">${this.tableName}</span>
        <button part="close" aria-label=${t.close} title=${t.close} @click=${() => this.emit('hub-form-close', { shortCode: this.shortCode })}>✕</button>
      </div>
      ${status === 'loading' ? html`<div part="loading" role="status">${t.loading}</div>` : nothing}
      ${status === 'error'
        ? html`<div part="error" role="alert">
            ${this.problem ?? t.frameError}
            ${this.problem ? nothing : html`<button part="retry" @click=${this.retry}>${t.retry}</button>`}
          </div>`
        : nothing}
      ${this.url
        ? html`<iframe
            part="iframe"
            src=${this.url}
            title=${fill(t.form, this.tableName || this.shortCode)}
            sandbox=${this.sandbox}
            referrerpolicy=${this.referrerPolicy}
            allow=${this.allow}
            @load=${this.onLoad}
          ></iframe>`
        : nothing}`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'hub-form-frame': HubFormFrame;
  }
  interface GlobalEventHandlersEventMap {
    'hub-form-message': CustomEvent<{ data: unknown }>;
    'hub-form-close': CustomEvent<{ shortCode: string }>;
    'hub-error': CustomEvent<{ error: HubError }>;
  }
}
