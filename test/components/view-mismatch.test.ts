// The console error for a server's first view drawn for other settings (issue 80, item 4): it names each
// setting that differs with both values, and a mark renderFirstView did not write as such.
import { describe, expect, it } from 'vitest';
import { viewMismatch } from '../../src/components/hub-embed/view-mismatch.js';

const ours = JSON.stringify(['https://api.example', 'https://forms.example', ['a']]);

describe('viewMismatch', () => {
  it('names each setting that differs, with the value in the view and on the element', () => {
    const drawn = JSON.stringify(['https://other.example', 'https://forms.example', ['a', 'b']]);
    expect(viewMismatch(drawn, ours)).toBe(
      'base-url "https://other.example" in the view, "https://api.example" on the element; tags ["a","b"] in the view, ["a"] on the element',
    );
    expect(viewMismatch(JSON.stringify(['https://api.example', '', ['a']]), ours)).toBe(
      'form-url "" in the view, "https://forms.example" on the element',
    );
  });

  it('says a mark that is no array of the three settings was not written by renderFirstView', () => {
    for (const drawn of [undefined, '', 'yes', '{}', '["a","b"]', '<b>'])
      expect(viewMismatch(drawn, ours)).toMatch(
        /^its mark \(data-first-view=".*"\) was not written by renderFirstView$/,
      );
  });
});
