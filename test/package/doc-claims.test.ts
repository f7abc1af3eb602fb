// Numbers in the docs that no generated region writes are asserted here, against the file that holds the
// fact, so that a doc cannot keep a figure the code has moved away from.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (file: string) => readFileSync(file, 'utf8');

describe('browser versions', () => {
  it('every browser version the README names is one docs/engines.md states', () => {
    const engines = read('docs/engines.md');
    const named = [
      ...read('README.md').matchAll(/\b(?:Safari|iOS|Chrome|Chromium|Firefox|Edge|WebKitGTK)\s+\d+(?:\.\d+)*/g),
    ].map(([text]) => text);
    expect(named.filter((text) => !engines.includes(text))).toEqual([]);
  });
});

describe('size budgets', () => {
  it('docs/benchmarks.md names the budgets by their file and states none of their figures', () => {
    // The page is a release's; a budget moves at any commit (and only down), so a figure copied there rots.
    const page = read('docs/benchmarks.md');
    expect(page).toContain('its budget less the room (scripts/size-budgets.mjs)');
    expect(page.match(/\bbudget \d[\d,]*|<= \d[\d,]* B\b/g)).toBeNull();
  });
});
