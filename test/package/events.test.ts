// The event map of src/components/events.ts is the one source of event names and details: a wrong name
// or detail is a compile error (checked by `npm run typecheck`, which compiles this file), and the
// documented events of the custom elements manifest are exactly the typed ones.
import { describe, expect, it } from 'vitest';
import { elementsManifest } from '../../scripts/manifest.mjs';
import { HubElement } from '../../src/components/base.js';
import type { HubEventName } from '../../src/components/events.js';
import type { PublishedTable } from '../../src/core/types.js';

/** Every typed event name once: a missing or extra key here does not compile. */
const TYPED: Record<HubEventName, true> = {
  'hub-ready': true,
  'hub-tags-change': true,
  'hub-table-select': true,
  'hub-form-open': true,
  'hub-form-close': true,
  'hub-form-message': true,
  'hub-error': true,
};

// Compiled, never run: emit() and addEventListener are typed by the map.
export class TypedEvents extends HubElement {
  check(table: PublishedTable): void {
    this.emit('hub-table-select', { table }, true);
    // @ts-expect-error an event name that is not in the map
    this.emit('hub-table-pick', { table });
    // @ts-expect-error a detail of the wrong shape
    this.emit('hub-tags-change', { tags: 'delivery' });
    this.addEventListener('hub-ready', (event) => {
      const names: string[] = event.detail.tables.map((t) => t.name);
      // @ts-expect-error the detail of hub-ready has no shortCode
      void event.detail.shortCode;
      void names;
    });
  }
}

describe('hub-* event map', () => {
  it('the events documented in the custom elements manifest are exactly the typed ones', () => {
    const manifest = elementsManifest().shipped as { modules: { declarations?: { events?: { name: string }[] }[] }[] };
    const documented = new Set<string>();
    for (const module of manifest.modules)
      for (const declaration of module.declarations ?? [])
        for (const event of declaration.events ?? []) documented.add(event.name);
    expect([...documented].sort()).toEqual(Object.keys(TYPED).sort());
  });
});
