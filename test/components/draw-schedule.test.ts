import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TASK_MS, moreInTask, nextTaskCards } from '../../src/components/hub-table-grid/draw-schedule.js';

describe('moreInTask: how many more cards the task drawing now has time for', () => {
  it('as many as the time left holds at the pace measured so far, in whole cards', () => {
    // 4 cards in 4 ms: 1 ms a card, 12 ms left.
    expect(moreInTask(4, 4)).toBe(12);
    // 3 cards in 2 ms: 14 ms left hold 21 cards.
    expect(moreInTask(3, 2)).toBe(21);
    // 2 cards in 5 ms: 11 ms left hold 4.4 cards, so 4.
    expect(moreInTask(2, 5)).toBe(4);
  });

  it('none once the task has taken TASK_MS or more', () => {
    expect(moreInTask(10, TASK_MS)).toBe(0);
    expect(moreInTask(10, TASK_MS + 30)).toBe(0);
  });

  it('a task that took no measurable time has time for every card', () => {
    expect(moreInTask(48, 0)).toBe(Infinity);
  });

  it('never more than the time left holds at that pace, and never below none', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5000 }),
        fc.double({ min: 0.001, max: 500, noNaN: true }),
        (drawn, spent) => {
          const more = moreInTask(drawn, spent);
          expect(Number.isInteger(more)).toBe(true);
          expect(more).toBeGreaterThanOrEqual(0);
          expect(more * (spent / Math.max(drawn, 1e-9))).toBeLessThanOrEqual(Math.max(0, TASK_MS - spent) + 1e-6);
        },
      ),
    );
  });
});

describe('nextTaskCards: how many cards the next task draws', () => {
  it('as many as TASK_MS holds at the last task pace', () => {
    // 1 ms a card: 16; 8 ms a card: 2; 1/8 ms a card: 128.
    expect(nextTaskCards(48, 48)).toBe(16);
    expect(nextTaskCards(2, 16)).toBe(2);
    expect(nextTaskCards(128, 16)).toBe(128);
  });

  it('a fraction of a card at a slow pace is one more whole card, and a task always draws at least one', () => {
    // 1.37 ms a card: 11.7 cards, so 12.
    expect(nextTaskCards(10, 13.7)).toBe(12);
    // One card took 100 ms: the next task still draws one.
    expect(nextTaskCards(1, 100)).toBe(1);
    expect(nextTaskCards(0, 20)).toBe(1);
  });

  it('any pace draws any list to its end, in steps of at least one card', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2000 }),
        fc.double({ min: 0.001, max: 200, noNaN: true }),
        (total, perCard) => {
          let drawn = 0;
          let steps = 0;
          while (drawn < total) {
            const step = nextTaskCards(Math.max(1, Math.min(drawn, 16)), Math.max(1, Math.min(drawn, 16)) * perCard);
            expect(step).toBeGreaterThanOrEqual(1);
            drawn += step;
            steps++;
          }
          expect(steps).toBeLessThanOrEqual(total);
        },
      ),
    );
  });
});
