import { describe, expect, it } from 'vitest';
import { countMatches } from '../../src/components/hub-table-grid/matches.js';
import type { PublishedTable } from '../../src/core/types.js';

const table = (name: string, tags: unknown): PublishedTable =>
  ({ short_code: name, name, industry: '', tags }) as PublishedTable;

describe('countMatches: where the matching tables at the start of the answer end', () => {
  it('nothing selected: every table matches', () => {
    expect(countMatches([table('a', ['x']), table('b', [])], [])).toBe(2);
  });

  it('the boundary is the first table that matches none of the selected tags, even if a later one matches', () => {
    const tables = [table('a', ['delivery']), table('b', ['food']), table('c', ['delivery'])];
    expect(countMatches(tables, ['delivery'])).toBe(1);
  });

  it('a table tag containing a selected tag matches, and the reverse, ignoring case', () => {
    expect(countMatches([table('a', ['Same-Day Delivery'])], ['delivery'])).toBe(1);
    expect(countMatches([table('a', ['冷链'])], ['冷链物流'])).toBe(1);
    expect(countMatches([table('a', ['FREIGHT'])], ['freight'])).toBe(1);
    expect(countMatches([table('a', ['logistics'])], ['delivery'])).toBe(0);
  });

  it('any one selected tag is enough', () => {
    const tables = [table('a', ['delivery']), table('b', ['freight']), table('c', ['food'])];
    expect(countMatches(tables, ['delivery', 'freight'])).toBe(2);
  });

  it('an empty table tag matches nothing (every selected tag would contain it)', () => {
    expect(countMatches([table('a', ['']), table('b', ['x'])], ['delivery'])).toBe(0);
  });

  it('tables set from script with tags that are not an array count as matching nothing, without throwing', () => {
    for (const tags of [undefined, null, 'delivery', 42, {}])
      expect(countMatches([table('a', tags)], ['delivery'])).toBe(0);
  });

  it('hostile tag text is compared as text: HTML, regex characters, U+2028 and emoji', () => {
    expect(countMatches([table('a', ['<img src=x onerror=alert(1)>'])], ['<img'])).toBe(1);
    expect(countMatches([table('a', ['a.*b'])], ['.*'])).toBe(1);
    expect(countMatches([table('a', ['axb'])], ['.*'])).toBe(0);
    expect(countMatches([table('a', ['line\u2028break'])], ['\u2028'])).toBe(1);
    expect(countMatches([table('a', ['🚚 delivery'])], ['🚚'])).toBe(1);
  });
});
