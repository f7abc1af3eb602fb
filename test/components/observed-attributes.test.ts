// Each element observes exactly its documented attributes: internal state has no attribute, so a page
// cannot set it from markup and the manifest does not list it.
import { beforeAll, describe, expect, it } from 'vitest';
import '../../src/define.js';
import { loadFormOpener } from '../../src/plumbing.js';

beforeAll(() => loadFormOpener());

const observed = (tag: string) =>
  [...(customElements.get(tag) as unknown as { observedAttributes: string[] }).observedAttributes].sort();

describe('observed attributes', () => {
  it('<hub-embed> observes its documented attributes only', () => {
    expect(observed('hub-embed')).toEqual(
      [
        'base-url',
        'bridge',
        'bridge-origins',
        'form-url',
        'limit',
        'locale',
        'matches-only',
        'open-mode',
        'tags',
        'theme',
        'token-endpoint',
      ].sort(),
    );
  });

  it('the inner elements observe their documented attributes only', () => {
    expect(observed('hub-form-frame')).toEqual([
      'allow',
      'locale',
      'referrerpolicy',
      'sandbox',
      'short-code',
      'table-name',
      'timeout',
    ]);
    expect(observed('hub-table-card')).toEqual(['busy', 'locale']);
    expect(observed('hub-table-grid')).toEqual(['loading', 'locale', 'matches-only']);
    expect(observed('hub-tag-filter')).toEqual(['locale']);
  });
});
