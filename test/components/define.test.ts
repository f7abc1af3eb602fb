import { describe, expect, it, vi } from 'vitest';
import '../../src/define.js';
import * as entry from '../../src/index.js';
import { HubEmbed } from '../../src/index.js';
import * as plumbing from '../../src/plumbing.js';
import { define, loadFormOpener } from '../../src/plumbing.js';

describe('define()', () => {
  it('registers every element, each class stamped with the package version; <hub-form-frame> with the form half', async () => {
    for (const tag of ['hub-embed', 'hub-tag-filter', 'hub-table-grid', 'hub-table-card']) {
      expect(customElements.get(tag)).toBeDefined();
    }
    const { HubFormFrame } = await loadFormOpener();
    expect(customElements.get('hub-form-frame')).toBe(HubFormFrame);
    expect(HubFormFrame.version).toBe(plumbing.version);
    expect(customElements.get('hub-embed')).toBe(HubEmbed);
    expect(HubEmbed.version).toBe(plumbing.version);
  });

  it('skips a tag already defined by the same version, silently', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    class Again extends HTMLElement {
      static version = HubEmbed.version;
    }
    expect(() => define('hub-embed', Again)).not.toThrow();
    expect(customElements.get('hub-embed')).toBe(HubEmbed);
    expect(warn).not.toHaveBeenCalled();
  });

  it('warns once, naming both versions, when another version holds the tag', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    class Other extends HTMLElement {
      static version = '9.9.9';
    }
    define('hub-embed', Other);
    define('hub-table-card', Other);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/9\.9\.9.*hub-embed.*0\.|hub-embed.*9\.9\.9/);
    expect(customElements.get('hub-embed')).toBe(HubEmbed);
  });

  it('src/index.ts exports the element classes without registering anything itself; the core and the plumbing have their own entries', () => {
    expect(entry.HubEmbed).toBe(HubEmbed);
    // Each name has one home: WebClient and buildFormUrl are hub-embed/core's.
    expect('WebClient' in entry).toBe(false);
    expect('buildFormUrl' in entry).toBe(false);
    expect(plumbing.stringsFor('en-GB').all).toBe('All');
  });
});
