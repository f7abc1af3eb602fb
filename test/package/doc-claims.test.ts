// Numbers in the docs that no generated region writes are asserted here, against the file that holds the
// fact, so that a doc cannot keep a figure the code has moved away from.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PEER_FLOORS } from '../../src/core/peer-floors.js';

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

describe('peer floors', () => {
  it("the README's floors of React, Vue and React Native are the ones the bindings check (src/core/peer-floors.ts)", () => {
    // `18.0.0` is said "18", `3.4.0` "3.4": the version as a reader writes it.
    const said = (floor: string) => floor.replace(/(\.0)+$/, '');
    const readme = read('README.md').replace(/\s+/g, ' ');
    const claim = `(React ${said(PEER_FLOORS.react)}, Vue ${said(PEER_FLOORS.vue)}, React Native ${said(PEER_FLOORS['react-native'])})`;
    expect(readme).toContain(claim);
  });
});
