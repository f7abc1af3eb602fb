// The framework bindings are generated from the custom elements manifest and cannot drift from it.
import { describe, expect, it } from 'vitest';
import { bindingsFrom, elementsOf, syncBindings } from '../../scripts/bindings.mjs';
import { elementsManifest } from '../../scripts/manifest.mjs';

interface Manifest {
  modules: { declarations?: { tagName?: string; events?: { name: string }[] }[] }[];
}

/** A copy of the analyzer's manifest of the elements, the one the bindings are generated from. */
const manifest = (): Manifest => structuredClone(elementsManifest().analyzed) as Manifest;

describe('the React and Vue bindings (scripts/bindings.mjs)', () => {
  it('the committed src/components/members.ts, src/react and src/vue are exactly what the manifest generates', async () => {
    expect(await syncBindings(manifest(), { check: true })).toEqual([]);
  });

  it('cover the five tags with every event of each', () => {
    const elements = elementsOf(manifest());
    expect(elements.map((e) => e.tag)).toEqual([
      'hub-embed',
      'hub-form-frame',
      'hub-table-card',
      'hub-table-grid',
      'hub-tag-filter',
    ]);
    const files = bindingsFrom(manifest());
    for (const element of elements)
      for (const event of element.events) {
        const prop = `on${event.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase())}`;
        expect(files['src/react/index.ts']).toContain(`${prop}: event('${event}')`);
        // The React JSX and Vue types both map over this one member map.
        expect(files['src/components/members.ts']).toContain(`'${event}'`);
      }
  });

  it('a new event in the manifest shows up in the bindings (and so fails --check until regenerated)', async () => {
    const changed = manifest();
    const embed = changed.modules.flatMap((m) => m.declarations ?? []).find((d) => d.tagName === 'hub-embed')!;
    embed.events = [...(embed.events ?? []), { name: 'hub-something-new' }];
    const files = bindingsFrom(changed);
    expect(files['src/react/index.ts']).toContain("onHubSomethingNew: event('hub-something-new')");
    expect(files['src/components/members.ts']).toContain("'hub-something-new'");
    expect(await syncBindings(changed, { check: true })).toEqual(['src/components/members.ts', 'src/react/index.ts']);
  });
});
