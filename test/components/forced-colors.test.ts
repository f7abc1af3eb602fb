// Forced colours (Windows' contrast themes): the browser paints every background, border and ring in the
// system's colours, which leaves a pressed chip like the others. Chromium emulates the mode through the
// DevTools Protocol; axe judges each state, and a screenshot of each (written to test-results/forced-colors/
// for a person to look at) shows that the pressed chip and the focused card differ from their plain neighbours. In the a11y lane, Chromium only, as the other axe and pixel tests.
import { fixture, fixtureCleanup, html } from '@open-wc/testing';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import '../../src/define.js';
import type { HubTableGrid } from '../../src/components/hub-table-grid/hub-table-grid.js';
import type { HubTagFilter } from '../../src/components/hub-tag-filter/hub-tag-filter.js';
import type { PublishedTable } from '../../src/core/types.js';
import { expectAccessible } from './accessible.js';
import { inChromium, part, parts } from './helpers.js';

const lane = inChromium && !!inject('a11yLane');

const tables: PublishedTable[] = [
  { short_code: 'a1', name: 'Alpha', industry: 'Agency', tags: ['health'] },
  { short_code: 'b2', name: 'Beta', industry: 'Bakery', tags: ['retail'] },
];

async function emulateForcedColors(active: boolean): Promise<void> {
  const { cdp } = await import('vitest/browser');
  await cdp().send('Emulation.setEmulatedMedia', {
    features: [{ name: 'forced-colors', value: active ? 'active' : 'none' }],
  });
}

/** A filter with `health` pressed over a grid of two cards, as a widget shows them. */
async function widgetParts(): Promise<{ root: HTMLElement; filter: HubTagFilter; grid: HubTableGrid }> {
  const root = await fixture<HTMLElement>(html`
    <div style="width: 560px; padding: 8px">
      <hub-tag-filter locale="en" .offered=${['delivery', 'health', 'retail']} .tags=${['health']}></hub-tag-filter>
      <hub-table-grid locale="en" .tables=${tables}></hub-table-grid>
    </div>
  `);
  const filter = root.querySelector('hub-tag-filter')!;
  const grid = root.querySelector('hub-table-grid')!;
  await filter.updateComplete;
  await grid.updateComplete;
  return { root, filter, grid };
}

/** The pixels of `element` as painted, from a screenshot that is also saved as `name`.png. */
async function shot(element: Element, name: string): Promise<ImageData> {
  const { page } = await import('vitest/browser');
  const { base64 } = await page.screenshot({
    element,
    path: `../../test-results/forced-colors/${name}.png`,
    base64: true,
  });
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const context = canvas.getContext('2d')!;
  context.drawImage(bitmap, 0, 0);
  return context.getImageData(0, 0, bitmap.width, bitmap.height);
}

/** The colour at (x, y) of `image`, a fraction of its width and height each. */
function colourAt(image: ImageData, x: number, y: number): string {
  const at = (Math.round(y * (image.height - 1)) * image.width + Math.round(x * (image.width - 1))) * 4;
  return [...image.data.slice(at, at + 3)].join(',');
}

/** The colour of a part's edge: the first pixel in from its left side, half way down. */
const edge = (image: ImageData) => {
  const at = (Math.floor(image.height / 2) * image.width + 1) * 4;
  return [...image.data.slice(at, at + 3)].join(',');
};

beforeEach(async () => {
  if (lane) await emulateForcedColors(true);
});

afterEach(async () => {
  fixtureCleanup();
  if (lane) await emulateForcedColors(false);
});

describe('forced-colors: active keeps chips, cards, focus rings and the selected chip visible (axe)', () => {
  it.skipIf(!lane)('default: the filter with a pressed chip over the cards', async () => {
    expect(matchMedia('(forced-colors: active)').matches).toBe(true);
    const { root } = await widgetParts();
    await expectAccessible(root);
  });

  it.skipIf(!lane)('a focused card', async () => {
    const { root, grid } = await widgetParts();
    part(grid, 'card')!.focus();
    await expectAccessible(root);
  });

  it.skipIf(!lane)('a focused pressed chip', async () => {
    const { root, filter } = await widgetParts();
    parts(filter, 'chip-pressed')[0]!.focus();
    await expectAccessible(root);
  });
});

describe('forced-colors: active keeps chips, cards, focus rings and the selected chip visible (pixels)', () => {
  it.skipIf(!lane)(
    'default: the pressed chip is filled, unlike the chip beside it, and each card has its border',
    async () => {
      const { root, filter, grid } = await widgetParts();
      await shot(root, 'default');
      const [plain, pressed] = [part(filter, 'chip')!, parts(filter, 'chip-pressed')[0]!];
      expect(pressed.textContent?.trim()).toBe('health');
      // The middle of each chip's left end, inside its border, where no letter is drawn.
      const inside = (image: ImageData) => colourAt(image, 0.08, 0.5);
      const plainShot = await shot(plain, 'plain-chip');
      const pressedShot = await shot(pressed, 'pressed-chip');
      expect(inside(pressedShot)).not.toBe(inside(plainShot));
      // Each card's border is drawn: its left edge differs from the card's inside.
      const card = await shot(part(grid, 'card')!, 'card');
      expect(colourAt(card, 0, 0.5)).not.toBe(colourAt(card, 0.02, 0.5));
    },
  );

  it.skipIf(!lane)('a focused card: its ring is drawn over its edge, which an unfocused card shows plain', async () => {
    const { root, grid } = await widgetParts();
    const [first, second] = parts(grid, 'card');
    first!.focus();
    expect(first!.matches(':focus-visible')).toBe(true);
    await shot(root, 'focused-card');
    expect(edge(await shot(first!, 'focused-card-alone'))).not.toBe(edge(await shot(second!, 'unfocused-card')));
  });

  it.skipIf(!lane)('a focused chip: its ring is drawn around it, which the chip beside it lacks', async () => {
    const { root, filter } = await widgetParts();
    const chips = parts(filter, 'chip');
    // The toolbar's one tab stop, as the keyboard reaches it.
    const stop = chips.find((chip) => chip.tabIndex === 0)!;
    stop.focus();
    expect(stop.matches(':focus-visible')).toBe(true);
    await shot(root, 'focused-chip');
    const other = chips.find((chip) => chip !== stop && !chip.matches('[part~="chip-pressed"]'))!;
    // The ring's band lies 2 to 4 px outside the chip: a box 4 px larger than each chip holds it at its edge.
    const ringOf = async (chip: HTMLElement, name: string) => {
      const box = chip.getBoundingClientRect();
      const frame = document.createElement('div');
      frame.style.cssText = `position: fixed; left: ${box.left - 4}px; top: ${box.top - 4}px; width: ${box.width + 8}px; height: ${box.height + 8}px; pointer-events: none`;
      document.body.append(frame);
      try {
        const image = await shot(frame, name);
        return colourAt(image, 0.5, 1 / (image.height - 1));
      } finally {
        frame.remove();
      }
    };
    expect(await ringOf(stop, 'focused-chip-ring')).not.toBe(await ringOf(other, 'plain-chip-ring'));
  });
});
