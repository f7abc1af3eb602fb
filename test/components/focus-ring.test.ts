import { fixture, html } from '@open-wc/testing';
import { describe, expect, it } from 'vitest';
import { clippedFocusRings, focusableParts } from './focus-ring.js';
import { inChromium } from './helpers.js';

// The ring check the element tests run (through describeAccessible) must see a clipped ring as clipped
// and a whole one as whole, or its passes mean nothing.
describe('focus ring check (pixels)', () => {
  const ring = 'outline: 2px solid rgb(9, 105, 218); outline-offset: 2px';

  it.skipIf(!inChromium)('reports the sides of a ring clipped by its overflow container', async () => {
    const page = await fixture(html`
      <div style="padding: 16px">
        <div style="overflow: hidden; width: max-content"><button style=${ring}>Clipped</button></div>
      </div>
    `);
    expect(await clippedFocusRings(page)).toEqual(['button "Clipped": top 0%, bottom 0%, left 0%, right 0% painted']);
  });

  // The pixels read are the ring's own: a capture placed a few pixels off would misread one side.
  it.skipIf(!inChromium)('reports only the side that its container cuts off', async () => {
    const page = await fixture(html`
      <div style="padding: 16px 16px 16px 40px">
        <div style="overflow: hidden; width: max-content; padding: 4px 4px 4px 0">
          <button style=${ring}>Cut on the left</button>
        </div>
      </div>
    `);
    expect(await clippedFocusRings(page)).toEqual(['button "Cut on the left": left 0% painted']);
  });

  it.skipIf(!inChromium)(
    'reports a part outside the viewport, where no one sees its ring, as not painted',
    async () => {
      const page = await fixture(html`<div><button style="position: fixed; left: -200px; ${ring}">Away</button></div>`);
      expect(await clippedFocusRings(page)).toEqual(['button "Away": top 0%, bottom 0%, left 0%, right 0% painted']);
    },
  );

  it.skipIf(!inChromium)('finds nothing for a ring with room around it', async () => {
    const page = await fixture(html`
      <div style="padding: 16px">
        <div style="overflow: hidden; width: max-content; padding: 4px"><button style=${ring}>Whole</button></div>
      </div>
    `);
    expect(await clippedFocusRings(page)).toEqual([]);
  });

  it.skipIf(!inChromium)('reports a focusable part that shows no ring of its colour at all', async () => {
    const page = await fixture(html`<div style="padding: 16px"><button style="outline: none">Bare</button></div>`);
    expect(await clippedFocusRings(page)).toEqual(['button "Bare": top 0%, bottom 0%, left 0%, right 0% painted']);
  });

  it.skipIf(!inChromium)('reaches focusable parts inside shadow roots and leaves out hidden ones', async () => {
    const host = await fixture(html`<div></div>`);
    const root = host.attachShadow({ mode: 'open' });
    root.append(Object.assign(document.createElement('button'), { textContent: 'in' }));
    const hidden = Object.assign(document.createElement('button'), { hidden: true });
    root.append(hidden);
    expect(focusableParts(host).map((part) => part.textContent)).toEqual(['in']);
  });
});
