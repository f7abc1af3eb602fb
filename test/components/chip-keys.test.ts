import { describe, expect, it } from 'vitest';
import { chipKeyTarget } from '../../src/components/hub-tag-filter/chip-keys.js';

describe('chipKeyTarget: which chip a key moves the roving focus to', () => {
  it('arrows move one chip and wrap around at both ends', () => {
    expect(chipKeyTarget('ArrowRight', 0, 4, false)).toBe(1);
    expect(chipKeyTarget('ArrowRight', 3, 4, false)).toBe(0);
    expect(chipKeyTarget('ArrowLeft', 0, 4, false)).toBe(3);
    expect(chipKeyTarget('ArrowDown', 2, 4, false)).toBe(3);
    expect(chipKeyTarget('ArrowUp', 0, 4, false)).toBe(3);
  });

  it('right to left, ArrowLeft moves forward and ArrowRight back; up and down keep their sense', () => {
    expect(chipKeyTarget('ArrowLeft', 0, 4, true)).toBe(1);
    expect(chipKeyTarget('ArrowRight', 0, 4, true)).toBe(3);
    expect(chipKeyTarget('ArrowDown', 0, 4, true)).toBe(1);
  });

  it('Home and End go to the first and the last chip, also from there', () => {
    expect(chipKeyTarget('Home', 2, 4, false)).toBe(0);
    expect(chipKeyTarget('End', 1, 4, false)).toBe(3);
    expect(chipKeyTarget('Home', 0, 4, false)).toBe(0);
  });

  it('any other key, a key named like an Object.prototype member, or a key from outside the chips moves nothing', () => {
    for (const key of ['x', 'Enter', 'toString', 'constructor', '__proto__', 'hasOwnProperty'])
      expect(chipKeyTarget(key, 1, 4, false), key).toBeUndefined();
    expect(chipKeyTarget('ArrowRight', -1, 4, false)).toBeUndefined();
  });
});
