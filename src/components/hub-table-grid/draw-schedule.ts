// The drawing schedule of <hub-table-grid> past a list's first screen: how many cards each step adds, and
// when the next step runs. It loads with the form half (../hub-embed/later-half.ts): the first screen is
// drawn without it, in the task that brings the list.
// What the half shares with the main file comes through its imports module: see ../form-half-imports.ts.
import { nextTask } from '../form-half-imports.js';

/**
 * What one task of drawing may take, its layout included, in milliseconds of the device's own clock, which
 * a slow phone's slowness is in: a third of a long task (50 ms), leaving the rest to the frame that paints
 * what it drew and to an input that comes meanwhile.
 */
export const TASK_MS = 16;

/**
 * How many more cards the task that drew `drawn` cards in `spent` ms has time for, at that pace, before it
 * has taken `taskMs`: 0 when its time is up. A task that took no time measurable has time for every card.
 */
export function moreInTask(drawn: number, spent: number, taskMs = TASK_MS): number {
  if (spent === 0) return Infinity;
  return Math.max(0, Math.floor(((taskMs - spent) * drawn) / spent));
}

/**
 * How many cards the next task draws, at the pace of a task that drew `drawn` cards in `spent` ms: as many as
 * `taskMs` holds, in whole cards and at least one (a fraction of a card, at a slow pace, is one more card),
 * so that every list is drawn to its end.
 */
export function nextTaskCards(drawn: number, spent: number, taskMs = TASK_MS): number {
  if (spent === 0) return Infinity;
  return Math.max(1, Math.ceil((taskMs * drawn) / spent));
}

/**
 * The steps of drawing one list past its first screen. A step is an update of the grid; each asks for the
 * next, in the same task while its pace leaves time (moreInTask), else in a task of its own (nextTaskCards),
 * so that an input never waits behind a long task and the frame between two tasks paints what is drawn.
 */
export class DrawSchedule {
  /** When the task drawing now began, while one does, and how many places were drawn before it. */
  #start?: number;
  #from = 0;
  /** How many cards the next task draws; none while no task is queued. */
  #next = 0;
  #drawn: () => number;
  #draw: (drawn: number) => void;

  /**
   * `drawn`: how many places of the grid's list hold a card; `draw`: asks the grid for the update that
   * draws the first `drawn` places.
   */
  constructor(drawn: () => number, draw: (drawn: number) => void) {
    this.#drawn = drawn;
    this.#draw = draw;
  }

  /** A new list, whose drawing began at `start` (the task that brought it). */
  begin(start = performance.now()): void {
    this.#from = 0;
    this.#start = start;
  }

  /** After an update that drew some of the `total` places: asks for the next step, if any. */
  stepDone(total: number): void {
    const start = this.#start;
    const drawn = this.#drawn();
    if (start === undefined || drawn >= total) {
      this.#start = undefined;
      return;
    }
    const pace = drawn - this.#from;
    const spent = performance.now() - start;
    const more = moreInTask(pace, spent);
    if (more > 0) {
      this.#draw(drawn + more);
      return;
    }
    this.#start = undefined;
    if (!this.#next)
      void nextTask().then(() => {
        this.#start = performance.now();
        this.#from = this.#drawn();
        const next = this.#from + this.#next;
        this.#next = 0;
        this.#draw(next);
      });
    this.#next = nextTaskCards(pace, spent);
  }
}
