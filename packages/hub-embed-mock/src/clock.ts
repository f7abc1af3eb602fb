/** The simulator's clock: a base clock that tests and the console can freeze, move and release. */
import type { MockClock } from './types.js';

export function createClock(base: () => number): MockClock {
  let frozen: number | null = null;
  return {
    now: () => frozen ?? base(),
    set(ms) {
      if (!Number.isFinite(ms)) throw new TypeError('clock.set needs a finite number of milliseconds.');
      frozen = ms;
    },
    advance(ms) {
      if (!Number.isFinite(ms)) throw new TypeError('clock.advance needs a finite number of milliseconds.');
      frozen = (frozen ?? base()) + ms;
    },
    resume() {
      frozen = null;
    },
  };
}
