/**
 * What a real host page has around the widget, for the pages that measure layout shift (the Lighthouse
 * page of the bench, test/e2e/layout-shift.test.ts): the tag's style rule exactly as the README gives it,
 * and content above and below the tag, which a widget that moves would move.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defaultSeed, type MockSeed } from '../../packages/hub-embed-mock/src/index.js';

const README = fileURLToPath(new URL('../../README.md', import.meta.url));

/** The README's style rule for `<hub-embed>` (the example stylesheet's `readme-style` region). */
export function readmeStyle(): string {
  const readme = readFileSync(README, 'utf8');
  const rule = /<!-- from: [^>]*#readme-style -->\n```css\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!rule) throw new Error('README.md shows no style rule for <hub-embed> (region readme-style)');
  return rule;
}

/** A paragraph above the widget. */
export const ABOVE =
  '<p>Order forms for the services we work with. Choose a tag to narrow the list, and a table to open its form.</p>';

/** A paragraph and a footer below the widget. */
export const BELOW =
  '<p id="below">Questions about a form? Write to the service desk; we answer within a working day.</p>' +
  '<footer>Example host page · Terms · Privacy</footer>';

/**
 * Where a host page puts the widget: in the flow of its text, which gives it no height (the README's
 * rule and the element's reservation size it), or in a panel of a fixed height given on the element, as
 * a page sizes a panel, a sidebar or a card.
 */
export type HostLayout = 'flow' | 'panel';

/** The panel's height in the `panel` layout. */
export const PANEL_HEIGHT = 480;

/** The page's body around `tag` (a `<hub-embed …>` start tag and its end tag): content above and below. */
export function hostBody(tag: string, layout: HostLayout): string {
  const placed = layout === 'panel' ? tag.replace('<hub-embed ', `<hub-embed style="height: ${PANEL_HEIGHT}px" `) : tag;
  return `${ABOVE}${placed}${BELOW}`;
}

/** The default catalogue's first two tables: a short list, under which little blank may show. */
export function twoTableSeed(): MockSeed {
  return { ...defaultSeed, tables: defaultSeed.tables.slice(0, 2) };
}
