/**
 * What a real host page has around the widget, for the pages that measure layout shift (the Lighthouse
 * page of the bench, test/e2e/layout-shift.test.ts): the tag's style rule exactly as the README gives it,
 * and content above and below the tag, which a widget that moves would move.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

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
