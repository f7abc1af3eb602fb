import { html, nothing, type PropertyValues } from 'lit';
import type { TokenProvider } from '../../core/token-source.js';
import type { PublishedTable } from '../../core/types.js';
import { HubElement } from '../base.js';
import type { HubEventDetails, HubEventName } from '../events.js';
import { shared } from '../shared.styles.js';
import { Connection } from './connection.js';
import { childrenRendered, deepActive } from './dom.js';
import { errorView, filterView, gridView } from './body-views.js';
import type { OpenFormHook, OpenMode } from './form-opener.js';
import { FormLauncher } from './form-launcher.js';
import { firstViewTakeover } from './first-view-takeover.js';
import { HostSeat, tellHost } from './host.js';
import { reportOnce } from './report.js';
import { styles } from './hub-embed.styles.js';
import { SETTINGS, TableLoader } from './table-loader.js';

export type { OpenFormHook, OpenMode };

/** SETTINGS checked against the element's keys: a misspelt one (`'limits'`) fails to compile. */
const RELOADING: readonly (keyof HubEmbed)[] = SETTINGS;

const list = (value: string | null) =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

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
 * @csspart error - The error message.
 * @csspart retry - The error message's retry control.
 * @csspart dialog - The `<dialog>` of `open-mode="modal"`, named after the open table. A click on its
 *   backdrop closes it, as Escape does anywhere in the widget and a form page's request to close (the
 *   simulator's form sends it on Escape); focus then returns to the card.
 * @csspart frame - The <hub-form-frame>; its parts are forwarded as bar, title, close, iframe,
 *   frame-loading, frame-error and frame-retry.
 * @csspart bar - Forwarded from <hub-form-frame>.
 * @csspart title - Forwarded from <hub-form-frame>.
 * @csspart close - Forwarded from <hub-form-frame>.
 * @csspart iframe - Forwarded from <hub-form-frame>.
 * @csspart frame-loading - Forwarded from <hub-form-frame> (its `loading`, `error` and `retry`).
 * @csspart frame-error - Forwarded from <hub-form-frame> (its `loading`, `error` and `retry`).
 * @csspart frame-retry - Forwarded from <hub-form-frame> (its `loading`, `error` and `retry`).
 * @csspart toolbar - The chip row, forwarded from <hub-tag-filter> with its chip parts.
 * @csspart chip - Forwarded from <hub-tag-filter>.
 * @csspart chip-all - Forwarded from <hub-tag-filter>.
 * @csspart chip-pressed - Forwarded from <hub-tag-filter>.
 * @csspart grid - The card list, forwarded from <hub-table-grid> with its other parts.
 * @csspart count - Forwarded from <hub-table-grid>.
 * @csspart more - Forwarded from <hub-table-grid>.
 * @csspart skeleton - Forwarded from <hub-table-grid>.
 * @csspart empty - Forwarded from <hub-table-grid>.
 * @csspart show-all - Forwarded from <hub-table-grid>.
 * @csspart card - Forwarded from <hub-table-grid>.
 * @csspart icon - Forwarded from <hub-table-grid>.
 * @csspart icon-placeholder - Forwarded from <hub-table-grid>.
 * @csspart name - Forwarded from <hub-table-grid>.
 * @csspart industry - Forwarded from <hub-table-grid>.
 * @csspart tags - Forwarded from <hub-table-grid>.
 * @csspart tag - Forwarded from <hub-table-grid>.
 * @cssproperty --hub-reserved-height - The widget's height where the page gives it none (default 440px: the
 *   filter, the count and two rows of cards on a desktop and on a phone); the cards scroll inside it, under the filter.
 * @cssproperty --hub-color-text - Text (every element reads these theme properties; docs/theming.md).
 * @cssproperty --hub-color-muted - Industry, count, empty state, icon placeholder letter.
 * @cssproperty --hub-color-bg - Widget, cards, dialog and frame background.
 * @cssproperty --hub-color-surface - Chips, buttons, tags, skeletons, icon placeholder.
 * @cssproperty --hub-color-border - Borders of chips, buttons, cards, dialog.
 * @cssproperty --hub-color-accent - Pressed chips, focus ring, card hover border.
 * @cssproperty --hub-color-on-accent - Text on pressed chips.
 * @cssproperty --hub-color-danger - Error messages.
 * @cssproperty --hub-radius - Corners of chips (pill), buttons, cards, dialog (default 8px).
 * @cssproperty --hub-space - Gaps and padding (default 8px).
 * @cssproperty --hub-font - The `font` shorthand of every element (default 14px/1.4 system-ui, sans-serif).
 * @event hub-ready - `{offered, tables, matching}` once per load (first load, refresh, retry): when the tags
 *   and the list for the tags selected by then are both in, the filter is drawn and the cards fill the
 *   screen (or all are drawn; the rest follow below the screen). `matching` counts the tables that
 *   match the selected tags (what the count line says), `tables` also holds those the service added.
 * @event hub-tags-change - `{tags}`, the new selection, when the user changes it (a chip, or "show all").
 * @event hub-table-select - `{table}`, cancelable: preventDefault() keeps the form closed.
 * @event hub-form-open - `{shortCode}` when the form opens.
 * @event hub-form-close - `{shortCode}` when the form closes.
 * @event hub-form-message - `{data}` posted by the form page.
 * @event hub-error - `{error}`, a HubError with a `kind`, cancelable: each distinct error is also written
 *   once to the browser console with what to check, unless a listener calls preventDefault().
 */
export class HubEmbed extends HubElement {
  static override styles = [shared, styles];
  protected static override firstRenderAlone = true;
  protected static override firstRenderWithoutText = true;
  static override properties = {
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
  /** The token source and the client for the settings as they are, made on first use; shared with the form half. */
  #connection?: Connection;
  /** The connection for the settings as they are now (the native host's tokens first, then the page's). */
  #connect = (): Connection => (this.#connection ??= new Connection(this, this.#hostSeat.link?.tokens()));
  /** Takes a server's first view over, once ours or its error is drawn (first-view-takeover.ts). */
  #takeOver = firstViewTakeover(this, () => [this.baseUrl, this.formUrl, this.tags]);
  #loader = new TableLoader(this, {
    link: () => this.#hostSeat.link,
    connection: this.#connect,
    // Over a server's first view, hub-ready says that ours has taken its place.
    ready: (detail) =>
      this.#takeOver(() => {
        this.emit('hub-ready', detail);
        this.#forms.loadSoon();
      }),
    error: (detail) => {
      this.#takeOver();
      if (this.emit('hub-error', detail, true)) reportOnce(detail.error);
    },
  });
  /** The form half, and the form being opened. */
  #forms = new FormLauncher(
    this,
    {
      connection: this.#connect,
      link: () => this.#hostSeat.link,
      announce: (name, shortCode) => this.emit(name, { shortCode }),
    },
    this.#loader,
  );
  #hostSeat = new HostSeat();

  /** Your backend's route answering `{access_token, expires_in}` for the signed-in user. */
  declare tokenEndpoint: string;
  /**
   * The service's API root, e.g. the deployment's `https://host/api/v1/apihub` (a path ending in
   * `/api/v<n>/<segment>` is taken as given), or its `{base_url}`, which gets the spec's `/api/v1/hub`.
   */
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
  /**
   * `modal` (a dialog), `inline` (replaces the grid) or `navigate` (top-level navigation). In `modal`, the
   * form of a card the pointer rests on loads in the closed dialog beforehand, so that its click shows it.
   */
  declare openMode: OpenMode;
  /**
   * Supplies tokens instead of token-endpoint, e.g. from a native host, or `tokenFromEndpoint(url,
   * {headers})` for a token endpoint on another origin that reads a bearer header (docs/webview-capacitor.md).
   */
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
    this.matchesOnly = false;
    this.tokenEndpoint = '';
    this.baseUrl = '';
    this.formUrl = '';
    this.tags = [];
    this.theme = 'auto';
    this.openMode = 'modal';
    this.bridge = 'off';
    this.bridgeOrigins = [];
  }

  /** Settles once every element it renders has rendered too (childrenRendered), so hub-ready means what shows. */
  protected override getUpdateComplete(): Promise<boolean> {
    return childrenRendered(this.renderRoot, super.getUpdateComplete());
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#loader.connected();
    // The host link is made in the update (willUpdate), not here: an element already in the page connects
    // before its bundle's last lines (the plain build's bridge="auto" notice, src/define-plain.ts) have run.
    this.requestUpdate();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#loader.disconnected();
    this.#hostSeat.sync(this);
  }

  override willUpdate(changed: PropertyValues<this>): void {
    if (RELOADING.some((key) => changed.has(key))) {
      this.#connection = undefined;
      this.#loader.settingsChanged();
    }
    if (!this.isConnected) return;
    this.#hostSeat.sync(this);
    this.#loader.update(changed.has('tags'));
  }

  #onSelect(event: CustomEvent<{ table: PublishedTable }>): void {
    // Re-emitted from the host, so that a page's preventDefault() is known before anything opens.
    event.stopPropagation();
    if (this.emit('hub-table-select', event.detail, true)) void this.#forms.open(event.detail.table, deepActive());
    else event.preventDefault();
  }

  protected override emit<Name extends HubEventName>(
    name: Name,
    detail: HubEventDetails[Name],
    cancelable?: boolean,
  ): boolean {
    const go = super.emit(name, detail, cancelable);
    // The plain <script> bundle has no host to tell (its link, src/define-plain.ts, hears nothing).
    if (__HUB_EMBED_WITH_BRIDGE__) tellHost(this.#hostSeat.link, name, detail, go);
    return go;
  }

  /** The user's new selection (a chip, "show all"): it bubbles on to the page, and the host hears it too. */
  #onTagsChange(event: CustomEvent<{ tags: string[] }>): void {
    this.tags = event.detail.tags;
    if (__HUB_EMBED_WITH_BRIDGE__) tellHost(this.#hostSeat.link, 'hub-tags-change', event.detail);
  }

  /** Loads tags and tables again (what the retry control does). */
  refresh(): Promise<void> {
    return this.#loader.load();
  }

  /** Selects tags as the host says; fires no event. */
  setTags(tags: string[]): void {
    this.tags = [...tags];
  }

  /** Closes an open form, returns focus to its card, and fires `hub-form-close`; false when none was open. */
  closeForm(): boolean {
    return this.#forms.opener?.close() ?? false;
  }

  override render() {
    // The grid of `tables`, or without them its loading state.
    const grid = (tables?: PublishedTable[]) =>
      gridView(this, tables, this.#loader, this.#forms, this.#onSelect, this.#onTagsChange);
    const { error } = this.#loader;
    const inlineForm = this.#forms.opener?.renderInline();
    const shownError = error ? errorView(error, this.t, () => void this.#loader.retry()) : nothing;
    // The error comes under the filter, which stays where it is, and after the cards that a network error
    // leaves up (stale), so that it moves none of them; above an inline form.
    return html`
      ${inlineForm ? shownError : nothing}
      ${inlineForm ?? nothing}
      <div part="body" ?hidden=${!!inlineForm}>
        ${
          // Two templates: the content replaces the loading state as new elements, never by moving
          // the skeleton down under a filter that arrived (no layout shift).
          this.#loader.drawn || error
            ? html`
              ${this.#loader.offered.length ? filterView(this, this.#loader.offered, this.tags, this.#onTagsChange) : nothing}
              ${this.#loader.tables ? grid(this.#loader.tables) : nothing}
              ${inlineForm ? nothing : shownError}
            `
            : html`${grid()}`
        }
      </div>
      ${this.#forms.opener?.renderDialog() ?? nothing}
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'hub-embed': HubEmbed;
  }
}
