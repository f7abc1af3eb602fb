// <hub-embed>'s side of its form half: loads the half (after hub-ready, on a sign of intent) and opens a
// selected table's form with it, the table's card busy meanwhile. The half itself is form-opener.ts.
import { HubError } from '../../core/errors.js';
import type { PublishedTable } from '../../core/types.js';
import type { CardNode } from '../hub-table-card/card-template.js';
import { atLowPriority } from './dom.js';
import type { FormOpener, FormSeat, OpenerElement } from './form-opener.js';
import { loadFormOpener } from './form-opener-loader.js';
import type { TableLoader } from './table-loader.js';

/** What a form that failed to open does to the load's state: its error shows, with a retry. */
type Failures = Pick<TableLoader, 'fail' | 'refuse' | 'clearRetriedError'>;

/**
 * The form half of one <hub-embed>, loaded once: its chunk on the first call, the same FormOpener after.
 * Each call checks form-url there, which the form half alone needs: a bad one is a setup error in the
 * cards' place. A half that did not load waits for the next sign of intent or click, which tries again.
 */
export class FormLauncher {
  /** The short code of the table whose form is being opened: its card shows busy meanwhile. */
  opening?: string;
  /** The form half, once its chunk is in: it opens forms, and owns the dialog and the open form. */
  opener?: FormOpener;
  #element: OpenerElement;
  #seat: FormSeat;
  #failures: Failures;

  constructor(element: OpenerElement, seat: FormSeat, failures: Failures) {
    this.#element = element;
    this.#seat = seat;
    this.#failures = failures;
  }

  /**
   * Loads the half behind the page's own work and fetches, which need the bandwidth more, once hub-ready
   * is out: a click then finds it in, and a resting or pressing pointer its form prepared.
   */
  loadSoon(): void {
    atLowPriority(() => void this.#load('low').catch(this.#refused));
  }

  /**
   * The first sign that a form may open (a pointer over a card, a card focused or touched): fetch the
   * form half, which warms up the connection to the form site too, so that the click finds both ready.
   */
  readonly intent = {
    handleEvent: (event: Event): void => {
      if (event.composedPath().some((node) => node instanceof HTMLElement && (node as CardNode).table))
        void this.#load().catch(this.#refused);
    },
    // touchstart: the page's scrolling never waits for this listener.
    passive: true,
  };

  /** Opens the form of `table`; a click before the form half is in waits for it, its card marked busy. */
  async open(table: PublishedTable, returnFocus?: HTMLElement): Promise<void> {
    const shortCode = table.short_code;
    this.#mark(shortCode);
    try {
      const opener = await this.#load();
      this.#failures.clearRetriedError();
      await opener.open(table, returnFocus);
    } catch (error) {
      this.#failures.fail(error, () => this.open(table, returnFocus));
    } finally {
      if (this.opening === shortCode) this.#mark(undefined);
    }
  }

  #mark(shortCode: string | undefined): void {
    this.opening = shortCode;
    this.#element.requestUpdate();
  }

  /** The half at `priority` (its first load); a call at a user's sign of intent (none) warms up the form site. */
  async #load(priority?: 'low'): Promise<FormOpener> {
    const { FormOpener } = await loadFormOpener(priority);
    if (!this.opener) {
      this.opener = new FormOpener(this.#element, this.#seat);
      this.#element.requestUpdate();
    }
    this.opener.checkFormSite(!priority);
    return this.opener;
  }

  /** A form-url refused as the form half came in shows as a setup error; a half that did not load waits. */
  #refused = (error: unknown): void => {
    if (error instanceof HubError && error.kind === 'config') void this.#failures.refuse(error);
  };
}
