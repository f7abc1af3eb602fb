// The form half's second job, beside opening forms (form-opener.ts): preparing the form of the card a
// pointer rests on or presses, so that its click shows a form already loading.
import type { PublishedTable } from '../../core/types.js';
import { buildFormUrl } from '../../core/token-links.js';
import type { HubFormFrame } from '../hub-form-frame/hub-form-frame.js';
import type { CardNode } from '../hub-table-card/card-template.js';

/**
 * How long a pointer rests on a card before its form is prepared. A pointer crossing the grid prepares
 * nothing; one that stops on a card is about to click it, and that click then finds the form loaded.
 */
export const PREPARE_AFTER_MS = 100;

/**
 * How long a prepared form that nobody opens is kept: its page holds a token and runs scripts. A mouse
 * that leaves the card drops it at once; a finger lifted from a card has left it before its click comes,
 * so for a touch this is the only end.
 */
export const PREPARED_FOR_MS = 5_000;

/** A form loading out of sight: its table, its URL (token included) and the held frame made for it alone. */
export interface PreparedForm {
  table: PublishedTable;
  url: string;
  frame: HubFormFrame;
}

/** What the preparer needs of the <hub-embed> it serves. */
export interface PreparerElement {
  readonly renderRoot: HTMLElement | DocumentFragment;
  readonly formUrl: string;
  addEventListener(
    type: 'pointerover' | 'pointermove' | 'pointerdown' | 'pointerleave',
    listener: (event: PointerEvent) => void,
  ): void;
  requestUpdate(): void;
}

/** What the preparer asks of the opener, which decides where and how forms open. */
export interface PreparerSeat {
  /** An access token with at least a minute left. */
  token(): Promise<string>;
  /**
   * Whether a prepared form would be shown by the click: none is open, the mode is the modal one, and no
   * `openFormHook` or native host may open it elsewhere.
   */
  mayPrepare(): boolean;
  /** A frame for the form, held: out of sight, keeping what its page says until it opens. */
  heldFrame(table: PublishedTable, url: string): HubFormFrame;
}

/** The table of the card an event went through, if any: a card carries its table (see CardNode). */
const cardTable = (event: Event) =>
  (event.composedPath().find((node) => node instanceof HTMLElement && (node as CardNode).table) as CardNode | undefined)
    ?.table;

/** The user asked the browser to save data (Save-Data, or prefers-reduced-data): no speculative loads. */
const savingData = () =>
  !!(navigator as { connection?: { saveData?: boolean } }).connection?.saveData ||
  matchMedia('(prefers-reduced-data: reduce)').matches;

/**
 * Prepares the form of the card a pointer rests on or presses: the form page loads in the closed dialog,
 * in a frame of its own, and the opener shows that very frame when that card is clicked (take()). A
 * prepared form tells no one anything (no hub-form-open, and what its page says or how it fails waits for
 * the open), and leaves with its frame when the pointer leaves the card or nobody opens it for a few
 * seconds. Nothing is prepared when the opener says so (see PreparerSeat.mayPrepare) or the user saves data.
 */
export class FormPreparer {
  #element: PreparerElement;
  #seat: PreparerSeat;
  #prepared?: PreparedForm;
  /** The short code of the card the pointer is over (or pressed), if any. */
  #pointed?: string;
  #restTimer?: ReturnType<typeof setTimeout>;
  #dropTimer?: ReturnType<typeof setTimeout>;

  constructor(element: PreparerElement, seat: PreparerSeat) {
    this.#element = element;
    this.#seat = seat;
    // A pointer going from one card to the next inside the grid's shadow root sends a pointerover that
    // stops at that shadow boundary (its target and relatedTarget both become the grid there), so the
    // element hears only the first card entered from outside the grid. pointermove has no relatedTarget
    // and reaches the element from every card: together they say which card the pointer is over.
    element.addEventListener('pointerover', this.#onPointer);
    element.addEventListener('pointermove', this.#onPointer);
    element.addEventListener('pointerdown', this.#onPress);
    element.addEventListener('pointerleave', (event) => {
      // A finger leaves as it lifts, before the click that opens the form: only a mouse or pen leaves early.
      if (event.pointerType !== 'touch') this.#point(undefined);
    });
    // The half may come after the pointer arrived over a card: one still resting there has waited long enough.
    const grid = element.renderRoot.querySelector('hub-table-grid')?.renderRoot;
    const rested = [...(grid?.querySelectorAll<CardNode>('[role="listitem"]') ?? [])].find((card) =>
      card.matches(':hover'),
    );
    if (rested?.table) {
      this.#pointed = rested.table.short_code;
      void this.#prepare(rested.table);
    }
  }

  /** The form loading in the closed dialog, if any: the opener renders it there, so that opening keeps its frame. */
  get prepared(): PreparedForm | undefined {
    return this.#prepared;
  }

  /**
   * For the form about to open at `url`: the prepared frame when it was prepared with this very URL
   * (table, site and token), loaded or loading; undefined otherwise. Either way nothing stays prepared,
   * and nothing more is prepared from what the pointer did before.
   */
  take(url: string): HubFormFrame | undefined {
    clearTimeout(this.#restTimer);
    clearTimeout(this.#dropTimer);
    const prepared = this.#prepared;
    this.#prepared = undefined;
    return prepared?.url === url ? prepared.frame : undefined;
  }

  /** The pointer is over the card of `table`, or over no card: a rest there prepares its form. */
  #point(table: PublishedTable | undefined): void {
    const code = table?.short_code;
    if (code === this.#pointed) return;
    this.#pointed = code;
    clearTimeout(this.#restTimer);
    // The pointer left the prepared card: its form is not wanted any more.
    if (this.#prepared) this.#drop();
    if (table) this.#restTimer = setTimeout(() => void this.#prepare(table), PREPARE_AFTER_MS);
  }

  #onPointer = (event: PointerEvent): void => this.#point(cardTable(event));

  /** A press on a card is the surest sign of a click to come: its form is prepared at once. */
  #onPress = (event: PointerEvent): void => {
    const table = cardTable(event);
    if (!table) return;
    this.#point(table);
    clearTimeout(this.#restTimer);
    void this.#prepare(table);
  };

  /** Drops the prepared form: its frame leaves the page, and with it its page, its token and what it said. */
  #drop(): void {
    clearTimeout(this.#dropTimer);
    if (!this.#prepared) return;
    this.#prepared = undefined;
    this.#element.requestUpdate();
  }

  /** The modal mode's form for `table`, loading out of sight; best effort: the click does it properly. */
  async #prepare(table: PublishedTable): Promise<void> {
    const able = () => this.#seat.mayPrepare() && !savingData();
    const code = table.short_code;
    if (!able() || this.#prepared?.table.short_code === code) return;
    try {
      const url = buildFormUrl(this.#element.formUrl, code, await this.#seat.token());
      // A form may have opened, the settings changed, or the pointer moved on while the token came.
      if (!able() || this.#pointed !== code || this.#prepared?.table.short_code === code) return;
      this.#drop();
      this.#prepared = { table, url, frame: this.#seat.heldFrame(table, url) };
      this.#dropTimer = setTimeout(() => this.#drop(), PREPARED_FOR_MS);
      this.#element.requestUpdate();
    } catch {
      // Nothing is shown for a form not asked for; the click builds its URL again and reports what fails.
    }
  }
}
