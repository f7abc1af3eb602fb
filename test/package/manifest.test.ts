// The custom elements manifest (dist/custom-elements.json, built, never committed) describes what users of
// the elements can reach, and nothing more.
import { describe, expect, it } from 'vitest';
import { elementsManifest } from '../../scripts/manifest.mjs';

interface Member {
  name: string;
  kind: string;
  privacy?: string;
}
interface Declaration {
  tagName?: string;
  members?: Member[];
  attributes?: { name: string }[];
  events?: { name: string }[];
}

const manifest = elementsManifest().shipped as {
  modules: { declarations?: Declaration[] }[];
};
const elements = manifest.modules.flatMap((module) => module.declarations ?? []).filter((d) => d.tagName);
const element = (tag: string) => elements.find((d) => d.tagName === tag)!;

describe('the custom elements manifest', () => {
  it('lists every element', () => {
    expect(elements.map((d) => d.tagName).sort()).toEqual([
      'hub-embed',
      'hub-form-frame',
      'hub-table-card',
      'hub-table-grid',
      'hub-tag-filter',
    ]);
  });

  it('lists no #private or private member: internals can change without a manifest change', () => {
    const hidden = elements.flatMap((d) =>
      (d.members ?? [])
        .filter((m) => m.privacy === 'private' || m.name.startsWith('#'))
        .map((m) => `${d.tagName}.${m.name}`),
    );
    expect(hidden).toEqual([]);
  });

  it('still lists the public API: properties, methods, attributes and events', () => {
    const embed = element('hub-embed');
    const members = embed.members!.map((m) => m.name);
    for (const name of [
      'tokenEndpoint',
      'baseUrl',
      'formUrl',
      'tags',
      'tokenProvider',
      'openFormHook',
      'refresh',
      'setTags',
      'closeForm',
    ])
      expect(members).toContain(name);
    expect(embed.attributes!.map((a) => a.name)).toEqual(
      expect.arrayContaining(['token-endpoint', 'base-url', 'form-url', 'open-mode', 'bridge-origins']),
    );
    expect(embed.events!.map((e) => e.name)).toEqual(
      expect.arrayContaining(['hub-ready', 'hub-table-select', 'hub-error']),
    );
    expect(element('hub-form-frame').members!.map((m) => m.name)).toContain('retry');
  });
});
