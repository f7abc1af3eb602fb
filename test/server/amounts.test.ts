import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatCentsAsYuan, parseYuanToCents } from '../../src/server/amounts.js';

describe('yuan amounts', () => {
  it('every integer number of cents from 0 to 10^12, written as yuan with two decimals and parsed back, gives the same cents', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000_000_000 }), (cents) => {
        const yuan = formatCentsAsYuan(cents);
        expect(yuan).toMatch(/^[0-9]+\.[0-9]{2}$/);
        expect(parseYuanToCents(yuan)).toBe(cents);
      }),
      { numRuns: 5000 },
    );
  });

  it.each([
    [0, '0.00'],
    [1, '0.01'],
    [29, '0.29'],
    [99, '0.99'],
    [100, '1.00'],
    [1000, '10.00'],
    [1_000_000_000_000, '10000000000.00'],
    [Number.MAX_SAFE_INTEGER, '90071992547409.91'],
  ])('edge case %d cents <-> "%s"', (cents, yuan) => {
    expect(formatCentsAsYuan(cents)).toBe(yuan);
    expect(parseYuanToCents(yuan)).toBe(cents);
  });

  it('parses "0.29" to 29 where floating point would give 28.999999999999996', () => {
    expect(parseFloat('0.29') * 100).not.toBe(29);
    expect(parseYuanToCents('0.29')).toBe(29);
  });

  it.each([
    ['1'],
    ['1.5'],
    ['-1.00'],
    ['+1.00'],
    ['1e3'],
    ['0.299'],
    [''],
    ['.29'],
    ['1.'],
    [' 1.00'],
    ['1.00 '],
    ['１.００'],
    ['1,00'],
    ['0x1.00'],
    ['Infinity'],
    ['NaN'],
    ['99999999999999999.00'],
  ])('rejects %j: amounts must be digits with exactly two decimals', (text) => {
    expect(parseYuanToCents(text)).toBeUndefined();
  });

  it.each([[0.29], [29], [null], [undefined], [{}], [['0.29']]])('rejects the non-string %j', (value) => {
    expect(parseYuanToCents(value)).toBeUndefined();
  });

  it.each([[-1], [0.5], [Number.NaN], [Number.MAX_SAFE_INTEGER + 1]])('formatCentsAsYuan refuses %d', (cents) => {
    expect(() => formatCentsAsYuan(cents)).toThrow(RangeError);
  });
});
