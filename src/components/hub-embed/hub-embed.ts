import { html, nothing } from 'lit';
import { HubClient } from '../../core/client.js';
import { sharedTokenSource } from '../../core/endpoint.js';
import { HubError } from '../../core/errors.js';
import { TokenSource, type TokenProvider } from '../../core/token-source.js';
import type { PublishedTable } from '../../core/types.js';
import { buildFormUrl, parseFormSite } from '../../core/urls.js';
import { HubElement } from '../base.js';
import type { HubEventDetails, HubEventMap, HubEventName } from '../events.js';
import type { HubFormFrame } from '../hub-form-frame/hub-form-frame.js';
import { CARD_PARTS, type HubTableGrid } from '../hub-table-grid/hub-table-grid.js';
import type { HubTagFilter } from '../hub-tag-filter/hub-tag-filter.js';
import { shared } from '../shared.styles.js';
import { fill } from '../strings.js';
import { deepActive, preconnect } from './dom.js';
import { linkHost, type HostEventDetails, type HostLink } from './host.js';
import { styles } from './hub-embed.styles.js';

export type OpenMode = 'modal' | 'inline' | 'navigate';

/** Lets a host (a WebView bridge) open the form itself: resolve true and the element opens nothing. */
export type OpenFormHook = (request: { shortCode: string; url: string }) => boolean | Promise<boolean>;

/** Properties whose change means a new client, a new token source, and loading everything again. */
const SETUP = ['tokenEndpoint', 'baseUrl', 'formUrl', 'tokenProvider', 'limit', 'bridge', 'bridgeOrigins'];

const list = (value: string | null) =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** Reactive internal state: no attribute, so neither observed nor listed in the manifest. */
const internal = { attribute: false };

/**
 * With `bridge="auto"` in a WebView (or an allow-listed parent frame, see `bridge-origins`) whose host
 * answers the handshake: the host supplies the token when it offers `auth.getToken`, opens forms when it
 * answers `form.open` with `{handled: true}`, hears these events as `widget.ready`, `table.selected`,
 * `form.opened`, `form.closed`, `widget.error` and the form page's messages as `form.message`, and may
 * call `widget.refresh`, `widget.setTags` and `form.close`. Without a host the element is a plain widget.
 *
 * @tag hub-embed
 * @summary The whole widget: tag filter, table grid, and the form in a dialog, inline, or by navigation.
 * @csspart body - The filter and the grid.
 * @csspart error - The error message; part `retry` is its retry control.
 * @csspart dialog - The `<dialog>` of `open-mode="modal"`, named after the open table. A click on its
 *   backdrop closes it, as Escape does anywhere in the widget; focus then returns to the card.
 * @csspart frame - The <hub-form-frame>; its parts are forwarded as bar, title, close, iframe,
 *   frame-loading, frame-error and frame-retry.
 * @csspart toolbar - And chip, chip-all, chip-pressed: forwarded from <hub-tag-filter>.
 * @csspart grid - And count, more, skeleton, empty, show-all, card, icon, icon-placeholder, name, industry,
 *   tags, tag: forwarded from <hub-table-grid>.
 * @cssproperty --hub-color-text - Also --hub-color-muted, -bg, -surface, -border, -accent, -on-accent,
 *   -danger, --hub-radius, --hub-space, --hub-font: see docs/theming.md.
 * @event hub-ready - `{tags, tables}` once per load (first load, refresh, retry): when the tags and the
 *   list for the tags selected by then are both in and rendered.
 * @event hub-tags-change - `{selected}` when the user changes the tag selection (a chip, or "show all").
 * @event hub-table-select - `{table}`, cancelable: preventDefault() keeps the form closed.
 * @event hub-form-open - `{shortCode}` when the form opens.
 * @event hub-form-close - `{shortCode}` when the form closes.
 * @event hub-form-message - `{data}` posted by the form page.
 * @event hub-error - `{error}`, a HubError with a `kind`.
 */
export class HubEmbed extends HubElement {
  static override styles = [shared, styles];
  static override properties = {
    allTags: internal,
    tables: internal,
    listedTags: internal,
    busy: internal,
    error: internal,
    form: internal,
    tokenEndpoint: { attribute: 'token-endpoint' },
    baseUrl: { attribute: 'base-url' },
    formUrl: { attribute: 'form-url' },
    tags: { converter: list },
    limit: { type: Number },
    matchesOnly: { type: Boolean, attribute: 'matches-only' },
    theme: { reflect: true },
    openMode: { attribute: 'open-mode' },
    tokenProvider: { attribute: false },
    bridge: {},
    bridgeOrigins: { attribute: 'bridge-origins', converter: list },
  };

  /** Called before a form opens; see OpenFormHook. Receives the form URL, token included. */
  openFormHook?: OpenFormHook;
  // #private rather than `private`: the minifier shortens these names in the <script> bundle.
  #tokens?: TokenSource;
  #client?: HubClient;
  #loadControl?: AbortController;
  #listControl?: AbortController;
  #stale = true;
  /** Set when a load's tags are in and hub-ready waits only for the list. */
  #readyOwed = false;
  /** False while a load waits for its tags: `busy` alone turns false as soon as the list is in. */
  #tagsSettled = true;
  #returnFocus?: HTMLElement;
  #link?: HostLink;
  /** What the current bridge was made for; undefined when there is none. */
  #linkKey?: string;

  declare private allTags: string[];
  declare private tables?: PublishedTable[];
  /** The tags `tables` were listed for: where their matches end is measured against these, not `tags`. */
  declare private listedTags: string[];
  declare private busy: boolean;
  declare private error?: HubError;
  declare private form?: { table: PublishedTable; token: string };

  /** Your backend's route answering `{access_token, expires_in}` for the signed-in user. */
  declare tokenEndpoint: string;
  /** The service's `{base_url}`. */
  declare baseUrl: string;
  /** The form site's `{form_url}`; https unless loopback. */
  declare formUrl: string;
  /** The selected tags; the attribute is comma-separated and sets the initial selection. */
  declare tags: string[];
  /** Most tables to list; unset leaves it to the service. */
  declare limit?: number;
  /**
   * With tags selected, show only the tables that match them. By default the tables the service adds
   * to fill `limit` follow, below a divider.
   */
  declare matchesOnly: boolean;
  /** `light`, `dark`, or `auto` (the system's). */
  declare theme: 'light' | 'dark' | 'auto';
  /** `modal` (a dialog), `inline` (replaces the grid) or `navigate` (top-level navigation). */
  declare openMode: OpenMode;
  /** Supplies tokens instead of token-endpoint, e.g. from a native host. */
  declare tokenProvider?: TokenProvider;
  /**
   * `auto`: talk to a WebView host through the bridge when one answers the handshake. Default `off`:
   * a plain web page then never probes host globals or messages its parent frame.
   */
  declare bridge: 'off' | 'auto';
  /** Exact origins of a parent frame that may act as the host (comma-separated attribute); no wildcard. */
  declare bridgeOrigins: string[];

  constructor() {
    super();
    this.allTags = [];
    this.listedTags = [];
    this.busy = false;
    this.matchesOnly = false;
    this.tokenEndpoint = this.baseUrl = this.formUrl = '';
    this.tags = [];
    this.theme = 'auto';
    this.openMode = 'modal';
    this.bridge = 'off';
    this.bridgeOrigins = [];
    this.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && this.form && this.closeForm()) event.preventDefault();
    });
  }

  /**
   * Settles once the filter, the grid (with its cards) and the form frame have rendered too, so that
   * hub-ready means what a user sees.
   */
  protected override async getUpdateComplete(): Promise<boolean> {
    const done = await super.getUpdateComplete();
    const children = this.renderRoot.querySelectorAll<HubTagFilter | HubTableGrid | HubFormFrame>(
      'hub-tag-filter, hub-table-grid, hub-form-frame',
    );
    await Promise.all([...children].map((child) => child.updateComplete));
    return done;
  }

  get #dialog(): HTMLDialogElement | null | undefined {
    // renderRoot exists only once connected; closeForm() is public and may come earlier.
    return this.renderRoot?.querySelector('dialog');
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#syncBridge();
    if (this.#stale) this.requestUpdate();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#syncBridge();
    this.#loadControl?.abort();
    this.#listControl?.abort();
    // What was cut off loads again when the element is added back: the list, or the tags of a load.
    if (this.busy || !this.#tagsSettled) this.#stale = true;
  }

  override willUpdate(changed: Map<PropertyKey, unknown>): void {
    if (SETUP.some((key) => changed.has(key))) {
      this.#stale = true;
      this.#client = undefined;
    }
    if (!this.isConnected) return;
    this.#syncBridge();
    if (this.#stale) void this.#load();
    // Under an error a tag change is a retry: the whole load, since the tags may be missing too.
    else if (changed.has('tags') && this.#client) void (this.error ? this.#load() : this.#reList());
  }

  /** One host link while connected with bridge="auto", made again when its settings change. */
  #syncBridge(): void {
    const key = this.isConnected && this.bridge === 'auto' ? `${this.bridgeOrigins}` : undefined;
    if (key === this.#linkKey) return;
    this.#link?.close();
    this.#link = undefined;
    this.#linkKey = key;
    if (key === undefined) return;
    this.#link = linkHost(this, this.bridgeOrigins);
  }

  #setup(): HubClient {
    if (this.#client) return this.#client;
    // No checks of our own: parseFormSite, tokenFromEndpoint and HubClient refuse a missing or bad
    // form-url, token-endpoint and base-url with a 'config' HubError naming the attribute.
    const site = parseFormSite(this.formUrl).href;
    // The host's tokens first, then the page's provider; else token-endpoint's source, shared by widgets.
    const provider = this.#link?.tokens() || this.tokenProvider;
    this.#tokens = provider ? new TokenSource(provider) : sharedTokenSource(this.tokenEndpoint);
    const client = new HubClient({ baseUrl: this.baseUrl, tokens: this.#tokens });
    preconnect(this.baseUrl, true);
    preconnect(site, false);
    return (this.#client = client);
  }

  async #load(): Promise<void> {
    this.#stale = false;
    this.#loadControl?.abort();
    const control = (this.#loadControl = new AbortController());
    const signal = control.signal;
    this.error = undefined;
    this.busy = true;
    this.#readyOwed = false;
    this.#tagsSettled = false;
    try {
      // Whether the host supplies the token is known after the handshake; with no host object this
      // settles at once.
      await this.#link?.ready;
      if (signal.aborted) return;
      const client = this.#setup();
      // The token first, so that the two requests below share it instead of racing for one. Told what
      // they will be, a token endpoint with prefetch sends their answers along (HubClient uses them).
      await this.#tokens!.get({ signal, load: { tags: this.tags, limit: this.limit } });
      // The tags are asked for first: the smaller answer, so the filter can show while the list renders.
      const tagsAnswer = client.publishedTags({ signal });
      // The list goes its own way: a tag change while the tags load replaces it with a newer one.
      void this.#reList();
      const tags = await tagsAnswer;
      if (control !== this.#loadControl) return;
      this.allTags = tags;
      this.#tagsSettled = true;
      this.#readyOwed = true;
      void this.#announceReady();
    } catch (error) {
      // One error per load, whichever of the tags and the list failed first.
      if (control !== this.#loadControl || this.error) return;
      this.#tagsSettled = true;
      // Under the error, no list of this failed load may still turn up.
      this.#listControl?.abort();
      this.tables = undefined;
      this.#fail(error);
    }
  }

  /** Loads and shows the list for the current tags, unless a newer request has replaced this one by then. */
  async #reList(): Promise<void> {
    this.#listControl?.abort();
    const control = (this.#listControl = new AbortController());
    const tags = this.tags;
    this.busy = true;
    try {
      const tables = await this.#client!.publishedList({ tags, limit: this.limit, signal: control.signal });
      if (control !== this.#listControl) return;
      this.tables = tables;
      this.listedTags = tags;
      this.busy = false;
      void this.#announceReady();
    } catch (error) {
      // One error per load: when its tags failed first, that error already shows.
      if (control !== this.#listControl || this.error) return;
      // The cards on screen belong to the previous tags: never leave them up under the error.
      this.tables = undefined;
      this.#fail(error);
    }
  }

  /**
   * hub-ready, once per load: when its tags and the list for the tags selected by then are both in and
   * rendered. Whatever arrives first is rendered at once; only the event waits for both.
   */
  async #announceReady(): Promise<void> {
    const { tables } = this;
    if (!this.#readyOwed || this.busy || !tables) return;
    this.#readyOwed = false;
    const load = this.#loadControl;
    await this.updateComplete;
    // A newer load (refresh, new settings) owes its own hub-ready; this one's is void.
    if (load === this.#loadControl && !load?.signal.aborted) this.emit('hub-ready', { tags: this.allTags, tables });
  }

  #fail(error: unknown): void {
    const hubError = error instanceof HubError ? error : new HubError('api', String(error), { cause: error });
    if (hubError.kind === 'aborted') return;
    this.error = hubError;
    this.busy = false;
    this.emit('hub-error', { error: hubError });
  }

  #onSelect(event: CustomEvent<{ table: PublishedTable }>): void {
    // Re-emitted from the host, so that a page's preventDefault() is known before anything opens.
    event.stopPropagation();
    if (!this.emit('hub-table-select', event.detail, true)) return event.preventDefault();
    this.#returnFocus = deepActive();
    void this.#open(event.detail.table);
  }

  async #open(table: PublishedTable): Promise<void> {
    const shortCode = table.short_code;
    try {
      this.#setup();
      const token = await this.#tokens!.get({ minValidityMs: 60_000 });
      const url = buildFormUrl(this.formUrl, shortCode, token);
      if ((await this.openFormHook?.({ shortCode, url })) || (await this.#link?.openForm({ shortCode, url }))) return;
      this.emit('hub-form-open', { shortCode });
      if (this.openMode === 'navigate') {
        open(url, '_top');
        return;
      }
      this.form = { table, token };
      await this.updateComplete;
      if (this.openMode !== 'inline') this.#dialog?.showModal();
      // The frame's close control first, so the way out is where focus lands (inline, the grid is hidden).
      this.renderRoot.querySelector<HubFormFrame>('hub-form-frame')?.focus();
    } catch (error) {
      this.#fail(error);
    }
  }

  protected override emit<Name extends HubEventName>(
    name: Name,
    detail: HubEventDetails[Name],
    cancelable?: boolean,
  ): boolean {
    const go = super.emit(name, detail, cancelable);
    // The element's own events; the form page's messages reach the host through #onFrameEvent instead.
    if (go && name !== 'hub-form-message') this.#link?.tell(name, detail as HostEventDetails[Name]);
    return go;
  }

  /**
   * The form page never reaches the host itself: <hub-form-frame> passes on only messages from its own
   * iframe and the form URL's origin, and those (and its timeout) reach the host through the link.
   */
  #onFrameEvent(event: HubEventMap['hub-error'] | HubEventMap['hub-form-message']): void {
    const shortCode = this.form?.table.short_code ?? '';
    if (event.type === 'hub-error') this.#link?.tell('hub-error', (event as HubEventMap['hub-error']).detail);
    else this.#link?.tell('hub-form-message', { ...(event as HubEventMap['hub-form-message']).detail, shortCode });
  }

  /** A click on the backdrop closes the dialog: its target is the dialog, at a point outside its box. */
  #onDialogClick(event: MouseEvent): void {
    const dialog = this.#dialog;
    if (!dialog || event.target !== dialog) return;
    const box = dialog.getBoundingClientRect();
    const inside =
      event.clientX >= box.left &&
      event.clientX <= box.right &&
      event.clientY >= box.top &&
      event.clientY <= box.bottom;
    if (!inside) this.closeForm();
  }

  /** A dialog's `close` event comes a task later: by then a newer form may be open in it. */
  #onDialogClose(): void {
    if (!this.#dialog?.open) this.closeForm();
  }

  #onFrameClose(event: Event): void {
    event.stopPropagation();
    this.closeForm();
  }

  /** A config error names what to fix and offers no retry: retrying cannot help until the page changes. */
  #renderError(error: HubError) {
    const t = this.t;
    if (error.kind === 'config') return html`<div part="error" role="alert">${fill(t.config, error.message)}</div>`;
    return html`
      <div part="error" role="alert">
        ${t[error.kind as 'api'] ?? t.api}
        <button part="retry" @click=${this.refresh}>${t.retry}</button>
      </div>
    `;
  }

  /** The user's new selection, from a chip or from the grid's "show all"; the event goes on to the page. */
  #onTagsChange(event: CustomEvent<{ selected: string[] }>): void {
    this.tags = event.detail.selected;
  }

  #renderTagFilter() {
    return html`
      <hub-tag-filter
        exportparts="toolbar,chip,chip-all,chip-pressed"
        .strings=${this.t}
        .tags=${this.allTags}
        .selected=${this.tags}
        @hub-tags-change=${this.#onTagsChange}
      ></hub-tag-filter>
    `;
  }

  #renderGrid() {
    return html`
      <hub-table-grid
        exportparts="count,grid,more,skeleton,empty,show-all,${CARD_PARTS}"
        .strings=${this.t}
        .tables=${this.tables ?? []}
        .selected=${this.listedTags}
        .loading=${this.busy}
        ?matches-only=${this.matchesOnly}
        @hub-table-select=${this.#onSelect}
        @hub-tags-change=${this.#onTagsChange}
      ></hub-table-grid>
    `;
  }

  /** The open form, in the dialog or inline; nothing while no form is open. */
  #renderFrame() {
    const form = this.form;
    if (!form) return nothing;
    return html`
      <hub-form-frame
        part="frame"
        exportparts="bar,title,close,iframe,loading:frame-loading,error:frame-error,retry:frame-retry"
        .strings=${this.t}
        .formUrl=${this.formUrl}
        .shortCode=${form.table.short_code}
        .token=${form.token}
        .tableName=${form.table.name}
        @hub-form-close=${this.#onFrameClose}
        @hub-error=${this.#onFrameEvent}
        @hub-form-message=${this.#onFrameEvent}
      ></hub-form-frame>
    `;
  }

  /** Loads tags and tables again (what the retry control does). */
  refresh(): Promise<void> {
    return this.#load();
  }

  /** Selects tags as the host says; fires no event. */
  setTags(tags: string[]): void {
    this.tags = [...tags];
  }

  /** Closes an open form, returns focus to its card, and fires `hub-form-close`; false when none was open. */
  closeForm(): boolean {
    const form = this.form;
    if (!form) return false;
    this.form = undefined;
    // close() on a dialog that is not open does nothing (inline mode, or Escape closed it already).
    this.#dialog?.close();
    this.emit('hub-form-close', { shortCode: form.table.short_code });
    void this.updateComplete.then(() => this.#returnFocus?.focus());
    return true;
  }

  override render() {
    const { form, error, openMode } = this;
    const inlineForm = openMode === 'inline' && form;
    // An open-mode the element does not know falls back to the dialog, as #open() does.
    const modal = openMode !== 'inline' && openMode !== 'navigate';
    return html`
      ${error ? this.#renderError(error) : nothing}
      ${inlineForm ? this.#renderFrame() : nothing}
      <div part="body" ?hidden=${inlineForm}>
        ${this.allTags.length ? this.#renderTagFilter() : nothing}
        ${this.tables || !error ? this.#renderGrid() : nothing}
      </div>
      ${
        modal
          ? html`
            <dialog
              part="dialog"
              aria-label=${form?.table.name ?? ''}
              @click=${this.#onDialogClick}
              @close=${this.#onDialogClose}
            >
              ${this.#renderFrame()}
            </dialog>
          `
          : nothing
      }
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'hub-embed': HubEmbed;
  }
}
