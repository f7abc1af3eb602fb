import { HubError } from '../../core/errors.js';
import type { TokenProvider } from '../../core/token-source.js';
import type { PublishedTable } from '../../core/types.js';
import type { HubEventDetails } from '../events.js';
import { countMatches } from '../hub-table-grid/matches.js';
import type { Connection } from './connection.js';
import { explainError } from './explain-error.js';

/**
 * The properties of <hub-embed> whose change means a new client, a new token source, and loading everything
 * again (hub-embed.ts checks them against its keys).
 */
export const SETTINGS = [
  'tokenEndpoint',
  'baseUrl',
  'formUrl',
  'tokenProvider',
  'limit',
  'bridge',
  'bridgeOrigins',
] as const;

/** What a load needs of <hub-embed>: its selection as it is now, and its updates. */
export interface LoaderElement extends HTMLElement {
  readonly baseUrl: string;
  requestUpdate(): void;
  readonly updateComplete: Promise<boolean>;
  readonly tags: string[];
  readonly limit?: number;
}

export interface LoaderEvents {
  /** The native host's link (HostLink): whether one answered is known once `ready` settles; then its tokens, if any. */
  link(): { ready: Promise<unknown>; tokens(): TokenProvider | undefined } | undefined;
  /** The element's connection for its settings as they are now (made on first use). */
  connection(): Connection;
  ready(detail: HubEventDetails['hub-ready']): void;
  error(detail: HubEventDetails['hub-error']): void;
}

/**
 * Where the loader is: `stale`, the settings changed or a load was cut off, and the next update loads
 * everything again; `tags`, a load waits for its token and tags (its list may be in already); `owed`, the
 * tags are in and hub-ready waits only for the list; `done`, hub-ready was told; `failed`, `error` shows.
 */
export type LoadStatus = 'stale' | 'tags' | 'owed' | 'done' | 'failed';

/**
 * The load state machine of <hub-embed>: the token first, then the tags and the list (each shown as it
 * arrives), hub-ready once both are rendered, a new list when the selection changes, and one error per
 * load with what its retry control does.
 */
export class TableLoader {
  /** Every tag the service offers. */
  offered: string[] = [];
  tables?: PublishedTable[];
  /** The tags `tables` were listed for: where their matches end is measured against these. */
  listedTags: string[] = [];
  /** A list is loading (the grid's loading state): from a load's start, or a new selection's, until it is in. */
  busy = false;

  /** What shows while `failed`. */
  error?: HubError;

  /**
   * The tags and a list are both in (or the service offers no tags): the widget draws its content in
   * one go from here on, and its loading state until then, so that nothing drawn moves when the other
   * answer arrives.
   */
  get drawn(): boolean {
    return !!this.tables && (this.offered.length > 0 || this.#status !== 'tags');
  }

  #status: LoadStatus = 'stale';
  /**
   * The service has answered these settings (tags or a list came since they were set): the address is
   * right, and a failure from now on is the network's or the service's, never explained as the setup's.
   */
  #answered = false;
  /** While `failed`: what the error's retry control does, when that is not a new load. */
  #retry?: () => Promise<void>;
  #element: LoaderElement;
  #events: LoaderEvents;
  /** The connection of the current load: made once the host link, if any, is ready. */
  #connection?: Connection;
  #loadControl?: AbortController;
  #listControl?: AbortController;

  constructor(element: LoaderElement, events: LoaderEvents) {
    this.#element = element;
    this.#events = events;
  }

  // Called by the element, not as a Lit controller: the <script> bundles' Lit has no controllers
  // (build/lean-lit.ts). The element updates as it connects: a stale load starts there (update()).
  connected(): void {
    addEventListener('online', this.#online);
  }

  disconnected(): void {
    removeEventListener('online', this.#online);
    this.#loadControl?.abort();
    this.#listControl?.abort();
    // What was cut off loads again when the element is added back: the list, or the tags of a load.
    if (this.busy || this.#status === 'tags') this.#status = 'stale';
  }

  /** New settings (endpoint, URLs, provider, limit, bridge): a new connection, and a full load. */
  settingsChanged(): void {
    this.#status = 'stale';
    this.#connection = undefined;
    this.#answered = false;
  }

  /** From the element's update: loads what is stale, or lists again for a new selection. */
  update(selectionChanged: boolean): void {
    if (this.#status === 'stale') {
      void this.load();
    } else if (selectionChanged && this.#connection) {
      // Under an error a tag change is a retry: the whole load, since the tags may be missing too.
      if (this.error) void this.load();
      else void this.#list();
    }
  }

  /** Back online: a load that failed for want of a network loads again, as its retry control would. */
  #online = (): void => {
    if (this.error?.kind === 'network' && !this.#retry) void this.load();
  };

  /** What the error's retry control does. */
  retry(): Promise<void> {
    return this.#retry?.() ?? this.load();
  }

  /** Shows and reports an error; `retry` is what its retry control does instead of loading again. */
  fail(error: unknown, retry?: () => Promise<void>): void {
    const hubError = error instanceof HubError ? error : new HubError('api', String(error), { cause: error });
    if (hubError.kind === 'aborted') return;
    this.#retry = retry;
    this.#set({ error: hubError, busy: false }, 'failed');
    this.#events.error({ error: hubError });
  }

  /**
   * A setting refused after the lists came (form-url, which the form half checks): shown as a load's
   * setup error is, explained where it can be, in the cards' place; once per load.
   */
  async refuse(error: HubError): Promise<void> {
    const shown = await explainError(error, this.#element);
    if (this.error) return;
    this.tables = undefined;
    this.fail(shown);
  }

  /** Clears an error that `fail(error, retry)` showed, once what failed has worked. */
  clearRetriedError(): void {
    if (!this.#retry) return;
    this.#retry = undefined;
    this.#set({ error: undefined }, 'done');
  }

  /** Shows `state`, and with `status` goes there. */
  #set(
    state: Partial<Pick<TableLoader, 'offered' | 'tables' | 'listedTags' | 'busy' | 'error'>>,
    status = this.#status,
  ): void {
    Object.assign(this, state);
    this.#status = status;
    this.#element.requestUpdate();
  }

  /** Loads the tags and the list again (what the retry control of a failed load does). */
  async load(): Promise<void> {
    this.#loadControl?.abort();
    const control = new AbortController();
    this.#loadControl = control;
    const signal = control.signal;
    this.#retry = undefined;
    this.#set({ error: undefined, busy: true }, 'tags');
    try {
      // Whether the host supplies the token is known after the handshake. Without a host link the
      // token's request goes out in this very call, not after the render of the update that asked.
      const link = this.#events.link();
      if (link) await link.ready;
      if (signal.aborted) return;
      // The connection of this load is the one its list and later lists use.
      // eslint-disable-next-line no-multi-assign
      const { client } = (this.#connection = this.#events.connection());
      const { tags, limit } = this.#element;
      // The token first, so that the two requests below share it; with their answers, when a token
      // endpoint with prefetch sends them along.
      await client.tokenFor({ tags, limit }, { signal });
      // The tags are asked for first: the smaller answer, so the filter can show while the list renders.
      const tagsAnswer = client.publishedTags({ signal });
      // The list goes its own way: a tag change while the tags load replaces it with a newer one.
      void this.#list();
      const offered = await tagsAnswer;
      this.#answered = true;
      if (control !== this.#loadControl) return;
      // A list that failed first keeps its error, under the filter.
      this.#set({ offered }, this.error ? 'failed' : 'owed');
      void this.#announceReady();
    } catch (error) {
      // A refused setting surfaces here, where the connection is made: explained, where the entry can.
      const shown = await explainError(error, this.#element, this.#answered);
      // One error per load, whichever of the tags and the list failed first.
      if (control !== this.#loadControl || this.error) return;
      // Under the error, no list of this failed load may still turn up.
      this.#listControl?.abort();
      this.#failList(shown);
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
      const tables = await this.#connection!.client.publishedList({ tags, limit, signal: control.signal });
      this.#answered = true;
      if (control !== this.#listControl) return;
      this.#set({ tables, listedTags: tags, busy: false });
      void this.#announceReady();
    } catch (error) {
      const shown = await explainError(error, this.#element, this.#answered);
      // One error per load: when its tags failed first, that error already shows.
      if (control !== this.#listControl || this.error) return;
      this.#failList(shown);
    }
  }

  /**
   * Shows a load's error in the cards' place. The cards on screen belong to the previous tags: under any
   * error but the network's they go. Offline they stay, marked stale under the error (hub-embed.styles.ts),
   * and the browser's online event loads again (#online).
   */
  #failList(error: unknown): void {
    if (!(error instanceof HubError && error.kind === 'network')) this.tables = undefined;
    this.fail(error);
  }

  /**
   * hub-ready, once per load: when its tags and the list for the tags selected by then are both in and
   * rendered. Whatever arrives first is rendered at once; only the event waits for both.
   */
  async #announceReady(): Promise<void> {
    const { tables } = this;
    if (this.#status !== 'owed' || this.busy || !tables) return;
    this.#status = 'done';
    const load = this.#loadControl;
    await this.#element.updateComplete;
    // A newer load (refresh, new settings) owes its own hub-ready; this one's is void.
    if (load === this.#loadControl && !load?.signal.aborted)
      this.#events.ready({ offered: this.offered, tables, matching: countMatches(tables, this.listedTags) });
  }
}
