// The one place that uses chai's `expect` (from @open-wc/testing, with chai-a11y-axe): everything else in
// the tests uses Vitest's own `expect`, so a reader never wonders which one a line means.
import { expect as chaiExpect, fixture, html } from '@open-wc/testing';
import type { TemplateResult } from 'lit';
import { describe, expect, inject, it } from 'vitest';
import type { HubLocale } from '../../src/components/strings.js';
import { clippedFocusRings } from './focus-ring.js';
import { inChromium } from './helpers.js';

/** axe-core finds no violation in `element`, its shadow roots and its same-origin frames. */
export async function expectAccessible(element: Element): Promise<void> {
  await chaiExpect(element).to.be.accessible();
}

/** How a user may meet an element: the page's colour scheme and the widget's language. */
export interface Look {
  theme: 'light' | 'dark';
  locale: HubLocale;
}

export const looks: readonly Look[] = [
  { theme: 'light', locale: 'en' },
  { theme: 'dark', locale: 'en' },
  { theme: 'light', locale: 'zh-CN' },
  { theme: 'dark', locale: 'zh-CN' },
];

/**
 * `content` on a page of the look's colour scheme, as a light or a dark embedding page shows it (the
 * elements' colours follow the inherited color-scheme); resolves to the first element inside.
 */
export async function onPage<T extends Element>(look: Look, content: TemplateResult): Promise<T> {
  const page = await fixture(
    html`<div style="color-scheme: ${look.theme}; background: Canvas; color: CanvasText; padding: 8px">
      ${content}
    </div>`,
  );
  const element = page.firstElementChild as T;
  // The wrapper has no update of its own to wait for; the element's first render may be a task away.
  await (element as { updateComplete?: Promise<unknown> }).updateComplete;
  return element;
}

/**
 * One test per state and look: axe finds nothing. Each state builds the element as a user meets it and
 * resolves once it has rendered. Chromium only: happy-dom has no layout, so axe cannot judge contrast or
 * visibility there. Both describes run in the a11y lane (`npm run ci -- a11y`, the `a11y` project, which
 * runs only them; vitest.config.ts names them), out of the fast gate: an axe run per state and look is the
 * browser project's slowest work.
 */
export function describeAccessible(states: Record<string, (look: Look) => Promise<Element>>): void {
  describe('accessible in every state a user can meet, light and dark, en and zh-CN (axe)', () => {
    for (const look of looks)
      for (const [state, make] of Object.entries(states))
        it.skipIf(!inChromium || !inject('a11yLane'))(`${state} (${look.theme}, ${look.locale})`, async () => {
          await expectAccessible(await make(look));
        });
  });
  // Pixels from a screenshot: Chromium only, like axe. A screenshot per focusable part is slow, so two
  // looks: each colour scheme once, each language once.
  describe('every focusable part shows its whole focus ring, light and dark (pixels)', () => {
    for (const look of [looks[0]!, looks[3]!])
      for (const [state, make] of Object.entries(states))
        it.skipIf(!inChromium || !inject('a11yLane'))(
          `${state} (${look.theme}, ${look.locale})`,
          async () => {
            const clipped = await clippedFocusRings(await make(look));
            expect(clipped, clipped.join('\n')).toEqual([]);
          },
          120_000,
        );
  });
}
