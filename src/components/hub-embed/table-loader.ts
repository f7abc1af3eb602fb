import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { WebClient } from '../../core/web-client.js';
import { sharedTokenSource } from '../../core/endpoint.js';
import { HubError } from '../../core/errors.js';
import { TokenSource, type TokenProvider } from '../../core/token-source.js';
import type { PublishedTable } from '../../core/types.js';
import { parseFormSite } from '../../core/urls.js';
import type { HubEventDetails } from '../events.js';
import { countMatches } from '../hub-table-grid/matches.js';
import { preconnect } from './dom.js';

/** What a load needs of <hub-embed>: its settings as they are now, and a way to tell the page. */
export interface LoaderElement extends ReactiveControllerHost {
  readonly isConnected: boolean;
  readonly tokenEndpoint: string;
  readonly baseUrl: string;
  readonly formUrl: string;
  readonly tokenProvider?: TokenProvider;
  readonly tags: string[];
  readonly limit?: number;
}

export interface LoaderEvents {
  /** The native host's link (HostLink): whether one answered is known once `ready` settles; then its tokens, if any. */
  link(): { ready: Promise<unknown>; tokens(): TokenProvider | undefined } | undefined;
  ready(detail: HubEventDetails['hub-ready']): void;
  error(detail: HubEventDetails['hub-error']): void;
}

/**
 * The load state machine of <hub-embed>: the token first, then the tags and the list (each shown as it
 * arrives), hub-ready once both are rendered, a new list when the selection changes, and one error per
 * load with what its retry control does.
 */
export class TableLoader implements ReactiveController {
  /** Every tag the service offers. */
  offered: string[] = [];
  tables?: PublishedTable[];
  /** The tags `tables` were listed for: where their matches end is measured against these. */
  listedTags: string[] = [];
  /** A list is loading. */
  busy = false;
  error?: HubError;
  /** The checked form site of the current settings, for a preconnect on intent. */
  formSite?: string;
  /**
   * The tags and a list are both in (or the service offers no tags): the widget draws its content in
   * one go from here on, and its loading state until then, so that nothing drawn moves when the other
   * answer arrives.
   */
  get drawn(): boolean {
    return !!this.tables && (this.offered.length > 0 || this.#tagsSettled);
  }

  #element: LoaderElement;
  #events: LoaderEvents;
  #tokens?: TokenSource;
  #client?: WebClient;
  #loadControl?: AbortController;
  #listControl?: AbortController;
  /** The settings changed, or a load was cut off: the next update loads everything again. */
  #stale = true;
  /** Set when a load's tags are in and hub-ready waits only for the list. */
  #readyOwed = false;
  /** False while a load waits for its tags: `busy` alone turns false as soon as the list is in. */
  #tagsSettled = true;
  /** What the error's retry control does: load again, or what the caller of fail() said. */
  #retry?: () => Promise<void>;

  constructor(element: LoaderElement, events: LoaderEvents) {
    this.#element = element;
    this.#events = events;
    element.addController(this);
  }

  hostConnected(): void {
    addEventListener('online', this.#online);
    if (this.#stale) this.#element.requestUpdate();
  }

  hostDisconnected(): void {
    removeEventListener('online', this.#online);
    this.#loadControl?.abort();
    this.#listControl?.abort();
    // What was cut off loads again when the element is added back: the list, or the tags of a load.
    if (this.busy || !this.#tagsSettled) this.#stale = true;
  }

  /** New settings (endpoint, URLs, provider, limit, bridge): a new client and token source, and a full load. */
  settingsChanged(): void {
    this.#stale = true;
    this.#client = undefined;
  }

  /** From the element's update: loads what is stale, or lists again for a new selection. */
  update(selectionChanged: boolean): void {
    if (this.#stale) {
      void this.load();
    } else if (selectionChanged && this.#client) {
      // Under an error a tag change is a retry: the whole load, since the tags may be missing too.
      if (this.error) void this.load();
      else void this.#list();
    }
  }

  /** A token source for the current settings (made on first use). */
  tokenSource(): TokenSource {
    this.#setup();
    return this.#tokens!;
  }

  /** Back online: a load that failed for want of a network loads again, as its retry control would. */
  #online = (): void => {
    if (this.error?.kind === 'network' && !this.#retry) void this.load();
  };

  /** What the error's retry control does. */
  retry(): Promise<void> {
    return this.#retry ? this.#retry() : this.load();
  }

  /** Shows and reports an error; `retry` is what its retry control does instead of loading again. */
  fail(error: unknown, retry?: () => Promise<void>): void {
    const hubError = error instanceof HubError ? error : new HubError('api', String(error), { cause: error });
    if (hubError.kind === 'aborted') return;
    this.#set({ error: hubError, busy: false });
    this.#retry = retry;
    this.#events.error({ error: hubError });
  }

  /** Clears an error that `fail(error, retry)` showed, once what failed has worked. */
  clearRetriedError(): void {
    if (this.#retry) this.#set({ error: undefined });
    this.#retry = undefined;
  }

  #set(state: Partial<Pick<TableLoader, 'offered' | 'tables' | 'listedTags' | 'busy' | 'error'>>): void {
    Object.assign(this, state);
    this.#element.requestUpdate();
  }

  #setup(): WebClient {
    if (this.#client) return this.#client;
    const element = this.#element;
    // No checks of our own: parseFormSite, tokenFromEndpoint and WebClient refuse a missing or bad
    // form-url, token-endpoint and base-url with a 'config' HubError naming the attribute.
    const site = parseFormSite(element.formUrl).href;
    // The native host's tokens first, then the page's provider; else token-endpoint's source, shared by widgets.
    const provider = this.#events.link()?.tokens() || element.tokenProvider;
    this.#tokens = provider ? new TokenSource(provider) : sharedTokenSource(element.tokenEndpoint);
    const client = new WebClient({ baseUrl: element.baseUrl, tokens: this.#tokens });
    preconnect(element.baseUrl, true);
    this.formSite = site;
    this.#client = client;
    return client;
  }

  /** Loads the tags and the list again (what the retry control of a failed load does). */
  async load(): Promise<void> {
    this.#stale = false;
    this.#retry = undefined;
    this.#loadControl?.abort();
    const control = new AbortController();
    this.#loadControl = control;
    const signal = control.signal;
    this.#set({ error: undefined, busy: true });
    this.#readyOwed = false;
    this.#tagsSettled = false;
    try {
      // Whether the host supplies the token is known after the handshake; with no host object this
      // settles at once.
      await this.#events.link()?.ready;
      if (signal.aborted) return;
      const client = this.#setup();
      const { tags, limit } = this.#element;
      // The token first, so that the two requests below share it; with their answers, when a token
      // endpoint with prefetch sends them along.
      await client.tokenFor({ tags, limit }, { signal });
      // The tags are asked for first: the smaller answer, so the filter can show while the list renders.
      const tagsAnswer = client.publishedTags({ signal });
      // The list goes its own way: a tag change while the tags load replaces it with a newer one.
      void this.#list();
      const offered = await tagsAnswer;
      if (control !== this.#loadControl) return;
      this.#set({ offered });
      this.#tagsSettled = true;
      this.#readyOwed = true;
      void this.#announceReady();
    } catch (error) {
      // One error per load, whichever of the tags and the list failed first.
      if (control !== this.#loadControl || this.error) return;
      this.#tagsSettled = true;
      // Under the error, no list of this failed load may still turn up.
      this.#listControl?.abort();
      this.#set({ tables: undefined });
      this.fail(error);
    }
  }

  /** Loads and shows the list for the current tags, unless a newer request has replaced this one by then. */
  async #list(): Promise<void> {
    this.#listControl?.abort();
    const control = new AbortController();
    this.#listControl = control;
    const { tags, limit } = this.#element;
    this.#set({ busy: true });
    try {
      const tables = await this.#client!.publishedList({ tags, limit, signal: control.signal });
      if (control !== this.#listControl) return;
      this.#set({ tables, listedTags: tags, busy: false });
      void this.#announceReady();
    } catch (error) {
      // One error per load: when its tags failed first, that error already shows.
      if (control !== this.#listControl || this.error) return;
      // The cards on screen belong to the previous tags: never leave them up under the error.
      this.#set({ tables: undefined });
      this.fail(error);
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
    await this.#element.updateComplete;
    // A newer load (refresh, new settings) owes its own hub-ready; this one's is void.
    if (load === this.#loadControl && !load?.signal.aborted)
      this.#events.ready({ offered: this.offered, tables, matching: countMatches(tables, this.listedTags) });
  }
}
