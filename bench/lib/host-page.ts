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
 * rule and the element's reservation size it), or in a panel of a fixed height, as a page sizes a
 * panel, a sidebar or a card: on the element itself (`panel`), or with a `display` of the page's own, as
 * pages commonly style custom elements (`hub-embed { display: block; height: 480px }`), inline-block, or
 * as the item of a grid or a flex column of that height.
 */
export type HostLayout = 'flow' | 'panel' | 'panel, display block' | 'panel, inline-block' | 'grid item' | 'flex item';

/** The panel's height in the panel layouts. */
export const PANEL_HEIGHT = 480;

/** Each panel layout with a `display` of the page's: its style rule for the tag, and the parent it puts the tag in. */
const PANELS: Record<Exclude<HostLayout, 'flow' | 'panel'>, { rule: string; parent?: string }> = {
  'panel, display block': { rule: `hub-embed { display: block; height: ${PANEL_HEIGHT}px }` },
  'panel, inline-block': { rule: `hub-embed { display: inline-block; width: 100%; height: ${PANEL_HEIGHT}px }` },
  'grid item': { rule: 'hub-embed { display: block }', parent: `display: grid; grid-template-rows: ${PANEL_HEIGHT}px` },
  'flex item': {
    rule: 'hub-embed { display: block; flex: 1 }',
    parent: `display: flex; flex-direction: column; height: ${PANEL_HEIGHT}px`,
  },
};

/** The page's body around `tag` (a `<hub-embed …>` start tag and its end tag): content above and below. */
export function hostBody(tag: string, layout: HostLayout): string {
  if (layout === 'flow') return `${ABOVE}${tag}${BELOW}`;
  if (layout === 'panel')
    return `${ABOVE}${tag.replace('<hub-embed ', `<hub-embed style="height: ${PANEL_HEIGHT}px" `)}${BELOW}`;
  const { rule, parent } = PANELS[layout];
  const placed = parent ? `<div style="${parent}">${tag}</div>` : tag;
  return `<style>${rule}</style>${ABOVE}${placed}${BELOW}`;
}

/** The default catalogue's first two tables: a short list, under which little blank may show. */
export function twoTableSeed(): MockSeed {
  return { ...defaultSeed, tables: defaultSeed.tables.slice(0, 2) };
}
